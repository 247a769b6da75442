/**
 * The vocabulary of what blocks a deletion (seed 004 "The order", "Pause stops a deletion"; seed 001 "Timeout and
 * Stuck Detection"): types only, shared by the rules in `deletion-status.ts` and the `/finalizing` view in
 * `finalizing-blockers.ts` without either depending on the other.
 */
import type { LeftoverObject, UnverifiedAdapter } from './leftover-object.js';

/** A condition of an adapter report, reduced to what a dashboard shows. */
export interface BlockerCondition {
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

export interface ResourceRef {
  readonly id: string;
  readonly kind: string;
}

/** Who pauses a deletion: the resource itself, an ancestor (`parent`) or a paused descendant (`dependent`). */
export interface PauseMark {
  readonly source: 'self' | 'parent' | 'dependent';
  /** The paused resource (this one when `source` is `self`). */
  readonly resource: ResourceRef;
  /** The caller identity that paused it. */
  readonly paused_by: string;
  readonly reason: string;
  /** RFC 3339. */
  readonly paused_time: string;
}

/**
 * A Kubernetes object an adapter's deletion waits on: its delete was requested (`deletionTimestamp` set) and it
 * is still there, held by its `metadata.finalizers` (empty: the server has not finished it yet, e.g. a
 * terminating Namespace). From the adapter's last report (`data.holding`, holding.ts).
 */
export interface HoldingObject {
  readonly kind: string;
  /** Absent for cluster-scoped objects. */
  readonly namespace?: string;
  readonly name: string;
  readonly finalizers: readonly string[];
  /** RFC 3339: the object's `metadata.deletionTimestamp`. */
  readonly since: string;
}

export type PausedBlocker = { readonly type: 'Paused'; readonly message: string } & PauseMark;

export interface AdapterNotFinalizedBlocker {
  readonly type: 'AdapterNotFinalized';
  readonly message: string;
  readonly adapter: string;
  /** False when the adapter never reported on this resource. */
  readonly reported: boolean;
  readonly observed_generation?: number;
  readonly generation: number;
  readonly finalized?: BlockerCondition;
  readonly health?: BlockerCondition;
  /** RFC 3339 time of the adapter's last report. */
  readonly last_report_time?: string;
  /** A pause holds the deletion: the adapter is waiting for it, not failing. */
  readonly held_by_pause: boolean;
  /**
   * The objects the adapter's last report (at the deletion's generation) says it waits on, in its order;
   * absent when it named none (an adapter that does not send `data.holding`, or nothing left terminating).
   */
  readonly holding?: readonly HoldingObject[];
  /**
   * Set at read time (never stored) when no process consumes the adapter's job queue (`adapter-run.<adapter>`):
   * its runs wait for a worker, and `message` says so first.
   */
  readonly no_worker?: true;
}

export type WaitEdgeKind = 'InUse' | 'RecordWait';

/** `from`'s hard delete waits for `to`'s hard delete. */
export interface WaitEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: WaitEdgeKind;
}

export type NamedRef = ResourceRef & { readonly name: string };

/** A referrer holding an `InUse`, with what holds the referrer itself (one level: its own blockers' messages). */
export interface InUseReferrer extends NamedRef {
  readonly deleting: boolean;
  readonly blockers: readonly { readonly type: DeletionStatusBlocker['type']; readonly message: string }[];
}

export type DeletionStatusBlocker =
  | PausedBlocker
  | AdapterNotFinalizedBlocker
  | { readonly type: 'InUse'; readonly message: string; readonly referrers: readonly InUseReferrer[] }
  | {
      readonly type: 'DependencyCycle';
      readonly message: string;
      readonly members: readonly NamedRef[];
      readonly edges: readonly WaitEdge[];
    }
  | {
      readonly type: 'DependentsRemaining';
      readonly message: string;
      readonly count: number;
      readonly ids: readonly string[];
      /** Foreground: the dependents hold the adapters too, not only the record. */
      readonly holds_adapters: boolean;
    }
  /** Verify before hard delete: objects of hosted adapters still carry the resource's ownership marker. */
  | {
      readonly type: 'LeftoverObjects';
      readonly message: string;
      readonly objects: readonly LeftoverObject[];
      readonly checked_time: string;
    }
  /** Verify before hard delete: a hosted adapter's objects could not be listed, so nothing is hard-deleted yet. */
  | {
      readonly type: 'CleanupUnverified';
      readonly message: string;
      readonly adapters: readonly UnverifiedAdapter[];
      readonly checked_time: string;
    };
