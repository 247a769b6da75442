/**
 * The `Reconciled` aggregate and the hard-delete gate (seed 000 "Reconciled Condition and Finalized",
 * "API Hard-Delete Signal"; HyperFleet's `Reconciled` with two Decom choices, below).
 *
 * - Not deleting: an adapter is "met" when it reported `Available=True` at the current generation.
 * - Deleting (`deleted_time` set): "met" when it reported `Finalized=True` at the current generation,
 *   whatever its `Available` says (Decom: a report with `Available=Unknown` still counts).
 * - While deleting, ANY child record (active or Finalizing) keeps `Reconciled=False` (Decom: as the seed design says).
 */
import { ConditionType, Reason, conditionStatus } from './conditions.js';
import type { AdapterStatus } from './resource.events.js';

export interface ReconcileInput {
  readonly generation: number;
  readonly deleted_time?: string;
  readonly required_adapters: readonly string[];
  readonly adapter_statuses: Readonly<Record<string, AdapterStatus>>;
  /** Child records still stored (active or Finalizing). */
  readonly child_record_count: number;
}

export interface ReconciledVerdict {
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
  /** Required adapters not yet "met", sorted. */
  readonly missing_adapters: readonly string[];
}

/** Whether `adapter` counts toward `Reconciled` (see module doc). */
export function isAdapterMet(input: ReconcileInput, adapter: string): boolean {
  const status = input.adapter_statuses[adapter];
  if (!status || status.observed_generation !== input.generation) return false;
  const wanted = input.deleted_time === undefined ? ConditionType.Available : ConditionType.Finalized;
  return conditionStatus(status.conditions, wanted) === 'True';
}

/** Computes `Reconciled`. With no required adapters it is False (as in HyperFleet), but see `isHardDeleteAllowed`. */
export function computeReconciled(input: ReconcileInput): ReconciledVerdict {
  const required = [...input.required_adapters].sort();
  const missing = required.filter((a) => !isAdapterMet(input, a));
  const reporting = Object.keys(input.adapter_statuses)
    .filter((a) => required.includes(a))
    .sort();
  const deleting = input.deleted_time !== undefined;
  if (required.length > 0 && missing.length === 0) {
    if (deleting && input.child_record_count > 0) {
      return {
        status: 'False',
        reason: Reason.ReconciledWaitingForChildren,
        message: `All required adapters reported Finalized=True; waiting for ${input.child_record_count} child resource(s) to be deleted`,
        missing_adapters: [],
      };
    }
    return {
      status: 'True',
      reason: Reason.ReconciledAll,
      message: 'All required adapters reported Available=True or Finalized=True at the current generation',
      missing_adapters: [],
    };
  }
  const wanted = deleting ? 'Finalized=True' : 'Available=True';
  return {
    status: 'False',
    reason: Reason.ReconciledMissingAdapters,
    message: `Required adapters not reporting ${wanted}: [${missing.join(', ')}]. Currently reporting: [${reporting.join(', ')}]`,
    missing_adapters: missing,
  };
}

/**
 * The hard-delete gate (seed 000 "API Hard-Delete Signal"): `deleted_time` set, every required adapter
 * finalized at the current generation, and no child record left. A kind with no required adapters has
 * nothing to wait for and is removed as soon as its children are gone.
 */
export function isHardDeleteAllowed(input: ReconcileInput): boolean {
  if (input.deleted_time === undefined || input.child_record_count > 0) return false;
  return input.required_adapters.every((a) => isAdapterMet(input, a));
}
