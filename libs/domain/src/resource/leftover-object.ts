/**
 * The vocabulary of verify before hard delete (what a hosted adapter may have left behind): types only, shared
 * by commands, events and state without depending on the rules in `cleanup-verification.ts`.
 */

/** One object still carrying the resource's ownership marker for `adapter`. */
export interface LeftoverObject {
  readonly adapter: string;
  readonly apiVersion: string;
  readonly kind: string;
  /** Absent for cluster-scoped objects. */
  readonly namespace?: string;
  readonly name: string;
  /** Its delete was requested (`metadata.deletionTimestamp` set) and it is still there. */
  readonly terminating?: true;
}

/** A hosted adapter whose objects could not be listed (Kubernetes unreachable, not connected yet). */
export interface UnverifiedAdapter {
  readonly adapter: string;
  /** Why, as the listing failed (e.g. `Kubernetes is not connected yet`, `connect ECONNREFUSED ...`). */
  readonly reason: string;
}

/**
 * What the hard-delete job found for one resource: the `adapters` it looked for, the objects still marked as
 * theirs and the adapters it could not list. Clean = both lists empty.
 */
export interface CleanupCheck {
  readonly adapters: readonly string[];
  readonly objects: readonly LeftoverObject[];
  readonly unverified: readonly UnverifiedAdapter[];
}

/** What a resource's last recorded check found (`LeftoverObjectsFound`), until it is hard-deleted. */
export interface RecordedLeftovers {
  readonly objects: readonly LeftoverObject[];
  readonly unverified: readonly UnverifiedAdapter[];
  /** RFC 3339: when the check that found them ran. */
  readonly checked_time: string;
}
