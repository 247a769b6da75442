/**
 * Builds a resource's `status.conditions`: `[Reconciled, LastKnownReconciled, <Adapter>Successful...]`
 * with HyperFleet's time rules. Pure: the projection passes the previous conditions.
 */
import { ConditionType, DELETION_WAITS_FOR_UNPAUSE, Reason, adapterConditionType, type ResourceCondition } from './conditions.js';
import { computeReconciled, type ReconcileInput } from './reconciled.js';
import { describeBlocker, type DeletionBlocker } from './deletion-order.js';

export interface ResourceConditionsInput extends ReconcileInput {
  readonly created_time: string;
  readonly updated_time: string;
  readonly previous: readonly ResourceCondition[];
  /** Who pauses this resource: itself or an ancestor (seed 004); undefined when not paused. */
  readonly paused_by?: {
    readonly id: string;
    readonly kind: string;
    readonly reason: string;
    readonly self: boolean;
    /** A paused descendant holds this deleting resource: destroying it would destroy the child's objects too. */
    readonly dependent?: boolean;
  };
  /** Show `Paused=False/Unpaused` once a pause was lifted. */
  readonly ever_paused?: boolean;
  /** The first deletion reconcile ran (`DeletionStarted`). */
  readonly deletion_started?: boolean;
  /** The policy the deletion runs with (seed 003), for messages. */
  readonly deletion_policy?: string;
  /** What holds this deleting resource's adapters (see `deletionBlockers`), most fundamental first. */
  readonly blockers?: readonly DeletionBlocker[];
  /** RFC 3339 "now", used for the conditions' times of Decom's own conditions. */
  readonly now?: string;
}

export function computeResourceConditions(input: ResourceConditionsInput): ResourceCondition[] {
  const previous = new Map(input.previous.map((c) => [c.type, c]));
  return [
    reconciledCondition(input, previous.get(ConditionType.Reconciled)),
    lastKnownReconciledCondition(input, previous.get(ConditionType.LastKnownReconciled)),
    ...adapterConditions(input, previous),
    ...deletionConditions(input, previous),
  ];
}

/** Decom's deletion conditions (seed 004): Deleting, DeletionBlocked, Paused. Observability only: never gates. */
function deletionConditions(input: ResourceConditionsInput, previous: ReadonlyMap<string, ResourceCondition>): ResourceCondition[] {
  const out: ResourceCondition[] = [];
  const at = input.now ?? input.updated_time;
  const make = (type: string, status: 'True' | 'False', reason: string, message: string): ResourceCondition => {
    const prev = previous.get(type);
    const unchanged = prev && prev.status === status && prev.reason === reason && prev.message === message;
    return {
      type,
      status,
      reason,
      message,
      observed_generation: input.generation,
      created_time: prev?.created_time ?? at,
      last_updated_time: unchanged ? prev.last_updated_time : at,
      last_transition_time: prev && prev.status === status ? prev.last_transition_time : at,
    };
  };
  const deleting = input.deleted_time !== undefined;
  if (deleting && input.deletion_started) {
    const message = input.paused_by
      ? DELETION_WAITS_FOR_UNPAUSE
      : `Deletion in progress (deletion_policy ${input.deletion_policy ?? 'Delete'})`;
    out.push(make(ConditionType.Deleting, 'True', Reason.Deleting, message));
  }
  if (deleting && input.blockers && input.blockers.length > 0) {
    out.push(make(ConditionType.DeletionBlocked, 'True', input.blockers[0]!.reason, input.blockers.map(describeBlocker).join('; ')));
  } else if (deleting) {
    out.push(
      input.child_record_count > 0
        ? make(
            ConditionType.DeletionBlocked,
            'True',
            Reason.DependentsExist,
            `${input.child_record_count} dependent resource(s) still exist`,
          )
        : make(ConditionType.DeletionBlocked, 'False', Reason.NotBlocked, 'No dependent resources remain'),
    );
  }
  if (input.paused_by) {
    const by = input.paused_by;
    out.push(
      make(
        ConditionType.Paused,
        'True',
        by.self ? Reason.Paused : by.dependent ? Reason.DependentPaused : Reason.ParentPaused,
        by.self
          ? `Paused: ${by.reason}`
          : by.dependent
            ? `dependent ${by.kind} '${by.id}' is paused (${by.reason}): ${DELETION_WAITS_FOR_UNPAUSE.toLowerCase()}`
            : `${by.kind} '${by.id}' is paused: ${by.reason}`,
      ),
    );
  } else if (input.ever_paused) {
    out.push(make(ConditionType.Paused, 'False', Reason.Unpaused, 'Not paused'));
  }
  return out;
}

/** Initial conditions of a new resource (as HyperFleet sets them on create). */
export function initialResourceConditions(created_time: string, required_adapters: readonly string[]): ResourceCondition[] {
  return computeResourceConditions({
    generation: 1,
    required_adapters,
    adapter_statuses: {},
    child_record_count: 0,
    created_time,
    updated_time: created_time,
    previous: [],
  });
}

function reconciledCondition(input: ResourceConditionsInput, prev: ResourceCondition | undefined): ResourceCondition {
  const verdict = computeReconciled(input);
  const refTime = input.updated_time || input.created_time;
  const reportTimes = input.required_adapters
    .map((a) => input.adapter_statuses[a])
    .filter((s) => s !== undefined && s.observed_generation === input.generation)
    .map((s) => s!.last_report_time)
    .sort();
  const lastUpdated = reportTimes[0] ?? refTime;
  let lastTransition = lastUpdated;
  if (prev && prev.status === verdict.status) lastTransition = prev.last_transition_time;
  else if (prev && prev.status === 'True' && prev.observed_generation < input.generation) lastTransition = refTime;
  return {
    type: ConditionType.Reconciled,
    status: verdict.status,
    reason: verdict.reason,
    message: verdict.message,
    observed_generation: input.generation,
    created_time: prev?.created_time ?? input.created_time,
    last_updated_time: lastUpdated,
    last_transition_time: lastTransition,
  };
}

interface Snapshot {
  readonly available: boolean;
  readonly generation: number;
  readonly time: string;
}

function lastKnownReconciledCondition(input: ResourceConditionsInput, prev: ResourceCondition | undefined): ResourceCondition {
  const snapshots: Snapshot[] = [];
  let missing = false;
  for (const adapter of input.required_adapters) {
    const status = input.adapter_statuses[adapter];
    const available = status?.conditions.find((c) => c.type === ConditionType.Available)?.status;
    if (!status || status.observed_generation > input.generation || (available !== 'True' && available !== 'False')) {
      missing = true;
      continue;
    }
    snapshots.push({ available: available === 'True', generation: status.observed_generation, time: status.last_report_time });
  }
  const wasTrue = prev?.status === 'True';
  const generations = [...new Set(snapshots.map((s) => s.generation))];
  let status: 'True' | 'False';
  let reason: string;
  let message: string;
  let observedGeneration: number;
  if (missing || input.required_adapters.length === 0) {
    status = 'False';
    reason = Reason.AdaptersMissingReports;
    message = 'Not every required adapter has reported Available';
    observedGeneration = prev?.observed_generation ?? Math.max(0, ...generations);
  } else if (snapshots.every((s) => s.available)) {
    if (generations.length === 1 || wasTrue) {
      status = 'True';
      reason = Reason.AllAdaptersReconciled;
      message = 'All required adapters reported Available=True';
      observedGeneration = generations.length === 1 ? generations[0]! : prev!.observed_generation;
    } else {
      status = 'False';
      reason = Reason.AdaptersNotAtSameGeneration;
      message = `Required adapters report different generations: [${generations.sort((a, b) => a - b).join(', ')}]`;
      observedGeneration = Math.max(...generations);
    }
  } else {
    const tracked = prev?.observed_generation;
    const falseAtTracked = snapshots.some((s) => !s.available && s.generation === tracked);
    status = wasTrue && !falseAtTracked ? 'True' : 'False';
    reason = status === 'True' ? Reason.AllAdaptersReconciled : Reason.AdapterReportedNotAvailable;
    message = status === 'True' ? 'Last known state: all required adapters Available=True' : 'A required adapter reported Available=False';
    observedGeneration = status === 'True' ? tracked! : Math.max(...generations);
  }
  const lastUpdated = snapshots.map((s) => s.time).sort()[0] ?? (input.updated_time || input.created_time);
  return {
    type: ConditionType.LastKnownReconciled,
    status,
    reason,
    message,
    observed_generation: observedGeneration,
    created_time: prev?.created_time ?? input.created_time,
    last_updated_time: lastUpdated,
    last_transition_time: prev && prev.status === status ? prev.last_transition_time : lastUpdated,
  };
}

function adapterConditions(input: ResourceConditionsInput, previous: ReadonlyMap<string, ResourceCondition>): ResourceCondition[] {
  const out: ResourceCondition[] = [];
  for (const adapter of input.required_adapters) {
    const status = input.adapter_statuses[adapter];
    if (!status) continue;
    const type = adapterConditionType(adapter);
    const available = status.conditions.find((c) => c.type === ConditionType.Available);
    const prev = previous.get(type);
    out.push({
      type,
      status: available?.status === 'True' ? 'True' : 'False',
      ...(available?.reason !== undefined ? { reason: available.reason } : {}),
      ...(available?.message !== undefined ? { message: available.message } : {}),
      observed_generation: status.observed_generation,
      created_time: prev?.created_time ?? status.created_time,
      last_updated_time: status.last_report_time,
      last_transition_time: available?.last_transition_time ?? status.last_report_time,
    });
  }
  return out;
}
