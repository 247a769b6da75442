/**
 * GraphQL's context as the resolvers read it (Mercurius hands over the Fastify reply) and the request behind
 * it, which passed the same authentication hook as REST (auth/request-authentication.ts).
 */
import type { FastifyRequest } from 'fastify';

export interface GraphQLContext {
  readonly reply?: { readonly request?: { readonly id?: unknown } };
}

/** The authenticated Fastify request a resolver runs for. */
export function requestOf(ctx: GraphQLContext): FastifyRequest {
  return ctx.reply!.request as FastifyRequest;
}
