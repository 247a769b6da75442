import type { Tenancy } from './tenancy.js';
import type { PropagationPolicy } from './deletion-order.js';
import type { ReportFence } from './report-fence.js';
import type { DeletionPolicy } from './deletion-policy.js';
import type { References } from './references.js';
import type { CleanupCheck } from './leftover-object.js';

/**
 * Task-based commands. Time and the actor arrive on the command (`metadata`), never from a clock
 * inside the domain.
 */

export interface CommandMetadata {
  /** RFC 3339 UTC. */
  readonly now: string;
  /** Caller identity (seed 001 "caller identity"); `deleted_by`, `created_by`, audit records. */
  readonly caller: string;
}

export interface CreateResource {
  readonly type: 'CreateResource';
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly spec: Readonly<Record<string, unknown>>;
  readonly labels: Readonly<Record<string, string>>;
  readonly owner?: { readonly id: string; readonly kind: string };
  readonly deletion_policy?: DeletionPolicy;
  readonly references?: References;
  /** The creator's tenancy (top-level resources; a child inherits its parent's). */
  readonly tenant?: Tenancy;
  /** `true`: recorded as `DeletionProtectionChanged` in the create's append (deletion-protection.ts). */
  readonly deletion_protection?: boolean;
  /** Why protection is set; recorded with it. */
  readonly deletion_protection_reason?: string;
  readonly metadata: CommandMetadata;
}

export interface PatchResource {
  readonly type: 'PatchResource';
  readonly id: string;
  readonly kind: string;
  readonly spec?: Readonly<Record<string, unknown>>;
  readonly labels?: Readonly<Record<string, string>>;
  readonly deletion_policy?: DeletionPolicy;
  readonly references?: References;
  /** Set or clear protection (who may clear it is the edge's rule: docs/security.md); a repeat records nothing. */
  readonly deletion_protection?: boolean;
  /** Why; required to clear protection (deletion-protection.ts). */
  readonly deletion_protection_reason?: string;
  readonly metadata: CommandMetadata;
}

/** A live resource that references the one being deleted (found by the handler in the reference index). */
export interface Referrer {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  /** The referrer (or an ancestor) is paused: only then does `delete_for_move` let the DELETE through. */
  readonly paused: boolean;
}

/**
 * A stored resource whose `references` name `target_id` (found by the handler in the reference
 * index for every member of the cascade and, bounded, for their referrers in turn).
 */
export interface ReferenceEdge extends Referrer {
  readonly target_id: string;
  /** The referrer is itself marked for deletion (it no longer blocks a DELETE, but the target waits for it). */
  readonly deleting: boolean;
}

/**
 * An entry of the reference index: `id` (of `kind`) references `target_id`. Facts only: whether the referrer
 * is paused or deleting is read from its own tree by the handler (`referenceEdgeFrom`), never from a read model.
 */
export interface IndexedReference {
  readonly target_id: string;
  readonly id: string;
  readonly kind: string;
}

export interface RequestDeletion {
  readonly type: 'RequestDeletion';
  readonly id: string;
  readonly kind: string;
  /** Live (not deleting) resources referencing this one, from outside or inside the tree (seed 004 guard). */
  readonly live_referrers?: readonly Referrer[];
  /** The documented exception (seed 004 `delete-for-move`): honoured only while every referrer is paused. */
  readonly delete_for_move?: boolean;
  /** `?propagationPolicy=`; applies to the whole cascade. Absent: each kind's `deletion_propagation`. */
  readonly propagation_policy?: PropagationPolicy;
  /**
   * References into the cascade (and their referrers' referrers, bounded), for the cascade guard and
   * cycles, with each referrer's facts as its own tree holds them (the handler resolves `reference_index` into these).
   */
  readonly referrers?: readonly ReferenceEdge[];
  /** The reference index's entries into the cascade, as the API read them; the handler resolves them into `referrers`. */
  readonly reference_index?: readonly IndexedReference[];
  /** An administrator's reason for going past the deletion budget (the edge decided the budget and the role). */
  readonly budget_override_reason?: string;
  readonly metadata: CommandMetadata;
}

/** Pause or unpause (seed 004), with a reason; allowed in any state. */
export interface SetPaused {
  readonly type: 'SetPaused';
  readonly id: string;
  readonly kind: string;
  readonly paused: boolean;
  readonly reason: string;
  readonly metadata: CommandMetadata;
}

/** The force-orphan break-glass (seed 003): only while Finalizing. */
export interface ForceOrphan {
  readonly type: 'ForceOrphan';
  readonly id: string;
  readonly kind: string;
  readonly reason: string;
  readonly metadata: CommandMetadata;
}

export interface ReportedCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

export interface ReportAdapterStatus {
  readonly type: 'ReportAdapterStatus';
  readonly id: string;
  readonly kind: string;
  readonly adapter: string;
  readonly observed_generation: number;
  /** RFC 3339 as sent by the adapter. */
  readonly observed_time: string;
  readonly conditions: readonly ReportedCondition[];
  readonly report_metadata?: Readonly<Record<string, unknown>>;
  readonly data?: Readonly<Record<string, unknown>>;
  /** The reporting run's fence (`X-Decom-Fence`), when Decom's worker sent it (fencing.ts). */
  readonly fence?: ReportFence;
  readonly metadata: CommandMetadata;
}

export interface HardDelete {
  readonly type: 'HardDelete';
  readonly id: string;
  readonly kind: string;
  /**
   * The adapters this installation hosts (their cleanup is verified: cleanup-verification.ts). Absent or empty:
   * none is hosted, nothing is verified.
   */
  readonly hosted_adapters?: readonly string[];
  /** Resource id → what the job's ownership discovery found for it (`hardDeleteCandidates` says which). */
  readonly cleanup_checks?: Readonly<Record<string, CleanupCheck>>;
  readonly metadata: CommandMetadata;
}

export interface ForceDelete {
  readonly type: 'ForceDelete';
  readonly id: string;
  readonly kind: string;
  readonly reason: string;
  readonly metadata: CommandMetadata;
}

/**
 * Gives up on one adapter of a deletion's frozen set (abandon-adapter.ts): its cleanup counts as done without
 * its confirmation; the rest of the deletion goes on. Admin only (the edge's rule).
 */
export interface AbandonAdapter {
  readonly type: 'AbandonAdapter';
  readonly id: string;
  readonly kind: string;
  readonly adapter: string;
  readonly reason: string;
  readonly metadata: CommandMetadata;
}

export type ResourceCommand =
  | CreateResource
  | PatchResource
  | RequestDeletion
  | ReportAdapterStatus
  | HardDelete
  | ForceDelete
  | SetPaused
  | ForceOrphan
  | AbandonAdapter;
