/**
 * Who may do what (docs/security.md "Roles"), pure: a verified `Principal` and an action in, allowed or a
 * 403 reason out. Rules:
 * - a status report for adapter X only from an identity bound to X (`authorization.adapters.X`);
 * - system identities (any identity bound to an adapter) write statuses only;
 * - force-delete, force-orphan, abandoning an adapter, pause, unpause, retrying a dead-lettered job and
 *   approving or rejecting a break-glass request are admin-only;
 * - clearing deletion protection is admin-only unless `authorization.deletion_protection.clear_role: operator`;
 * - create, patch and delete: admins and operators, or any authenticated non-system caller when
 *   `operators` is not configured (as in HyperFleet).
 * With authentication off and no roles configured everyone may do everything (development mode).
 */
import type { AuthorizationConfig, BreakGlassConfig, RoleGrant } from '@decom/config';

/** The verified caller of one request. `issuer`/`subject` are null when no token was verified. */
export interface Principal {
  readonly identity: string;
  readonly issuer: string | null;
  readonly subject: string | null;
  /** Tenancy of the caller (tenant-resolver.ts); null = unscoped (tenants off, or a system caller). */
  readonly tenant: Readonly<Record<string, string>> | null;
  /** When the verified token expires (its `exp`, ms since the epoch); absent without a token or an `exp`. */
  readonly expires_at?: number;
}

export type Role = 'admin' | 'operator' | 'adapter' | 'reader';

/** `retry_job`: sending a dead-lettered job back to its queue (`POST /api/decom/v1/jobs/retry`), admin-only. */
export type ResourceAction =
  | 'read'
  | 'create'
  | 'patch'
  | 'delete'
  | 'pause'
  | 'unpause'
  | 'force_delete'
  | 'force_orphan'
  | 'retry_job'
  | 'abandon_adapter'
  | 'clear_deletion_protection'
  | 'override_deletion_budget'
  | 'decide_break_glass';

export const ACTIONS: readonly Exclude<ResourceAction, 'read' | 'patch' | 'retry_job'>[] = [
  'create',
  'delete',
  'pause',
  'unpause',
  'force_delete',
  'force_orphan',
  'abandon_adapter',
  'clear_deletion_protection',
  'override_deletion_budget',
];

const ADMIN_ONLY: ReadonlySet<ResourceAction> = new Set([
  'pause',
  'unpause',
  'force_delete',
  'force_orphan',
  'retry_job',
  'abandon_adapter',
  'override_deletion_budget',
  'decide_break_glass',
]);

export type AccessDecision = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

export interface AccessPolicyOptions {
  readonly authorization: AuthorizationConfig;
  /** True when callers are verified (JWT on): then an adapter with no bound identity accepts no reports. */
  readonly authenticated: boolean;
  /**
   * Adapters Decom hosts itself in the embedded profile: their minted identity `adapter:<name>` from the
   * embedded issuer is bound to `<name>` without configuration.
   */
  readonly embeddedIssuer?: string;
}

/**
 * The callers a role list grants (`RoleGrant`s): a plain identity matches it from any issuer (and a header
 * identity with JWT off), an `{issuer, identity}` grant only when that issuer verified it.
 */
class Grantees {
  private readonly keys = new Set<string>();
  /** Every identity named, whichever issuer a grant is bound to. */
  readonly identities = new Set<string>();

  constructor(grants: readonly RoleGrant[]) {
    for (const grant of grants) {
      this.keys.add(typeof grant === 'string' ? anyIssuer(grant) : fromIssuer(grant.issuer, grant.identity));
      this.identities.add(typeof grant === 'string' ? grant : grant.identity);
    }
  }

  get size(): number {
    return this.keys.size;
  }

  has(principal: Principal): boolean {
    return (
      this.keys.has(anyIssuer(principal.identity)) ||
      (principal.issuer !== null && this.keys.has(fromIssuer(principal.issuer, principal.identity)))
    );
  }
}

// Keys of `Grantees`: a NUL cannot occur in an identity (printable ASCII) nor in a URL, so no two collide.
const anyIssuer = (identity: string) => `\0${identity}`;
const fromIssuer = (issuer: string, identity: string) => `${issuer}\0${identity}`;

export class AccessPolicy {
  private readonly admins: Grantees;
  private readonly operators: Grantees | undefined;
  private readonly adapterGrants: readonly { readonly adapter: string; readonly grantees: Grantees }[];

  constructor(private readonly options: AccessPolicyOptions) {
    this.admins = new Grantees(options.authorization.admins);
    this.operators = options.authorization.operators ? new Grantees(options.authorization.operators) : undefined;
    this.adapterGrants = Object.entries(options.authorization.adapters).map(([adapter, grants]) => ({
      adapter,
      grantees: new Grantees(grants),
    }));
  }

  /** No roles and no verification: today's open development mode (everyone may do everything). */
  get isOpen(): boolean {
    const a = this.options.authorization;
    return !this.options.authenticated && a.admins.length === 0 && !a.operators && Object.keys(a.adapters).length === 0;
  }

  /**
   * `authorization.break_glass` when the two-person rule is on (`approvals` ≥ 1): force delete, force orphan,
   * unpause and leak deletion are then requests another administrator approves. Undefined = off.
   */
  get breakGlass(): BreakGlassConfig | undefined {
    return this.options.authorization.break_glass;
  }

  /** The adapters whose statuses `principal` may report. */
  adaptersOf(principal: Principal): readonly string[] {
    const bound = this.adapterGrants.filter((g) => g.grantees.has(principal)).map((g) => g.adapter);
    const embedded = this.embeddedAdapter(principal);
    return embedded ? [...new Set([...bound, embedded])] : bound;
  }

  isSystem(principal: Principal): boolean {
    return this.adaptersOf(principal).length > 0;
  }

  /**
   * Does `identity` name an adapter's identity under any issuer? For an `identity_header` value, which no
   * issuer has verified yet: a gateway may not assert an adapter's identity bound to another issuer either.
   */
  namesSystemIdentity(identity: string): boolean {
    return this.adapterGrants.some((g) => g.grantees.identities.has(identity));
  }

  rolesOf(principal: Principal): Role[] {
    if (this.isOpen) return ['admin', 'operator', 'reader'];
    if (this.isSystem(principal)) return ['adapter', 'reader'];
    const roles: Role[] = [];
    if (this.admins.has(principal)) roles.push('admin');
    if (this.admins.has(principal) || !this.operators || this.operators.has(principal)) roles.push('operator');
    roles.push('reader');
    return roles;
  }

  can(principal: Principal, action: ResourceAction): AccessDecision {
    if (this.isOpen || action === 'read') return { allowed: true };
    if (this.isSystem(principal)) return deny(`system identities may only write status and conditions; '${principal.identity}' is one`);
    const roles = this.rolesOf(principal);
    const adminOnly =
      ADMIN_ONLY.has(action) ||
      (action === 'clear_deletion_protection' && this.options.authorization.deletion_protection?.clear_role !== 'operator');
    if (adminOnly) {
      // DECOM_ADMINS alone (no JWT, no operators) keeps its meaning: it restricts the break-glass actions only.
      if (roles.includes('admin')) return { allowed: true };
      if (this.admins.size === 0 && !this.options.authenticated && (action === 'pause' || action === 'unpause')) return { allowed: true };
      return deny(`${action.replaceAll('_', ' ')} is restricted to administrators; '${principal.identity}' is not one`);
    }
    if (roles.includes('operator')) return { allowed: true };
    return deny(`${action} is restricted to operators and administrators; '${principal.identity}' is neither`);
  }

  /** May `principal` report a status for `adapter`? */
  canReport(principal: Principal, adapter: string): AccessDecision {
    if (this.isOpen) return { allowed: true };
    if (this.adaptersOf(principal).includes(adapter)) return { allowed: true };
    // Without verified callers and without any binding configured, reports stay open (header identities prove nothing).
    if (!this.options.authenticated && Object.keys(this.options.authorization.adapters).length === 0) return { allowed: true };
    return deny(`status reports for adapter '${adapter}' are accepted only from its bound identities; '${principal.identity}' is not one`);
  }

  private embeddedAdapter(principal: Principal): string | undefined {
    if (!this.options.embeddedIssuer || principal.issuer !== this.options.embeddedIssuer) return undefined;
    return principal.identity.startsWith('adapter:') ? principal.identity.slice('adapter:'.length) : undefined;
  }
}

function deny(reason: string): AccessDecision {
  return { allowed: false, reason };
}
