/**
 * Who may do what (docs/security.md "Roles"), pure: a verified `Principal` and an action in, allowed or a
 * 403 reason out. Rules (issue 9, HyperFleet §8.1):
 * - a status report for adapter X only from an identity bound to X (`authorization.adapters.X`);
 * - system identities (any identity bound to an adapter) write statuses only;
 * - force-delete, force-orphan, pause, unpause and retrying a dead-lettered job are admin-only;
 * - create, patch and delete: admins and operators, or any authenticated non-system caller when
 *   `operators` is not configured (as in HyperFleet).
 * With authentication off and no roles configured everyone may do everything (development mode).
 */
import type { AuthorizationConfig } from '@decom/config';

/** The verified caller of one request. `issuer`/`subject` are null when no token was verified. */
export interface Principal {
  readonly identity: string;
  readonly issuer: string | null;
  readonly subject: string | null;
  /** Tenancy of the caller (tenant-resolver.ts); null = unscoped (tenants off, or a system caller). */
  readonly tenant: Readonly<Record<string, string>> | null;
}

export type Role = 'admin' | 'operator' | 'adapter' | 'reader';

/** `retry_job`: sending a dead-lettered job back to its queue (`POST /api/decom/v1/jobs/retry`), admin-only. */
export type ResourceAction = 'read' | 'create' | 'patch' | 'delete' | 'pause' | 'unpause' | 'force_delete' | 'force_orphan' | 'retry_job';

export const ACTIONS: readonly Exclude<ResourceAction, 'read' | 'patch'>[] = ['create', 'delete', 'pause', 'unpause', 'force_delete', 'force_orphan'];

const ADMIN_ONLY: ReadonlySet<ResourceAction> = new Set(['pause', 'unpause', 'force_delete', 'force_orphan', 'retry_job']);

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

export class AccessPolicy {
  private readonly admins: ReadonlySet<string>;
  private readonly operators: ReadonlySet<string> | undefined;
  private readonly adapterOf = new Map<string, Set<string>>();

  constructor(private readonly options: AccessPolicyOptions) {
    this.admins = new Set(options.authorization.admins);
    this.operators = options.authorization.operators ? new Set(options.authorization.operators) : undefined;
    for (const [adapter, identities] of Object.entries(options.authorization.adapters)) {
      for (const identity of identities) {
        const bound = this.adapterOf.get(identity) ?? new Set<string>();
        bound.add(adapter);
        this.adapterOf.set(identity, bound);
      }
    }
  }

  /** No roles and no verification: today's open development mode (everyone may do everything). */
  get isOpen(): boolean {
    const a = this.options.authorization;
    return !this.options.authenticated && a.admins.length === 0 && !a.operators && Object.keys(a.adapters).length === 0;
  }

  /** The adapters whose statuses `principal` may report. */
  adaptersOf(principal: Principal): readonly string[] {
    const bound = [...(this.adapterOf.get(principal.identity) ?? [])];
    const embedded = this.embeddedAdapter(principal);
    return embedded ? [...new Set([...bound, embedded])] : bound;
  }

  isSystem(principal: Principal): boolean {
    return this.adaptersOf(principal).length > 0;
  }

  rolesOf(principal: Principal): Role[] {
    if (this.isOpen) return ['admin', 'operator', 'reader'];
    if (this.isSystem(principal)) return ['adapter', 'reader'];
    const roles: Role[] = [];
    if (this.admins.has(principal.identity)) roles.push('admin');
    if (this.admins.has(principal.identity) || !this.operators || this.operators.has(principal.identity)) roles.push('operator');
    roles.push('reader');
    return roles;
  }

  can(principal: Principal, action: ResourceAction): AccessDecision {
    if (this.isOpen || action === 'read') return { allowed: true };
    if (this.isSystem(principal)) return deny(`system identities may only write status and conditions; '${principal.identity}' is one`);
    const roles = this.rolesOf(principal);
    if (ADMIN_ONLY.has(action)) {
      // DECOM_ADMINS alone (no JWT, no operators) keeps its meaning: it restricts the break-glass actions only.
      if (roles.includes('admin')) return { allowed: true };
      if (this.admins.size === 0 && !this.options.authenticated && (action === 'pause' || action === 'unpause')) return { allowed: true };
      return deny(`${action.replace('_', ' ')} is restricted to administrators; '${principal.identity}' is not one`);
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
