/**
 * Installs authentication on every API request, before any route or GraphQL operation runs: `/api/...`
 * and `/graphql` need a verified caller; health, readiness, metrics and static files stay open (load
 * balancers and scrapers carry no token). The `Principal` is kept on the request for the routes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Tenancy } from '@decom/domain';
import { ANONYMOUS_CALLER } from '../caller/caller.js';
import type { Principal } from './access-policy.js';
import type { Authenticator } from './authenticator.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller (set by the authentication hook on `/api/` and `/graphql`). */
    decomPrincipal?: Principal;
  }
}

/** True for the paths that need a verified caller. */
export function needsAuthentication(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return path.startsWith('/api/') || path === '/graphql' || path.startsWith('/graphql/');
}

/** The per-client-address guard of the rate limit (rate-limit.ts), consulted around verification. */
export interface AddressLimiter {
  /** Throws the 429 problem (and sets `Retry-After`) when the request's address is over its limit. */
  checkAddress(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Counts a request that authentication refused (401/403) against its address. */
  countRefusal(request: FastifyRequest): Promise<void>;
}

/** `limiter`: with the rate limit on, an address over its limit is refused before any token is verified. */
export function installAuthentication(fastify: FastifyInstance, authenticator: Authenticator, limiter?: AddressLimiter): void {
  fastify.decorateRequest('decomPrincipal', undefined);
  const verify = async (request: FastifyRequest, reply: FastifyReply) => {
    await limiter?.checkAddress(request, reply);
    try {
      request.decomPrincipal = await authenticator.authenticate(request);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 401) void reply.header('www-authenticate', 'Bearer realm="decom"');
      if (status === 401 || status === 403) await limiter?.countRefusal(request);
      throw error;
    }
  };
  // Callback style with a synchronous path when nothing needs awaiting (no rate limit, no token to verify):
  // no promise per request (issue 16); errors reach the same error handler either way.
  fastify.addHook('onRequest', (request, reply, done) => {
    // CORS preflights carry no credentials by design.
    if (request.method === 'OPTIONS' || !needsAuthentication(request.url)) return done();
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
 * The tenancy the request's reads and writes are confined to (HyperFleet §8.1): the caller's; null =
 * unscoped (tenants off, or a system caller).
 */
export function scopeOf(request: FastifyRequest): Tenancy | null {
  return principalOf(request).tenant;
}

/** The request's verified caller; outside authenticated paths, the anonymous system caller. */
export function principalOf(request: FastifyRequest): Principal {
  return request.decomPrincipal ?? { identity: ANONYMOUS_CALLER, issuer: null, subject: null, tenant: null };
}
