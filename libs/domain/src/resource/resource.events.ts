/**
 * The facts Decom records about a resource tree. Every event lives in the tree's stream
 * (`<root kind>-<root id>`, see stream-names.ts) so a cascade or a force delete is one atomic append.
 * Field names match the API JSON and the seeds (`deleted_time`, `generation`, `observed_generation`).
 * Event data is versioned by `schema_version` where it ever changes (see docs/event-versioning.md).
 */
import type { Tenancy } from './tenancy.js';
import type { AdapterCondition } from './conditions.js';
import type { PropagationPolicy } from './deletion-order.js';
import type { ReportFence } from './report-fence.js';
import type { LeakedObject, LeakTrigger } from './leaked-object.js';
import type { DeletionPolicy, DeletionPolicySource } from './deletion-policy.js';
import type { References } from './references.js';
import type { LeftoverObject, UnverifiedAdapter } from './leftover-object.js';
import type { BreakGlassEvent } from './break-glass.events.js';

export interface OwnerReference {
  readonly id: string;
  readonly kind: string;
}

/** A resource was created at generation 1. */
export interface ResourceCreated {
  readonly type: 'ResourceCreated';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly name: string;
    readonly spec: Readonly<Record<string, unknown>>;
    readonly labels: Readonly<Record<string, string>>;
    readonly owner_references?: OwnerReference;
    readonly generation: 1;
    readonly created_time: string;
    readonly created_by: string;
    /** Absent = inherit / `Delete` (seed 003). Added in schema 2; absent in older histories. */
    readonly deletion_policy?: DeletionPolicy;
    readonly references?: References;
    /** Tenancy (as HyperFleet scopes it) when tenants are on; absent in older histories and with tenants off. */
    readonly tenant?: Tenancy;
  };
}

/** The desired state (spec and/or labels) changed; generation was bumped (as HyperFleet does on a spec change). */
export interface SpecChanged {
  readonly type: 'SpecChanged';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly spec: Readonly<Record<string, unknown>>;
    readonly labels: Readonly<Record<string, string>>;
    readonly generation: number;
    readonly updated_time: string;
    readonly updated_by: string;
    readonly deletion_policy?: DeletionPolicy;
    readonly references?: References;
  };
}

/**
 * A resource was marked for deletion (seed 000 "Step 1: Mark for Deletion"): `deleted_time` set,
 * `generation + 1`. One event per resource of a cascade; `cascaded_from` names the resource the user deleted.
 */
export interface DeletionRequested {
  readonly type: 'DeletionRequested';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly generation: number;
    readonly deleted_time: string;
    readonly deleted_by: string;
    readonly cascaded_from?: string;
    /** The policy this deletion runs with (seed 003), after inheritance. */
    readonly deletion_policy?: DeletionPolicy;
    /**
     * Where `deletion_policy` comes from: `own`, `inherited from <Kind>/<id>`, `force-orphan on <Kind>/<id>`,
     * `default`. Absent in older histories.
     */
    readonly deletion_policy_source?: DeletionPolicySource;
    /**
     * `Foreground` holds this resource's adapters until its descendants are hard-deleted. Absent in older
     * histories = `Background`.
     */
    readonly deletion_propagation?: PropagationPolicy;
    /**
     * The required adapters frozen at this moment; `Reconciled` during the deletion is computed
     * against this set, whatever the config says later. Absent in older histories = the kind's current set.
     */
    readonly required_adapters?: readonly string[];
    /** On the resource DELETEd only: an administrator went past the deletion budget (who, why). Absent otherwise. */
    readonly deletion_budget_override?: { readonly caller: string; readonly reason: string };
  };
}

/**
 * An adapter report was received and deliberately not counted (e.g. an adapter outside the deletion's
 * frozen adapter set; other rules may add reasons, e.g. a stale fence). The API answers 204; nothing changes.
 */
export interface AdapterStatusDiscarded {
  readonly type: 'AdapterStatusDiscarded';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly adapter: string;
    readonly observed_generation: number;
    /** PascalCase, e.g. `NotInDeletionAdapterSet`, `StaleFence` (fencing.ts). */
    readonly reason: string;
    readonly message: string;
    readonly discarded_time: string;
    /** The reporting run's fence, for `StaleFence`. */
    readonly fence?: ReportFence;
  };
}

/** The first deletion reconcile of a resource: an adapter reported at the deletion generation (seed 004, once). */
export interface DeletionStarted {
  readonly type: 'DeletionStarted';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly generation: number;
    readonly started_time: string;
    readonly adapter: string;
  };
}

/** An adapter left its objects in place and confirmed with `Finalized=True/Orphaned` (seed 003). */
export interface Orphaned {
  readonly type: 'Orphaned';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly adapter: string;
    readonly observed_generation: number;
    readonly orphaned_time: string;
    readonly message?: string;
  };
}

/** An operator paused the resource (seed 004): no destroy runs under it until unpaused. */
export interface ResourcePaused {
  readonly type: 'ResourcePaused';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly caller: string;
    readonly reason: string;
    readonly paused_time: string;
  };
}

export interface ResourceUnpaused {
  readonly type: 'ResourceUnpaused';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly caller: string;
    readonly reason: string;
    readonly unpaused_time: string;
  };
}

/**
 * The force-orphan break-glass (seed 003): allowed while Finalizing, admin only. Adapters skip cleanup and
 * report `Finalized=True/Orphaned`; the record then goes through the normal hard-delete gate.
 */
export interface ForceOrphaned {
  readonly type: 'ForceOrphaned';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly caller: string;
    readonly reason: string;
    readonly force_orphaned_time: string;
    readonly generation: number;
  };
}

/** The stored form of one adapter's report (one per resource and adapter; HyperFleet's AdapterStatus). */
export interface AdapterStatus {
  readonly adapter: string;
  readonly observed_generation: number;
  readonly conditions: readonly AdapterCondition[];
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly created_time: string;
  readonly last_report_time: string;
}

/** An adapter report passed ingestion and replaced the adapter's stored status. */
export interface AdapterStatusReported {
  readonly type: 'AdapterStatusReported';
  /** `fence`: the reporting run's fence, when it carried one (fencing.ts). */
  readonly data: { readonly id: string; readonly kind: string; readonly status: AdapterStatus; readonly fence?: ReportFence };
}

/**
 * An adapter confirmed cleanup: `Finalized=True` at the current generation while deleting (seed 000 §Finalized).
 * With `forced: true` no adapter confirmed anything: an administrator abandoned this one adapter of the frozen
 * set (`caller`, `reason`); its stored status then says `Finalized=True/AdapterAbandoned` and a leak inventory
 * (trigger `AdapterAbandoned`) follows. Absent `forced` = a real confirmation (older histories included).
 */
export interface AdapterFinalized {
  readonly type: 'AdapterFinalized';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly adapter: string;
    readonly observed_generation: number;
    readonly finalized_time: string;
    readonly forced?: true;
    readonly caller?: string;
    readonly reason?: string;
  };
}

/**
 * `deletion_protection` was set or cleared (on create or PATCH), with who and, when given, why. While set, a
 * DELETE of the resource or of any ancestor whose cascade reaches it is refused (`DeletionProtected`).
 * Recorded apart from `SpecChanged`: protection is no desired state, so `generation` does not move.
 */
export interface DeletionProtectionChanged {
  readonly type: 'DeletionProtectionChanged';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly deletion_protection: boolean;
    readonly caller: string;
    readonly reason?: string;
    readonly changed_time: string;
  };
}

/** The record was removed (seed 000 §API Hard-Delete Signal, or seed 001 force delete). */
export interface HardDeleted {
  readonly type: 'HardDeleted';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly owner_references?: OwnerReference;
    readonly hard_deleted_time: string;
    /** `Reconciled` for the normal gate, `ForceDeleted` for the escape hatch. */
    readonly cause: 'Reconciled' | 'ForceDeleted';
    /** What the removed resource referenced (those may now be released). Absent in older histories. */
    readonly references?: References;
  };
}

/**
 * Verify before hard delete (cleanup-verification.ts): the gate held, but objects a hosted adapter created or
 * adopted for the resource still carry its ownership marker (`objects`, terminating ones included), or an
 * adapter's objects could not be listed (`unverified`). The resource stays Finalizing; recorded when what was
 * found changes, not on every check.
 */
export interface LeftoverObjectsFound {
  readonly type: 'LeftoverObjectsFound';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly objects: readonly LeftoverObject[];
    readonly unverified: readonly UnverifiedAdapter[];
    /** RFC 3339. */
    readonly checked_time: string;
  };
}

/** A removed subresource, as listed in the force-delete audit record. */
export interface RemovedSubresource {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly deleted_time?: string;
}

/**
 * The audit record of a force delete (seed 001 "Audit Logging Approach"): who, why, what was removed and
 * every adapter status at that moment. Followed in the same append by `HardDeleted` events, children first.
 */
export interface ForceDeleted {
  readonly type: 'ForceDeleted';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly name: string;
    readonly caller: string;
    readonly reason: string;
    readonly force_deleted_time: string;
    readonly deleted_time: string;
    readonly generation: number;
    readonly subresources: readonly RemovedSubresource[];
    /** Resource id → the adapter statuses stored for it when the force delete happened. */
    readonly adapter_statuses: Readonly<Record<string, readonly AdapterStatus[]>>;
  };
}

/**
 * Leak inventory: per adapter, the objects still carrying its ownership marker after a force delete or force
 * orphan removed a resource whose cleanup was not confirmed (leaks.ts). `objects` may be empty.
 */
export interface LeakInventoryRecorded {
  readonly type: 'LeakInventoryRecorded';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly adapter: string;
    readonly trigger: LeakTrigger;
    readonly objects: readonly LeakedObject[];
    readonly recorded_time: string;
  };
}

/**
 * Ownership record: an adapter took over an existing object (its report said `Applied=True` with
 * reason `Adopted` or `AdoptedWithDrift`); `message` names the object and every field that differed, with
 * both values (or what the manifest overwrote).
 */
export interface Adopted {
  readonly type: 'Adopted';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly adapter: string;
    readonly observed_generation: number;
    readonly reason: 'Adopted' | 'AdoptedWithDrift';
    readonly message: string;
    readonly adopted_time: string;
  };
}

/** An operator deleted leaked objects of this (removed) resource, with a reason (audited). */
export interface LeakedObjectsDeleted {
  readonly type: 'LeakedObjectsDeleted';
  readonly data: {
    readonly id: string;
    readonly kind: string;
    readonly caller: string;
    readonly reason: string;
    readonly objects: readonly LeakedObject[];
    readonly deleted_time: string;
  };
}

export type ResourceEvent =
  | ResourceCreated
  | SpecChanged
  | DeletionRequested
  | DeletionStarted
  | AdapterStatusReported
  | AdapterStatusDiscarded
  | AdapterFinalized
  | Orphaned
  | HardDeleted
  | ForceDeleted
  | ResourcePaused
  | ResourceUnpaused
  | ForceOrphaned
  | LeakInventoryRecorded
  | LeakedObjectsDeleted
  | Adopted
  | DeletionProtectionChanged
  | LeftoverObjectsFound
  | BreakGlassEvent;

export type ResourceEventType = ResourceEvent['type'];

export const RESOURCE_EVENT_TYPES: readonly ResourceEventType[] = [
  'ResourceCreated',
  'SpecChanged',
  'DeletionRequested',
  'DeletionStarted',
  'AdapterStatusReported',
  'AdapterStatusDiscarded',
  'AdapterFinalized',
  'Orphaned',
  'HardDeleted',
  'ForceDeleted',
  'ResourcePaused',
  'ResourceUnpaused',
  'ForceOrphaned',
  'LeakInventoryRecorded',
  'LeakedObjectsDeleted',
  'Adopted',
  'DeletionProtectionChanged',
  'LeftoverObjectsFound',
  'BreakGlassRequested',
  'BreakGlassApproved',
  'BreakGlassRejected',
  'BreakGlassVoided',
];

export function isResourceEvent(event: { type: string }): event is ResourceEvent {
  return (RESOURCE_EVENT_TYPES as readonly string[]).includes(event.type);
}
