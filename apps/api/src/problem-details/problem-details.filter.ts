/**
 * Renders every error as `application/problem+json`, as HyperFleet's API does. Unexpected errors become a 500 with
 * a generic detail; the stack goes to the log with the trace id, never to the client.
 */
import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { mapError, type MappedError } from './error-map.js';
import { PROBLEM_TYPE_BASE, type ProblemDetails } from './problem.js';
import { boundedProblem } from './bounded.js';

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  catch(exception: unknown, host: ArgumentsHost): unknown {
    // GraphQL errors are shaped by the resolvers (graphql/graphql-errors.ts); hand them back untouched.
    if (host.getType<string>() !== 'http') return exception;
    const http = host.switchToHttp();
    this.send(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
    return undefined;
  }

  /** Answers `exception` on `reply` as problem details: the same answer inside Nest or on a bare Fastify route. */
  send(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const traceId = String(request.id);
    const mapped = mapError(exception) ?? this.fromHttpException(exception, request) ?? this.internal(exception, traceId);
    const body: ProblemDetails = boundedProblem({
      type: PROBLEM_TYPE_BASE + mapped.typeSlug,
      title: mapped.title,
      status: mapped.status,
      detail: mapped.detail,
      code: mapped.code,
      timestamp: new Date().toISOString(),
      instance: request.url.split('?')[0] ?? request.url,
      trace_id: traceId,
      ...(mapped.errors ? { errors: mapped.errors } : {}),
      ...mapped.extensions,
    });
    for (const [name, value] of Object.entries(mapped.headers ?? {})) void reply.header(name, value);
    void reply.status(mapped.status).header('content-type', 'application/problem+json').header('vary', 'Authorization').send(body);
  }

  /** Framework errors: unknown route, unreadable body, payload too large. */
  private fromHttpException(exception: unknown, request: FastifyRequest): MappedError | undefined {
    const status = exception instanceof HttpException ? exception.getStatus() : (exception as { statusCode?: number })?.statusCode;
    if (typeof status !== 'number' || status >= 500) return undefined;
    if (status === 404) {
      return {
        status,
        code: 'HYPERFLEET-NTF-000',
        title: 'Endpoint Not Found',
        typeSlug: 'not-found',
        detail: `no route for ${request.method} ${request.url.split('?')[0]}`,
      };
    }
    const message = exception instanceof Error ? exception.message : 'bad request';
    if (status === 415) {
      return {
        status,
        code: 'HYPERFLEET-VAL-006',
        title: 'Malformed Request',
        typeSlug: 'malformed-request',
        detail: 'the request body must be application/json',
      };
    }
    return {
      status: status === 413 ? 413 : 400,
      code: 'HYPERFLEET-VAL-006',
      title: 'Malformed Request',
      typeSlug: 'malformed-request',
      detail: message.replace(/^Body /, 'body '),
    };
  }

  private internal(exception: unknown, traceId: string): MappedError {
    this.logger.error(`unexpected error (trace_id=${traceId}): ${exception instanceof Error ? exception.stack : String(exception)}`);
    return {
      status: 500,
      code: 'HYPERFLEET-INT-001',
      title: 'Internal Server Error',
      typeSlug: 'internal-error',
      detail: `an unexpected error occurred; trace_id=${traceId}`,
    };
  }
}
