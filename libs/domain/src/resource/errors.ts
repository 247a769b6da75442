/**
 * One class per broken rule. They carry data, not HTTP: apps/api maps each to a status once
 * (problem-details/error-map.ts).
 */

export abstract class DomainError extends Error {
  abstract readonly code: string;
}

/** The resource was never created, or is already hard-deleted (seed 001 API contract: 404). */
export class ResourceNotFound extends DomainError {
  override readonly name = 'ResourceNotFound';
  readonly code = 'ResourceNotFound';
  constructor(
    readonly kind: string,
    readonly id: string,
  ) {
    super(`${kind} with id='${id}' not found`);
  }
}

/** A mutation (PATCH, child create) on a resource marked for deletion (seed 000 edge case #12: 409). */
export class MutationWhileFinalizing extends DomainError {
  override readonly name = 'MutationWhileFinalizing';
  readonly code = 'MutationWhileFinalizing';
  constructor(
    readonly kind: string,
    readonly id: string,
  ) {
    super(`${kind} '${id}' is marked for deletion`);
  }
}

/** Force delete of a resource that is not in Finalizing (seed 001 API contract: 409). */
export class NotFinalizing extends DomainError {
  override readonly name = 'NotFinalizing';
  readonly code = 'NotFinalizing';
  constructor(
    readonly kind: string,
    readonly id: string,
  ) {
    super(`${kind} '${id}' is not in Finalizing state`);
  }
}

/** DELETE of a parent with active children of a `restrict` kind (409). */
export class ActiveChildrenRestrict extends DomainError {
  override readonly name = 'ActiveChildrenRestrict';
  readonly code = 'ActiveChildrenRestrict';
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly childKind: string,
    readonly childIds: readonly string[],
  ) {
    super(`Cannot delete ${kind} '${id}': active ${childKind}(s) exist`);
  }
}

export interface FieldViolation {
  readonly field: string;
  readonly value?: unknown;
  readonly constraint: 'required' | 'min' | 'max' | 'min_length' | 'max_length' | 'pattern' | 'enum' | 'format' | 'unique';
  readonly message: string;
}

/** Input breaks a rule of the contract (400, `HYPERFLEET-VAL-000`). */
export class ValidationFailed extends DomainError {
  override readonly name = 'ValidationFailed';
  readonly code = 'ValidationFailed';
  constructor(
    message: string,
    readonly violations: readonly FieldViolation[] = [],
  ) {
    super(message);
  }
}

/** A create names a parent of the wrong kind, or a child kind without a parent (422 in HyperFleet). */
export class InvalidParent extends DomainError {
  override readonly name = 'InvalidParent';
  readonly code = 'InvalidParent';
}

/** A resource with this name already exists under the same parent (409 `HYPERFLEET-CNF-001`). */
export class NameAlreadyTaken extends DomainError {
  override readonly name = 'NameAlreadyTaken';
  readonly code = 'NameAlreadyTaken';
  constructor(
    readonly kind: string,
    readonly resourceName: string,
    /** The id of the resource holding the name, when known: a client that lost a create's answer learns it. */
    readonly existingId?: string,
  ) {
    super(`${kind} with name '${resourceName}' already exists${existingId ? ` (id ${existingId})` : ''}`);
  }
}

/**
 * DELETE of a resource that a live (not deleting) resource references (seed 004 delete guard: 409).
 * The message names the referrer and says to delete it instead.
 */
export class LiveReferrers extends DomainError {
  override readonly name = 'LiveReferrers';
  readonly code = 'LiveReferrers';
  /**
   * @param hidden referrers the caller may not see (another tenant): counted in the
   * message, never named. The guard holds for them all the same.
   */
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly referrers: readonly { id: string; kind: string; name: string }[],
    readonly hidden = 0,
  ) {
    const first = referrers[0];
    const named = referrers.map((r) => `${r.kind} '${r.name}' (${r.id})`);
    super(
      `Cannot delete ${kind} '${id}': it is referenced by ${referrerList(named, hidden)}; ${first ? `delete the ${first.kind} '${first.name}' instead` : 'their owners must delete them first'}`,
    );
  }

  /** The same refusal as a caller who sees only `visible` referrers reads it. */
  seenBy(visible: (referrer: { id: string }) => boolean): LiveReferrers {
    const shown = this.referrers.filter(visible);
    return new LiveReferrers(this.kind, this.id, shown, this.hidden + this.referrers.length - shown.length);
  }
}

/** `N live resource(s) outside your tenant`: what a scoped caller learns of referrers it may not see. */
function outsideTenant(count: number, more = false): string {
  return `${count}${more ? ' more' : ''} live resource${count === 1 ? '' : 's'} outside your tenant`;
}

/** `live A, B`, `live A and 1 more live resource outside your tenant`, or `2 live resources outside your tenant`. */
function referrerList(named: readonly string[], hidden: number): string {
  if (named.length === 0) return outsideTenant(hidden);
  return `live ${named.join(', ')}${hidden > 0 ? ` and ${outsideTenant(hidden, true)}` : ''}`;
}

/** A resource (in a cascade) and a live resource outside the cascade that references it. */
export interface LiveReference {
  readonly referenced: { readonly id: string; readonly kind: string; readonly name: string };
  readonly referrer: { readonly id: string; readonly kind: string; readonly name: string };
}

/**
 * No cascade through a live reference: a cascade DELETE whose subtree holds a resource that a
 * live resource outside the subtree references (409, the same rule as a direct delete). The message names
 * the referrer and the referenced child.
 */
export class CascadeThroughLiveReference extends DomainError {
  override readonly name = 'CascadeThroughLiveReference';
  readonly code = 'CascadeThroughLiveReference';
  /** @param hidden references whose referrer the caller may not see (another tenant): counted, never named. */
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly references: readonly LiveReference[],
    readonly hidden = 0,
  ) {
    const first = references[0];
    const named = references.map(
      (r) =>
        `${r.referenced.kind} '${r.referenced.name}' (${r.referenced.id}), referenced by live ${r.referrer.kind} '${r.referrer.name}' (${r.referrer.id})`,
    );
    super(
      `Cannot delete ${kind} '${id}': its subtree holds ${[...named, ...(hidden > 0 ? [`resources referenced by ${outsideTenant(hidden)}`] : [])].join('; ')}; ${first ? `delete the ${first.referrer.kind} '${first.referrer.name}' first` : 'their owners must delete them first'}`,
    );
  }

  /** The same refusal as a caller who sees only `visible` referrers reads it. */
  seenBy(visible: (referrer: { id: string }) => boolean): CascadeThroughLiveReference {
    const shown = this.references.filter((r) => visible(r.referrer));
    return new CascadeThroughLiveReference(this.kind, this.id, shown, this.hidden + this.references.length - shown.length);
  }
}

/**
 * Cycles are diagnosed: a DELETE that can never succeed because its resources wait on each other
 * through references (and Foreground dependents) in a cycle (409). `members` in order, the first repeated last.
 */
export class DependencyCycle extends DomainError {
  override readonly name = 'DependencyCycle';
  readonly code = 'DependencyCycle';
  /** @param hidden ids of members the caller may not see (another tenant): shown as `a resource outside your tenant`. */
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly members: readonly { readonly id: string; readonly kind: string; readonly name: string }[],
    readonly hidden: ReadonlySet<string> = new Set(),
  ) {
    super(
      `Cannot delete ${kind} '${id}': dependency cycle ${members.map((m) => (hidden.has(m.id) ? 'a resource outside your tenant' : `${m.kind} '${m.name}' (${m.id})`)).join(' → ')}; ` +
        'each waits for the next to be gone, so no DELETE can succeed: remove one of these references first',
    );
  }

  /** The same refusal as a caller who sees only `visible` members reads it. */
  seenBy(visible: (member: { id: string }) => boolean): DependencyCycle {
    return new DependencyCycle(this.kind, this.id, this.members, new Set(this.members.filter((m) => !visible(m)).map((m) => m.id)));
  }
}

/**
 * DELETE of a resource with `deletion_protection`, or of an ancestor whose cascade would reach one (409).
 * `protected_resources` names every protected member of the cascade, the target first.
 */
export class DeletionProtected extends DomainError {
  override readonly name = 'DeletionProtected';
  readonly code = 'DeletionProtected';
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly protected_resources: readonly { id: string; kind: string; name: string }[],
  ) {
    const named = protected_resources.map((r) => `${r.kind} '${r.name}' (${r.id})`);
    super(
      `Cannot delete ${kind} '${id}': deletion_protection is set on ${named.join(', ')}; clear it first (PATCH deletion_protection: false with a reason)`,
    );
  }
}

/**
 * Abandoning an adapter that is not pending in the deletion: not in the frozen adapter set, or already
 * `Finalized=True` at the deletion's generation (409).
 */
export class AdapterNotPending extends DomainError {
  override readonly name = 'AdapterNotPending';
  readonly code = 'AdapterNotPending';
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly adapter: string,
    readonly why: 'NotInDeletionAdapterSet' | 'AlreadyFinalized',
    readonly frozen: readonly string[],
  ) {
    super(
      why === 'AlreadyFinalized'
        ? `${kind} '${id}': adapter '${adapter}' already reported Finalized=True at the deletion's generation; nothing to abandon`
        : `${kind} '${id}': adapter '${adapter}' is not in the adapter set frozen when the deletion was requested: [${frozen.join(', ')}]`,
    );
  }
}

/**
 * One more top-level DELETE would exceed the deletion budget of its kind and tenant (deletion-budget.ts): 429
 * with `Retry-After`, unless an administrator overrides it with a reason.
 */
export class DeletionBudgetExceeded extends DomainError {
  override readonly name = 'DeletionBudgetExceeded';
  readonly code = 'DeletionBudgetExceeded';
  constructor(
    readonly kind: string,
    /** The tenancy counted (JSON), or undefined when untenanted. */
    readonly tenant: string | undefined,
    readonly budget: 'max_in_flight' | 'max_per_hour',
    readonly limit: number,
    readonly used: number,
    readonly retry_after_seconds: number,
  ) {
    const what =
      budget === 'max_in_flight'
        ? `${used} top-level ${kind} deletion(s) in flight`
        : `${used} top-level ${kind} deletion(s) in the last hour`;
    super(
      `deletion budget limits.deletions.${kind}.${budget} = ${limit} reached${tenant ? ` for tenant ${tenant}` : ''}: ${what}; retry after ${retry_after_seconds} s, or an administrator may override it with a reason`,
    );
  }
}
