/**
 * The leak inventory's vocabulary (what Decom knows it left behind): types only, shared by events and state
 * without depending on the inventory's decisions in `leaks.ts`.
 */

/** One Kubernetes object, as the inventory names it. */
export interface LeakedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly uid?: string;
  /** The adapter whose marker it carries. */
  readonly adapter: string;
}

/** What removed a resource, or one adapter's part of its deletion, without confirmed cleanup. */
export type LeakTrigger = 'ForceDeleted' | 'ForceOrphaned' | 'AdapterAbandoned';

/** A resource no longer in the tree: why, and whether a force orphan had been recorded. */
export interface RemovedResource {
  readonly id: string;
  readonly kind: string;
  readonly cause: 'Reconciled' | 'ForceDeleted';
  readonly force_orphaned: boolean;
  /** Adapters abandoned during its deletion (their objects may be inventoried after the record is gone). */
  readonly abandoned_adapters?: readonly string[];
}
