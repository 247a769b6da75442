/**
 * GraphQL reuses the REST error table: a mapped error becomes a GraphQLError whose
 * `extensions.problem` is the problem-details body; anything unexpected becomes a generic internal error.
 */
import { GraphQLError } from 'graphql';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mapError } from '../problem-details/error-map.js';
import { PROBLEM_TYPE_BASE } from '../problem-details/problem.js';
import { boundedProblem } from '../problem-details/bounded.js';
import type { GraphQLContext } from './graphql-context.js';

const logger = new Logger('GraphQL');

/** The request's trace id (request-observability.ts: Fastify's `request.id`), for problem bodies; undefined outside a request. */
export function traceIdOf(ctx: GraphQLContext): string | undefined {
  const id = ctx.reply?.request?.id;
  return id === undefined ? undefined : String(id);
}

/**
 * Runs a resolver's `run`; a thrown error becomes the GraphQLError described above, its problem's `trace_id` the
 * request's (`traceId`: Fastify's `request.id`, request-observability.ts), a fresh one only outside a request.
 */
export async function withProblems<T>(operation: string, traceId: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    return problemFor(operation, traceId ?? randomUUID(), error);
  }
}

/** @throws the GraphQLError of `error` (mapped through the REST error table, else a generic internal error). */
function problemFor(operation: string, traceId: string, error: unknown): never {
  const mapped = mapError(error);
  if (!mapped)
    logger.error(`unexpected error in ${operation} (trace_id=${traceId}): ${error instanceof Error ? error.stack : String(error)}`);
  const problem = boundedProblem({
    type: PROBLEM_TYPE_BASE + (mapped?.typeSlug ?? 'internal-error'),
    title: mapped?.title ?? 'Internal Server Error',
    status: mapped?.status ?? 500,
    detail: mapped?.detail ?? `an unexpected error occurred; trace_id=${traceId}`,
    code: mapped?.code ?? 'HYPERFLEET-INT-001',
    timestamp: new Date().toISOString(),
    instance: `graphql:${operation}`,
    trace_id: traceId,
    ...(mapped?.errors ? { errors: mapped.errors } : {}),
    // A refused deletion preview says so, as its REST answer does (dry-run-refused.ts).
    ...(mapped?.extensions?.['dry_run'] === true && { dry_run: true }),
    // A deletion refused by protection names the protected resources, as its REST answer does.
    ...(mapped?.extensions?.['protected_resources'] !== undefined && { protected_resources: mapped.extensions['protected_resources'] }),
    ...(mapped?.extensions?.['budget'] !== undefined && { budget: mapped.extensions['budget'] }),
    // A GraphQL answer is 200 with errors, so REST's `Retry-After` header (429, 503) travels in the problem.
    ...(retryAfterSeconds(mapped?.headers) !== undefined && { retry_after_seconds: retryAfterSeconds(mapped?.headers) }),
    ...(mapped?.extensions?.['break_glass_request'] !== undefined && { break_glass_request: mapped.extensions['break_glass_request'] }),
  });
  throw new GraphQLError(problem.detail, { extensions: { code: problem.code, problem } });
}

function retryAfterSeconds(headers: Readonly<Record<string, string>> | undefined): number | undefined {
  const value = Number(headers?.['retry-after']);
  return Number.isInteger(value) && value >= 0 ? value : undefined;
}
