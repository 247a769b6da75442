/**
 * Builds the Nest application on Fastify with the global validation pipe and problem-details filter.
 */
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule, headerAuth, type ApiRuntime } from './app.module.js';
import { installAuthentication } from './auth/request-authentication.js';
import { installRateLimit } from './auth/rate-limit.js';
import { installGraphqlRequestCheck } from './graphql/graphql-transport-errors.js';
import { ProblemDetailsFilter } from './problem-details/problem-details.filter.js';
import { createValidationPipe } from './problem-details/validation-pipe.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorHandler, fastifyErrorHandler, frameworkErrorHandler } from './http-edge/framework-errors.js';
import { mapError } from './problem-details/error-map.js';
import { JSON_CONTENT_TYPE, parseJsonBody } from './http-edge/json-body-parser.js';
import { installRequestObservability, traceRequestId, type RequestObservability } from './http-edge/request-observability.js';

/**
 * One Fastify error handler, installed before Nest registers its routes (so their contexts inherit it):
 * errors Decom raises outside a route (the JSON body parser's problems) become problem details; anything
 * else goes to the handler Nest asks for (its exception layer), or to the framework-error renderer.
 * Nest's own `setErrorHandler` call is captured instead of installing a second handler over the first.
 */
class ProblemFastifyAdapter extends FastifyAdapter {
  private nestHandler?: (this: unknown, error: Error, request: FastifyRequest, reply: FastifyReply) => unknown;

  constructor(options: Record<string, unknown>) {
    super(options as never);
    const adapter = this;
    this.getInstance().setErrorHandler(function (this: unknown, error: Error, request: FastifyRequest, reply: FastifyReply) {
      if (mapError(error)) return fastifyErrorHandler(error, request, reply);
      if (adapter.nestHandler) return adapter.nestHandler.call(this, error, request, reply);
      return frameworkErrorHandler(error, request, reply);
    });
  }

  override setErrorHandler(handler: Parameters<FastifyAdapter['setErrorHandler']>[0]) {
    this.nestHandler = handler as never;
    return this.getInstance() as never;
  }
}

/**
 * `options.logger`: Nest's own error/warn log on (default) or off; `options.observability`: access log and
 * request metrics (request-observability.ts). The trace id is chosen per request either way.
 */
export async function createApiApp(
  runtime: ApiRuntime,
  options: { logger?: boolean; observability?: RequestObservability } = {},
): Promise<NestFastifyApplication> {
  const adapter = new ProblemFastifyAdapter({
    genReqId: traceRequestId,
    bodyLimit: 1024 * 1024,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  const fastify = adapter.getInstance();
  installRequestObservability(fastify as never, options.observability ?? {});
  // JSON only: other media types get 415 (problem details) instead of being half-parsed.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Before Nest registers its routes and Mercurius: every route, REST and GraphQL, passes the same hooks.
  const auth = runtime.auth ?? headerAuth(runtime.options.admins);
  installAuthentication(fastify, auth.authenticator);
  if (auth.rateLimit?.enabled) await installRateLimit(fastify, auth.rateLimit);
  installGraphqlRequestCheck(fastify);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRuntime(runtime), adapter, {
    logger: options.logger === false ? false : ['error', 'warn'],
    bodyParser: false,
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.enableShutdownHooks();
  return app;
}
