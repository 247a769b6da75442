/**
 * Condition shapes and the reasons Decom emits. Conditions are `{ type, status, reason, message }`
 * (Kubernetes/HyperFleet convention); reasons are PascalCase constants, each saying when it shows.
 */

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A condition inside an adapter report (`PUT .../statuses`, as HyperFleet's API takes it). */
export interface AdapterCondition {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason?: string;
  readonly message?: string;
  /** RFC 3339; kept from the stored report while `status` is unchanged, as HyperFleet does. */
  readonly last_transition_time: string;
}

/** An aggregated condition on a resource's `status.conditions` (HyperFleet's ResourceCondition). */
export interface ResourceCondition {
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly reason?: string;
  readonly message?: string;
  readonly observed_generation: number;
  readonly created_time: string;
  readonly last_updated_time: string;
  readonly last_transition_time: string;
}

export const ConditionType = {
  Reconciled: 'Reconciled',
  LastKnownReconciled: 'LastKnownReconciled',
  Available: 'Available',
  Applied: 'Applied',
  Health: 'Health',
  Finalized: 'Finalized',
  /** Decom (seed 004): True once the first deletion reconcile ran. */
  Deleting: 'Deleting',
  /** Decom (seed 004): on a deleting parent, whether dependents still exist. */
  DeletionBlocked: 'DeletionBlocked',
  /** Decom (seed 004): the resource or an ancestor is paused. */
  Paused: 'Paused',
  /** Decom: the deletion exceeded the kind's deletion timeout; it keeps waiting. */
  DeletionTimedOut: 'DeletionTimedOut',
} as const;

/** Conditions every adapter report must carry (400 otherwise, as in HyperFleet). */
export const MANDATORY_REPORT_CONDITIONS = ['Available', 'Applied', 'Health'] as const;

export const Reason = {
  /** Reconciled=True: every required adapter reported Available=True (or Finalized=True while deleting) at the current generation. */
  ReconciledAll: 'ReconciledAll',
  /** Reconciled=False: some required adapter has not reported the needed condition at the current generation. */
  ReconciledMissingAdapters: 'ReconciledMissingAdapters',
  /** Reconciled=False while deleting: adapters are finalized but child records still exist (seed 000 hard-delete order). */
  ReconciledWaitingForChildren: 'ReconciledWaitingForChildren',
  /** LastKnownReconciled=False: a required adapter never reported. */
  AdaptersMissingReports: 'AdaptersMissingReports',
  /** LastKnownReconciled=True: all required adapters reported Available=True at one generation. */
  AllAdaptersReconciled: 'AllAdaptersReconciled',
  /** LastKnownReconciled=False: an adapter reports Available=False. */
  AdapterReportedNotAvailable: 'AdapterReportedNotAvailable',
  /** LastKnownReconciled=False: adapters disagree on the generation and it was never True. */
  AdaptersNotAtSameGeneration: 'AdaptersNotAtSameGeneration',
  /** Deleting=True: the first deletion reconcile ran (seed 004: Deleting has no other True reason). */
  Deleting: 'Deleting',
  /**
   * DeletionBlocked=True on a deleting parent: child records remain; the message gives the count (and, under
   * propagationPolicy Foreground, the ids: the parent's adapters are not dispatched until they are gone).
   */
  DependentsExist: 'DependentsExist',
  /**
   * DeletionBlocked=True: stored resources reference this one; its adapters wait until they are hard-deleted. The
   * message names them.
   */
  InUse: 'InUse',
  /** DeletionBlocked=True: this resource waits on others that wait on it; the message names every member in order. */
  DependencyCycle: 'DependencyCycle',
  /** DeletionBlocked=False: no dependents remain. */
  NotBlocked: 'NotBlocked',
  /** Paused=True: the resource itself is paused. */
  Paused: 'Paused',
  /** Paused=True: an ancestor is paused. */
  ParentPaused: 'ParentPaused',
  /** Paused=True on a deleting parent: a dependent is paused, so no destroy runs that could reach its objects. */
  DependentPaused: 'DependentPaused',
  /** Paused=False after an unpause. */
  Unpaused: 'Unpaused',
  /** DeletionTimedOut=True: Finalizing for longer than the kind's deletion timeout. */
  DeletionTimeoutExceeded: 'DeletionTimeoutExceeded',
} as const;

/** The message adapters and the `Deleting` condition give while a pause holds a deletion (seed 004). */
export const DELETION_WAITS_FOR_UNPAUSE = 'Deletion waits until the resource is unpaused';

/** `validation` → `ValidationSuccessful`, `np-configmap` → `NpConfigmapSuccessful`, as HyperFleet names them. */
export function adapterConditionType(adapter: string): string {
  const pascal = adapter
    .split(/[-_]/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  return `${pascal}Successful`;
}

/** Status of condition `type` in `conditions`, or undefined when absent. */
export function conditionStatus(conditions: readonly { type: string; status: string }[], type: string): string | undefined {
  return conditions.find((c) => c.type === type)?.status;
}
