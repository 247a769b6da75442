/**
 * The two-person rule for break-glass actions (docs/policies.md "Two-person rule"). With
 * `authorization.break_glass.approvals: 1`, force delete, force orphan, unpause, abandoning an adapter and leak
 * deletion become
 * requests that a different administrator approves or rejects; an approval runs the action against the
 * generation it was requested for, and a request not decided by `expires_at` can no longer be approved.
 * With `approvals: 0` (the default) none of this is used and the actions run at once.
 */
import { decideForceDelete } from './decide.js';
import { decideAbandonAdapter } from './abandon-adapter.js';
import type { KindRegistry } from './kinds.js';
import { decideForceOrphan, decideSetPaused, requireReason } from './decide-operator-actions.js';
import { ResourceNotFound, ValidationFailed } from './errors.js';
import { BreakGlassNotPending, BreakGlassRequestNotFound, SelfApproval } from './break-glass-errors.js';
import { breakGlassStatus, type BreakGlassRequest } from './break-glass-request.js';
import type { BreakGlassAction, RequestedLeak } from './break-glass.events.js';
import type { CommandMetadata } from './resource.commands.js';
import type { ResourceEvent } from './resource.events.js';
import type { TreeState } from './resource.state.js';

export * from './break-glass.events.js';
export * from './break-glass-request.js';
export * from './break-glass-errors.js';

/** The target kind of a `delete_leaks` request (it names objects, not a resource). */
export const LEAKS_TARGET_KIND = 'Leaks';

/** The stream of a `delete_leaks` request (no resource tree holds it): `breakglass-<request_id>`. */
export function breakGlassStreamName(requestId: string): string {
  return `breakglass-${requestId}`;
}

/** Default time a request waits for its approval: one hour, in seconds. */
export const DEFAULT_BREAK_GLASS_EXPIRY_SECONDS = 3600;

/** Ask for a break-glass action. `kind`/`id`: the resource (ignored for `delete_leaks`, which names `objects`). */
export interface RequestBreakGlass {
  readonly type: 'RequestBreakGlass';
  readonly request_id: string;
  readonly action: BreakGlassAction;
  readonly kind: string;
  readonly id: string;
  readonly reason: string;
  /** How long the request waits for its approval, seconds (> 0). */
  readonly expires_after_seconds: number;
  /** `abandon_adapter`: the adapter to count as finalized. */
  readonly adapter?: string;
  readonly objects?: readonly RequestedLeak[];
  readonly metadata: CommandMetadata;
}

/** Approve a pending request (`reason` optional). `metadata.caller` is the approving administrator. */
export interface ApproveBreakGlass {
  readonly type: 'ApproveBreakGlass';
  readonly request_id: string;
  readonly reason?: string;
  readonly metadata: CommandMetadata;
}

/** Reject a pending request, with a reason. */
export interface RejectBreakGlass {
  readonly type: 'RejectBreakGlass';
  readonly request_id: string;
  readonly reason: string;
  readonly metadata: CommandMetadata;
}

/**
 * Records `BreakGlassRequested` for the action on the resource at its current generation, with
 * `expires_at = now + expires_after_seconds`. The action is decided once now, so a request that could never
 * run is refused at once with the action's own error; one that would change nothing records nothing (`[]`).
 * @throws ValidationFailed (reason; `objects` empty for `delete_leaks`), ResourceNotFound, and whatever the
 *   action itself throws (NotFinalizing (409) for a force delete or force orphan of a resource not Finalizing).
 */
export function decideRequestBreakGlass(command: RequestBreakGlass, state: TreeState, kinds: KindRegistry): ResourceEvent[] {
  const reason = requireReason(command.reason);
  const base = {
    request_id: command.request_id,
    action: command.action,
    reason,
    requested_by: command.metadata.caller,
    requested_time: command.metadata.now,
    expires_at: new Date(Date.parse(command.metadata.now) + command.expires_after_seconds * 1000).toISOString(),
  };
  if (command.action === 'delete_leaks') {
    if (!command.objects || command.objects.length === 0) {
      throw new ValidationFailed('no leaked objects to delete', [
        { field: 'objects', constraint: 'min', message: 'the leak scan found nothing to delete' },
      ]);
    }
    return [
      {
        type: 'BreakGlassRequested',
        data: { ...base, id: command.request_id, kind: LEAKS_TARGET_KIND, generation: 0, objects: command.objects },
      },
    ];
  }
  const resource = state.resources.get(command.id);
  if (!resource || resource.kind !== command.kind) throw new ResourceNotFound(command.kind, command.id);
  const action = {
    action: command.action,
    kind: command.kind,
    id: command.id,
    ...(command.adapter !== undefined && { adapter: command.adapter }),
  };
  if (actionEvents(action, reason, command.metadata, state, kinds).length === 0) return [];
  return [
    {
      type: 'BreakGlassRequested',
      data: {
        ...base,
        id: resource.id,
        kind: resource.kind,
        generation: resource.generation,
        ...(command.adapter !== undefined && { adapter: command.adapter }),
      },
    },
  ];
}

/**
 * Approves a pending request: `BreakGlassApproved`, then the action's own events decided now against the
 * resource at the requested generation (caller and reason of those events: the requester's). When the resource
 * moved to another generation or is gone, records `BreakGlassVoided` instead and nothing runs. A
 * `delete_leaks` approval records `BreakGlassApproved` only: the caller then deletes `objects` (those still leaking).
 * @throws BreakGlassRequestNotFound (404); SelfApproval (403) when the approver asked for it;
 *   BreakGlassNotPending (409) when decided already or past `expires_at` (time: `metadata.now`);
 *   ValidationFailed (a reason longer than 1024 characters); whatever the action throws.
 */
export function decideApproveBreakGlass(command: ApproveBreakGlass, state: TreeState, kinds: KindRegistry): ResourceEvent[] {
  const request = pendingRequest(command.request_id, command.metadata.now, state);
  if (request.requested_by === command.metadata.caller) throw new SelfApproval(request.request_id, command.metadata.caller);
  const reason = command.reason?.trim() ? requireReason(command.reason) : undefined;
  const approved: ResourceEvent = {
    type: 'BreakGlassApproved',
    data: {
      request_id: request.request_id,
      id: request.id,
      kind: request.kind,
      approved_by: command.metadata.caller,
      ...(reason !== undefined && { reason }),
      approved_time: command.metadata.now,
    },
  };
  if (request.action === 'delete_leaks') return [approved];
  const resource = state.resources.get(request.id);
  if (!resource || resource.generation !== request.generation) {
    return [
      {
        type: 'BreakGlassVoided',
        data: {
          request_id: request.request_id,
          id: request.id,
          kind: request.kind,
          requested_generation: request.generation,
          ...(resource && { current_generation: resource.generation }),
          voided_by: command.metadata.caller,
          voided_time: command.metadata.now,
        },
      },
    ];
  }
  const metadata = { now: command.metadata.now, caller: request.requested_by };
  const action = {
    action: request.action,
    kind: request.kind,
    id: request.id,
    ...(request.adapter !== undefined && { adapter: request.adapter }),
  };
  return [approved, ...actionEvents(action, request.reason, metadata, state, kinds)];
}

/**
 * Rejects a pending request (the requester may withdraw their own): `BreakGlassRejected`; nothing runs.
 * @throws BreakGlassRequestNotFound (404); BreakGlassNotPending (409); ValidationFailed (reason).
 */
export function decideRejectBreakGlass(command: RejectBreakGlass, state: TreeState): ResourceEvent[] {
  const reason = requireReason(command.reason);
  const request = pendingRequest(command.request_id, command.metadata.now, state);
  return [
    {
      type: 'BreakGlassRejected',
      data: {
        request_id: request.request_id,
        id: request.id,
        kind: request.kind,
        rejected_by: command.metadata.caller,
        reason,
        rejected_time: command.metadata.now,
      },
    },
  ];
}

function pendingRequest(requestId: string, now: string, state: TreeState): BreakGlassRequest {
  const request = state.break_glass?.get(requestId);
  if (!request) throw new BreakGlassRequestNotFound(requestId);
  const status = breakGlassStatus(request, now);
  if (status !== 'Pending') throw new BreakGlassNotPending(requestId, status);
  return request;
}

/** The events the action records on the resource, decided by the action's own decider. */
function actionEvents(
  { action, kind, id, adapter }: { action: Exclude<BreakGlassAction, 'delete_leaks'>; kind: string; id: string; adapter?: string },
  reason: string,
  metadata: CommandMetadata,
  state: TreeState,
  kinds: KindRegistry,
): ResourceEvent[] {
  switch (action) {
    case 'force_delete':
      return decideForceDelete({ type: 'ForceDelete', kind, id, reason, metadata }, state);
    case 'force_orphan':
      return decideForceOrphan({ type: 'ForceOrphan', kind, id, reason, metadata }, state);
    case 'unpause':
      return decideSetPaused({ type: 'SetPaused', kind, id, paused: false, reason, metadata }, state);
    case 'abandon_adapter':
      if (adapter === undefined)
        throw new ValidationFailed('abandon_adapter names no adapter', [
          { field: 'adapter', constraint: 'required', message: 'adapter is required' },
        ]);
      return decideAbandonAdapter({ type: 'AbandonAdapter', kind, id, adapter, reason, metadata }, state, kinds);
  }
}
