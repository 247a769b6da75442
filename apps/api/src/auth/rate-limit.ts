/**
 * Rate limiting with `@fastify/rate-limit`: `server.rate_limit.max` requests per `time_window_ms`, in one
 * bucket per verified caller (issuer + identity), counted after authentication; per client address only for
 * callers that are not verified (JWT off, anonymous reads) and for requests authentication refuses (no token,
 * a bad token, a tenant refusal), so a token-guessing flood is limited without starving the verified callers
 * behind the same address (a gateway, a NAT, this process's own adapters). The embedded adapters' minted
 * identities are not limited: they are this process's own workers, bounded by its worker concurrency, and a
 * limit on them only stalls deletions. The client address is the socket's, or the `X-Forwarded-For` hop
 * after the last trusted proxy when `server.trusted_proxies` is set (Fastify `trustProxy`). Off by default.
 * Over the limit: 429 problem details `HYPERFLEET-LMT-001` with `Retry-After` (seconds until the window
 * resets). Public routes (public-routes.ts) are never limited.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitConfig } from '@decom/config';
import { Problems } from '../problem-details/problem.js';
import type { HttpProblem } from '../problem-details/problem.js';
import type { AddressLimiter } from './request-authentication.js';
import { isPublicRoute } from './public-routes.js';
import { EMBEDDED_ISSUER } from './embedded-issuer.js';

/**
 * Registers the limiter and returns the per-address bucket the authentication hook counts refusals in
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
    // For a refused request (the address bucket below) no principal is set, so the same generator yields the address.
    keyGenerator: (request) => {
      const principal = request.decomPrincipal;
      return principal?.issuer ? `id:${principal.issuer} ${principal.identity}` : `ip:${request.ip}`;
    },
    allowList: (request) => isPublicRoute(request) || request.decomPrincipal?.issuer === EMBEDDED_ISSUER,
    errorResponseBuilder: (_request, context) => overLimit(context.max, context.ttl),
  });
  // The plugin's own limiter on its store: the address bucket is the one unverified callers use.
  const limiter = fastify.createRateLimit();
  return {
    countRefusal: async (request: FastifyRequest, reply: FastifyReply) => {
      const outcome = await limiter(request);
      if (outcome.isAllowed || !outcome.isExceeded) return;
      void reply
        .header('retry-after', outcome.ttlInSeconds)
        .header('x-ratelimit-limit', outcome.max)
        .header('x-ratelimit-remaining', 0)
        .header('x-ratelimit-reset', outcome.ttlInSeconds);
      throw overLimit(outcome.max, outcome.ttl);
    },
  };
}
