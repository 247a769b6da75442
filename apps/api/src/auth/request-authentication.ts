/**
 * Installs authentication on every request, before any route or GraphQL operation runs: deny by default,
 * every route needs a verified caller unless the route that matched is declared public (public-routes.ts:
 * health, readiness, the UI's static files, the OpenAPI document); a request no route matched needs one
 * too, so a 404 or 405 tells an unauthenticated caller nothing. The decision is the router's, never the
 * URL string's (a percent-encoded letter is still the same route). The `Principal` is kept on the request.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Tenancy } from '@decom/domain';
import { Problems } from '../problem-details/problem.js';
import type { Principal } from './access-policy.js';
import type { Authenticator } from './authenticator.js';
import { isPublicRoute } from './public-routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller (set by the authentication hook on every route that is not public). */
    decomPrincipal?: Principal;
  }
}

/** The per-client-address bucket of the rate limit (rate-limit.ts), for requests authentication refuses. */
export interface AddressLimiter {
  /**
   * Counts a refused request (401/403) against its client address; throws the 429 problem (and sets
   * `Retry-After`) instead of the refusal once that address is over its limit.
   */
  countRefusal(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/**
 * `limiter`: with the rate limit on, a refused request counts against its address, and past the limit the
 * address is answered 429. Verification comes first: a verified caller is limited in its own bucket
 * (rate-limit.ts), never by what other clients of its address (a gateway, this process's own adapters) did.
 */
export function installAuthentication(fastify: FastifyInstance, authenticator: Authenticator, limiter?: AddressLimiter): void {
  fastify.decorateRequest('decomPrincipal', undefined);
  const verify = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      request.decomPrincipal = await authenticator.authenticate(request);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 401 || status === 403) await limiter?.countRefusal(request, reply);
      if (status === 401) void reply.header('www-authenticate', 'Bearer realm="decom"');
      throw error;
    }
  };
  // Callback style with a synchronous path when nothing needs awaiting (no rate limit, no token to verify):
  // no promise per request; errors reach the same error handler either way.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (isPublicRoute(request)) return done();
    // What an API path answers depends on who asks (roles, tenancy): no shared cache may keep it and hand it
    // to another caller (a gateway or proxy configured to cache GETs would otherwise cross tenants).
    void reply.header('cache-control', 'no-store');
    if (!limiter && authenticator.canAuthenticateNow) {
      try {
        request.decomPrincipal = authenticator.authenticateNow(request);
      } catch (error) {
        if ((error as { status?: number }).status === 401) void reply.header('www-authenticate', 'Bearer realm="decom"');
        return done(error as Error);
      }
      return done();
    }
    verify(request, reply).then(() => done(), done);
  });
}

/**
 * The tenancy the request's reads and writes are confined to (as HyperFleet scopes them): the caller's; null =
 * unscoped (tenants off, or a system caller).
 */
export function scopeOf(request: FastifyRequest): Tenancy | null {
  return principalOf(request).tenant;
}

/**
 * The request's verified caller. Fails closed: a handler asking on a request that was not authenticated
 * (a public route, which must not need a caller) gets 401, never an unscoped stand-in identity.
 * @throws HttpProblem 401 HYPERFLEET-AUT-001 when no caller was verified for this request.
 */
export function principalOf(request: FastifyRequest): Principal {
  if (request.decomPrincipal) return request.decomPrincipal;
  throw Problems.authenticationRequired();
}
