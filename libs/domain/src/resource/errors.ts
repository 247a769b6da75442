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

/** DELETE of a parent with active children of a `restrict` kind (contract §1.5 step 4: 409). */
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
  ) {
    super(`${kind} with name '${resourceName}' already exists`);
  }
}

/**
 * DELETE of a resource that a live (not deleting) resource references (seed 004 delete guard: 409).
 * The message names the referrer and says to delete it instead.
 */
export class LiveReferrers extends DomainError {
  override readonly name = 'LiveReferrers';
  readonly code = 'LiveReferrers';
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly referrers: readonly { id: string; kind: string; name: string }[],
  ) {
    const first = referrers[0]!;
    super(
      `Cannot delete ${kind} '${id}': it is referenced by live ${referrers.map((r) => `${r.kind} '${r.name}' (${r.id})`).join(', ')}; delete the ${first.kind} '${first.name}' instead`,
    );
  }
}
