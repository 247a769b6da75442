/**
 * The caller's tenancy (HyperFleet's `server.tenant`), read from headers a trusted gateway injects:
 * - `system_header` equal to `true` (trimmed, case-insensitive) → a system caller: tenancy null (unscoped
 *   reads). Unlike HyperFleet, which trusts its gateway for this header, Decom honours it only for callers
 *   it already treats as system identities (an identity bound in `authorization.adapters`, or the embedded
 *   adapters' minted tokens, which are system callers even without the header); from anyone else the
 *   header is ignored and the dimensions apply. An administrator (`authorization.admins`) sending it reads
 *   fleet-wide (GET/HEAD only: the leak scan, dead letters, the event stream, every tenant's resources);
 *   its writes still name a tenant, so nothing it creates is left without one.
 * - a dimension with a `claim` is bound to the verified token: the claim's value when no header is sent, and
 *   a header that disagrees with it → 403 (a token without the claim leaves the header in charge);
 * - otherwise each dimension's header: a value is 1..63 characters of `[A-Za-z0-9._-]`; a missing required
 *   dimension, a bad value, or no dimension at all → 403 `HYPERFLEET-AUZ-001`.
 */
import type { FastifyRequest } from 'fastify';
import type { TenantConfig } from '@decom/config';
import type { Tenancy } from '@decom/domain';
import { Problems } from '../problem-details/problem.js';
import type { Principal } from './access-policy.js';
import { EMBEDDED_ISSUER } from './embedded-issuer.js';

const TENANT_VALUE = /^[A-Za-z0-9._-]{1,63}$/;

export class TenantResolver {
  constructor(
    private readonly config: TenantConfig,
    private readonly isSystem: (principal: Principal) => boolean,
    private readonly isAdmin: (principal: Principal) => boolean = () => false,
  ) {}

  /** @throws HttpProblem 403 HYPERFLEET-AUZ-001 naming the dimension header at fault. */
  resolve(request: FastifyRequest, principal: Principal, claims: Readonly<Record<string, unknown>> = {}): Tenancy | null {
    // Decom's own embedded adapters (tokens minted in this process) are system callers without the header.
    if (principal.issuer === EMBEDDED_ISSUER) return null;
    if (header(request, this.config.system_header)?.toLowerCase() === 'true') {
      if (this.isSystem(principal)) return null;
      if (this.isAdmin(principal) && (request.method === 'GET' || request.method === 'HEAD')) return null;
    }
    const tenancy: Record<string, string> = {};
    for (const dimension of this.config.dimensions) {
      const sent = header(request, dimension.header);
      const claimed = dimension.claim === undefined ? undefined : claims[dimension.claim];
      if (typeof claimed === 'string' && sent !== undefined && sent !== '' && sent !== claimed) {
        throw Problems.forbidden(`tenant header ${dimension.header} disagrees with the token's claim ${dimension.claim}`);
      }
      const value = typeof claimed === 'string' ? claimed : sent;
      if (value === undefined || value === '') {
        if (dimension.required) throw Problems.forbidden(`tenant header ${dimension.header} is required`);
        continue;
      }
      if (!TENANT_VALUE.test(value))
        throw Problems.forbidden(
          `tenant ${typeof claimed === 'string' ? `claim ${dimension.claim}` : `header ${dimension.header}`} must be 1..63 characters of [A-Za-z0-9._-]`,
        );
      tenancy[dimension.key] = value;
    }
    if (Object.keys(tenancy).length === 0) throw Problems.forbidden('no tenant dimension resolved');
    return tenancy;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const raw = request.headers[name];
  return (Array.isArray(raw) ? raw[0] : raw)?.trim();
}
