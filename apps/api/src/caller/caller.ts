/**
 * Caller identity: the verified principal of the request (auth/request-authentication.ts);
 * with JWT off it is the `X-HyperFleet-Identity` header, else `system@hyperfleet.local` as HyperFleet does
 * with authentication disabled.
 */
import type { FastifyRequest } from 'fastify';
import type { CommandContext } from '@decom/application';
import { principalOf } from '../auth/request-authentication.js';

export { ANONYMOUS_CALLER, IDENTITY_HEADER } from '../auth/identity-header.js';

export function callerOf(request: FastifyRequest): string {
  return principalOf(request).identity;
}

/** The command context of a request: verified caller, its audit fields, the request's trace id. */
export function commandContextOf(request: FastifyRequest): CommandContext {
  const principal = principalOf(request);
  return {
    caller: principal.identity,
    audit: { issuer: principal.issuer, subject: principal.subject, tenant: principal.tenant },
    traceId: String(request.id),
  };
}
