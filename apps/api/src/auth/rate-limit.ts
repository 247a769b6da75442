/**
 * Per-caller rate limiting with `@fastify/rate-limit` (issue 9 item 8): `server.rate_limit.max` requests
 * per `time_window_ms` per verified caller (issuer + identity); per client address when the caller is not
 * verified (JWT off, anonymous reads), since a claimed identity header costs nothing to change.
 * Requests refused by authentication never reach it.
 * Off by default. Over the limit: 429 problem details `HYPERFLEET-LMT-001` with `Retry-After`.
 * Health and metrics paths are never limited.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { RateLimitConfig } from '@decom/config';
import { Problems } from '../problem-details/problem.js';
import { needsAuthentication } from './request-authentication.js';

export async function installRateLimit(fastify: FastifyInstance, config: RateLimitConfig): Promise<void> {
  await fastify.register(rateLimit, {
    global: true,
    max: config.max,
    timeWindow: config.time_window_ms,
    // Route-level onRequest hooks run after the instance's authentication hook: the identity is known.
    keyGenerator: (request) => {
      const principal = request.decomPrincipal;
      return principal?.issuer ? `id:${principal.issuer} ${principal.identity}` : `ip:${request.ip}`;
    },
    allowList: (request) => !needsAuthentication(request.url),
    errorResponseBuilder: (_request, context) => Problems.rateLimited(`at most ${context.max} requests per ${context.after}; retry later`),
  });
}
