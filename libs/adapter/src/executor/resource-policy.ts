import type { ResourcePolicyState } from './execution-result.js';

/** Before any precondition returned the resource: not deleting, `Delete`, not paused. */
export const UNREAD_RESOURCE_POLICY: ResourcePolicyState = { deleting: false, deletionPolicy: 'Delete', paused: false };

/**
 * Decom built-ins read from the resource's own API response (as `deleted_time`): whether it is
 * deleting, its effective `deletion_policy` (the API shows `Orphan` once force-orphaned) and
 * whether `status.conditions` holds `Paused=True` (itself or an ancestor paused). Anything
 * unexpected reads as the safe default of each: not paused is the one exception, since a pause
 * only ever holds work back.
 * @see docs/adapter-expression-context.md "deleted_time, deletion_policy and Paused".
 */
export function readResourcePolicy(body: Readonly<Record<string, unknown>>, from: string): ResourcePolicyState {
  const deletedTime = body['deleted_time'];
  const conditions = (body['status'] as { conditions?: unknown } | undefined)?.conditions;
  const paused =
    Array.isArray(conditions) &&
    conditions.some((c) => (c as { type?: unknown })?.type === 'Paused' && (c as { status?: unknown }).status === 'True');
  return {
    deleting: deletedTime !== undefined && deletedTime !== null,
    deletionPolicy: body['deletion_policy'] === 'Orphan' ? 'Orphan' : 'Delete',
    paused,
    from,
    ...(typeof body['deleted_by'] === 'string' && { deletedBy: body['deleted_by'] }),
  };
}
