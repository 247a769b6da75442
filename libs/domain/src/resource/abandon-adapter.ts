/**
 * Abandon one adapter (Kubernetes: removing one finalizer): an administrator gives up on one adapter of a
 * deletion's frozen set that cannot finish (its cluster is gone, its credentials revoked), without
 * force-deleting the resource and everyone else's cleanup with it. The rest of the deletion goes on normally.
 */
import { requireReason } from './decide-operator-actions.js';
import { ConditionType } from './conditions.js';
import { AdapterNotPending, NotFinalizing, ResourceNotFound } from './errors.js';
import type { KindRegistry } from './kinds.js';
import { isAdapterMet } from './reconciled.js';
import { requiredAdaptersOf } from './required-adapters.js';
import type { AbandonAdapter } from './resource.commands.js';
import type { AdapterStatus, ResourceEvent } from './resource.events.js';
import { isFinalizing, type TreeState } from './resource.state.js';

/** The reason on the abandoned adapter's stored `Finalized=True` and `Available=False` conditions. */
export const ADAPTER_ABANDONED = 'AdapterAbandoned';

/**
 * Decides an abandon: the adapter's stored status becomes `Finalized=True/AdapterAbandoned` at the deletion's
 * generation (so `Reconciled`, the hard-delete gate and dispatch count it as done, by their usual rules), and
 * `AdapterFinalized` records `forced: true` with caller and reason. The objects it still owns are inventoried
 * afterwards (leak trigger `AdapterAbandoned`); later reports of that adapter are discarded (`AdapterAbandoned`).
 * @throws ValidationFailed (reason missing, blank or over 1024 characters); ResourceNotFound;
 *   NotFinalizing (no DELETE yet, 409); AdapterNotPending (not in the frozen set, or already finalized, 409).
 */
export function decideAbandonAdapter(command: AbandonAdapter, state: TreeState, kinds: KindRegistry): ResourceEvent[] {
  const reason = requireReason(command.reason);
  const resource = state.resources.get(command.id);
  if (!resource || resource.kind !== command.kind) throw new ResourceNotFound(command.kind, command.id);
  if (!isFinalizing(resource)) throw new NotFinalizing(resource.kind, resource.id);
  const frozen = requiredAdaptersOf(resource, kinds);
  if (!frozen.includes(command.adapter))
    throw new AdapterNotPending(resource.kind, resource.id, command.adapter, 'NotInDeletionAdapterSet', frozen);
  const input = {
    generation: resource.generation,
    deleted_time: resource.deleted_time!,
    required_adapters: frozen,
    adapter_statuses: resource.adapter_statuses,
    child_record_count: 0,
  };
  if (isAdapterMet(input, command.adapter))
    throw new AdapterNotPending(resource.kind, resource.id, command.adapter, 'AlreadyFinalized', frozen);
  const { now, caller } = command.metadata;
  const message = `abandoned by ${caller}: ${reason}`;
  const stored = resource.adapter_statuses[command.adapter];
  const status: AdapterStatus = {
    adapter: command.adapter,
    observed_generation: resource.generation,
    conditions: [
      { type: ConditionType.Available, status: 'False', reason: ADAPTER_ABANDONED, message, last_transition_time: now },
      { type: ConditionType.Finalized, status: 'True', reason: ADAPTER_ABANDONED, message, last_transition_time: now },
    ],
    created_time: stored?.created_time ?? now,
    last_report_time: now,
  };
  return [
    { type: 'AdapterStatusReported', data: { id: resource.id, kind: resource.kind, status } },
    {
      type: 'AdapterFinalized',
      data: {
        id: resource.id,
        kind: resource.kind,
        adapter: command.adapter,
        observed_generation: resource.generation,
        finalized_time: now,
        forced: true,
        caller,
        reason,
      },
    },
  ];
}
