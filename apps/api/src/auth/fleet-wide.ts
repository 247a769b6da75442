/**
 * Fleet-wide views (the leak scan, the dead-letter set) span every tenant: with tenants on (HyperFleet §8.1)
 * only administrators and system callers may see them; with tenants off, everyone who may read.
 */
import type { FastifyRequest } from 'fastify';
import { Problems } from '../problem-details/problem.js';
import type { AccessPolicy } from './access-policy.js';
import { principalOf, scopeOf } from './request-authentication.js';

/** @throws HttpProblem 403 `HYPERFLEET-AUZ-001` for a tenant-scoped caller who is neither admin nor system. `what`: e.g. `leaks`. */
export function requireFleetWide(req: FastifyRequest, access: AccessPolicy, what: string): void {
  const principal = principalOf(req);
  if (scopeOf(req) && !access.rolesOf(principal).includes('admin') && !access.isSystem(principal)) {
    throw Problems.forbidden(`${what} are fleet-wide: with tenants on, only system callers and administrators may see them`);
  }
}
