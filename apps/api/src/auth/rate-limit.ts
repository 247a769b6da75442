/**
 * Per-caller rate limiting with `@fastify/rate-limit` (issue 9 item 8): `server.rate_limit.max` requests
 * per `time_window_ms` per verified caller (issuer + identity); per client address otherwise: callers that
 * are not verified (JWT off, anonymous reads) and requests that authentication refuses (no token, a bad
 * token), so a token-guessing flood is limited too. An address over its limit is answered 429 before its
 * token's signature is checked (a verified caller sharing that address waits out the window as well).
 * Off by default. Over the limit: 429 problem details `HYPERFLEET-LMT-001` with `Retry-After` (seconds
 * until the window resets). Health and metrics paths are never limited.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitConfig } from '@decom/config';
import { Problems } from '../problem-details/problem.js';
import type { HttpProblem } from '../problem-details/problem.js';
import type { AddressLimiter } from './request-authentication.js';
import { isPublicRoute } from './public-routes.js';

/**
 * Registers the limiter and returns the per-address guard the authentication hook consults
 * (`installAuthentication(fastify, authenticator, guard)`).
 */
export async function installRateLimit(fastify: FastifyInstance, config: RateLimitConfig): Promise<AddressLimiter> {
  const overLimit = (max: number, ttlMs: number): HttpProblem =>
    Problems.rateLimited(`at most ${max} requests per ${config.time_window_ms / 1000} seconds; retry after ${Math.ceil(ttlMs / 1000)} s`);
  await fastify.register(rateLimit, {
    global: true,
    max: config.max,
    timeWindow: config.time_window_ms,
    // Route-level onRequest hooks run after the instance's authentication hook: the identity is known.
    // Before it (the address guard below) no principal is set, so the same generator yields the address.
    keyGenerator: (request) => {
      const principal = request.decomPrincipal;
      return principal?.issuer ? `id:${principal.issuer} ${principal.identity}` : `ip:${request.ip}`;
    },
    allowList: (request) => isPublicRoute(request),
    errorResponseBuilder: (_request, context) => overLimit(context.max, context.ttl),
  });
  // The plugin's own limiter on its store: the address bucket is the one unverified callers use.
  const limiter = fastify.createRateLimit();
  const refuseIfOver = (outcome: Awaited<ReturnType<typeof limiter>>, reply: FastifyReply): void => {
    if (outcome.isAllowed || outcome.remaining > 0) return;
    void reply.header('retry-after', outcome.ttlInSeconds).header('x-ratelimit-limit', outcome.max)
      .header('x-ratelimit-remaining', 0).header('x-ratelimit-reset', outcome.ttlInSeconds);
    throw overLimit(outcome.max, outcome.ttl);
  };
  return {
    checkAddress: async (request: FastifyRequest, reply: FastifyReply) => refuseIfOver(await limiter(request, { increment: false }), reply),
    countRefusal: async (request: FastifyRequest) => void (await limiter(request)),
  };
}
