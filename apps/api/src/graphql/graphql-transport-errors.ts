/**
 * Mercurius' error handler for `/graphql`: errors that stop a request before any
 * resolver runs answer with problem details and a 4xx, never `200 {errors}`:
 * - authentication (401/503) and rate limits (429) from the shared hooks: the same problem as REST;
 * - unreadable JSON and a body that is not `{query: string, ...}` (e.g. `{"query":123}`): 400 VAL-006;
 * - a syntax error or a refused document (graphql-armor limits, unknown fields): 400 VAL-000 listing
 *   each GraphQL message under `errors[]` (field `query`), bounded;
 * - a mutation over GET: 405 with `Allow: POST`.
 * Resolver errors are not here: they stay in the GraphQL answer with `extensions.problem` (graphql-errors.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { fastifyErrorHandler } from '../http-edge/framework-errors.js';
import { mapError } from '../problem-details/error-map.js';
import { HttpProblem, Problems } from '../problem-details/problem.js';

const MAX_LISTED = 20;
const MAX_MESSAGE = 300;

type TransportError = Error & { code?: string; statusCode?: number; validation?: unknown; errors?: { message?: string }[] };

export function graphqlErrorHandler(error: TransportError, request: FastifyRequest, reply: FastifyReply): void {
  fastifyErrorHandler(toProblem(error, reply), request, reply);
}

function toProblem(error: TransportError, reply: FastifyReply): Error {
  if (mapError(error)) return error;
  if (error.code === 'MER_ERR_METHOD_NOT_ALLOWED') {
    void reply.header('allow', 'POST');
    return Problems.methodNotAllowed('mutations must be sent with POST');
  }
  if (error.validation !== undefined || error.code === 'FST_ERR_VALIDATION') {
    return Problems.malformed('the GraphQL request must be {"query": string, "variables"?: object, "operationName"?: string}');
  }
  // A refused document: syntax errors and validation rules (mercurius collects them; graphql-armor throws its own).
  if (error.code === 'MER_ERR_GQL_VALIDATION' || error instanceof GraphQLError) {
    const messages = (error.errors?.length ? error.errors.map((e) => e.message ?? '') : [error.message]).map(bounded);
    return Problems.validation(
      `the GraphQL document was refused: ${messages[0]}${messages.length > 1 ? ` (and ${messages.length - 1} more)` : ''}`,
      messages.slice(0, MAX_LISTED).map((message) => ({ field: 'query', constraint: 'format' as const, message })),
    );
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500)
    return new HttpProblem(status, 'HYPERFLEET-VAL-006', 'Bad Request', 'bad-request', bounded(error.message));
  return error;
}

function bounded(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

/**
 * Checks the shape of a GraphQL POST body before schema validation coerces it (`{"query":123}` would become
 * the document "123"): `query` must be a string, `variables` an object, `operationName` a string.
 */
export function installGraphqlRequestCheck(fastify: FastifyInstance, path = '/graphql'): void {
  // Callback style (no promise per request: it runs on every route).
  fastify.addHook('preValidation', (request, _reply, done) => {
    if (request.method !== 'POST' || (request.url.split('?')[0] ?? '') !== path) return done();
    const body = request.body as Record<string, unknown> | undefined;
    const ok =
      typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      typeof body['query'] === 'string' &&
      (body['variables'] === undefined ||
        body['variables'] === null ||
        (typeof body['variables'] === 'object' && !Array.isArray(body['variables']))) &&
      (body['operationName'] === undefined || body['operationName'] === null || typeof body['operationName'] === 'string');
    done(
      ok ? undefined : Problems.malformed('the GraphQL request must be {"query": string, "variables"?: object, "operationName"?: string}'),
    );
  });
}
