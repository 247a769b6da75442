/**
 * Caller identity (contract §1.8): the `X-HyperFleet-Identity` header, else `system@hyperfleet.local`
 * as HyperFleet does with authentication disabled.
 */
import type { FastifyRequest } from 'fastify';

export const IDENTITY_HEADER = 'x-hyperfleet-identity';
export const ANONYMOUS_CALLER = 'system@hyperfleet.local';

export function callerOf(request: FastifyRequest): string {
  const header = request.headers[IDENTITY_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  return value && value.trim() !== '' ? value.trim() : ANONYMOUS_CALLER;
}
