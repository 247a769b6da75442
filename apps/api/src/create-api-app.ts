/**
 * Builds the Nest application on Fastify with the global validation pipe and problem-details filter.
 */
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { AppModule, type ApiRuntime } from './app.module.js';
import { ProblemDetailsFilter } from './problem-details/problem-details.filter.js';
import { createValidationPipe } from './problem-details/validation-pipe.js';
import { clientErrorHandler, fastifyErrorHandler, frameworkErrorHandler } from './http-edge/framework-errors.js';
import { JSON_CONTENT_TYPE, parseJsonBody } from './http-edge/json-body-parser.js';

export async function createApiApp(runtime: ApiRuntime, options: { logger?: boolean } = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const header = req.headers['x-request-id'];
      return (Array.isArray(header) ? header[0] : header) ?? randomUUID();
    },
    bodyLimit: 1024 * 1024,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  const fastify = adapter.getInstance();
  // JSON only: other media types get 415 (problem details) instead of being half-parsed.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRuntime(runtime), adapter, {
    logger: options.logger === false ? false : ['error', 'warn'],
    bodyParser: false,
  });
  // Errors raised before a Nest route runs (body parser, media type) are rendered here; Nest later adds its
  // own handler in front for route errors, which makes Fastify print FSTWRN004 once (harmless, expected).
  fastify.setErrorHandler(fastifyErrorHandler);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.enableShutdownHooks();
  return app;
}
