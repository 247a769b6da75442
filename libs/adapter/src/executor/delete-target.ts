import type { PropagationPolicy } from '../config/task-config.types.js';
import type { KubeObject } from '../transport/resource-transport.port.js';
import type { ExecutionContext } from './execution-context.js';
import { discoverOwned, type OwnedDiscovery } from './owned-discovery.js';
import { keepNamespaceOfReleased } from './kept-in-namespace.js';
import { findOwnedStrays } from './owned-strays.js';
import { OWNER_ANNOTATION } from './ownership.js';
import { describeObject, errorMessage, failCall, operation, refOf, sameObject } from './resource-operation.js';
import { remember, type Target } from './resource-target.js';

/**
 * An object that is not Decom's (no ownership marker of this resource and adapter) is left
 * untouched and counts as absent for this adapter (left out of `resources`), so it never blocks
 * `Finalized`; the trace, a warning and `policy.outcomes` say so.
 */
export function leaveForeign(ctx: ExecutionContext, target: Target, object: KubeObject, why: string): void {
  remember(ctx, target, undefined);
  const reason = `not Decom's (no ${OWNER_ANNOTATION}: ${ctx.ownerMark}): ${why}`;
  ctx.recorder.operation(operation(target, object, 'foreign', reason));
  ctx.recorder.policyOutcome({
    resource: target.spec.name,
    outcome: 'NotOwned',
    message: `${describeObject(object)}: ${reason}`,
    kind: object.kind,
    name: object.metadata.name,
    ...(object.metadata.namespace && { namespace: object.metadata.namespace }),
  });
  ctx.recorder.log({ level: 'warning', message: `${target.spec.name}: ${describeObject(object)} ${reason}`, where: target.spec.where });
  if (ctx.resourcePolicy.deleting) ctx.verdicts.notOwned.push(describeObject(object));
}

/**
 * Delete path: discover (ours only), DELETE with the propagation policy (404 = already
 * gone, #1), re-discover. An object already being deleted (`deletionTimestamp` set) is waited for, not
 * deleted again. Objects of the kind found by ownership under other names (`deleteStrays`) wait while
 * `strayWaitsFor`, another resource of the same kind, is still held back by its `when`. Gone → left out of `resources` so dependents can go in the same pass;
 * still there (finalizers) → kept, dependents wait. An object that is not ours is never deleted
 * (leaveForeign). Errors are recorded per resource and processing goes on.
 */
export async function deleteTarget(
  ctx: ExecutionContext,
  target: Target,
  policy: PropagationPolicy,
  claimed: readonly KubeObject[] = [],
  strayWaitsFor?: Target,
): Promise<void> {
  await deleteDiscovered(ctx, target, policy);
  if (ctx.adapterMetadata().resourceErrors[target.spec.name]) return;
  if (strayWaitsFor) {
    // The marker names the resource and adapter, not which of this config's resources an object of a shared
    // kind belongs to: one still held back by its `when` may own them, so they go in its turn, not out of order.
    const kind = target.desired.kind;
    ctx.recorder.log({
      level: 'info',
      message: `${target.spec.name}: other ${kind} objects carrying ${OWNER_ANNOTATION}: ${ctx.ownerMark} are left for ${strayWaitsFor.spec.name} (a ${kind} its lifecycle.delete.when still holds back)`,
      where: target.spec.where,
    });
    return;
  }
  await deleteStrays(ctx, target, policy, claimed);
}

/**
 * Discovery by ownership at deletion (owned-strays.ts): objects of this resource's kind
 * carrying our marker under another name or generation are deleted too. While one is still
 * present, the resource counts as present (so `Finalized` waits and its dependents keep their order).
 */
async function deleteStrays(
  ctx: ExecutionContext,
  target: Target,
  policy: PropagationPolicy,
  claimed: readonly KubeObject[],
): Promise<void> {
  const name = target.spec.name;
  const known = [...claimed, ...Object.values(ctx.resources)];
  let strays: KubeObject[];
  try {
    strays = await findOwnedStrays(target, ctx.ownerMark, known);
  } catch (error) {
    failCall(ctx, name, `discovery by ownership failed: ${errorMessage(error)}`, error);
    ctx.recorder.operation(operation(target, target.desired, 'blocked', `discovery by ownership failed: ${errorMessage(error)}`));
    return;
  }
  if (strays.length === 0) return;
  for (const stray of strays) {
    if (stray.metadata.deletionTimestamp) {
      noteHolding(ctx, stray);
      ctx.recorder.operation(operation(target, stray, 'wait', `${terminatingReason(stray)} (discovery by ownership)`));
      continue;
    }
    try {
      const outcome = await target.transport.delete(refOf(stray, target.desired), policy);
      const how = outcome === 'not-found' ? 'already gone (not found)' : `deleted (propagationPolicy=${policy})`;
      ctx.recorder.operation(
        operation(
          target,
          stray,
          'delete',
          `${how}: carries ${OWNER_ANNOTATION}: ${ctx.ownerMark} under another name or generation (discovery by ownership)`,
        ),
      );
    } catch (error) {
      failCall(ctx, name, `${describeObject(stray)}: ${errorMessage(error)}`, error);
      ctx.recorder.operation(operation(target, stray, 'delete', `delete failed: ${errorMessage(error)}`));
    }
  }
  let left: KubeObject[] = strays;
  try {
    left = await findOwnedStrays(target, ctx.ownerMark, known);
  } catch {
    // Cannot tell whether they are gone: keep them as present, nothing downstream assumes absence.
  }
  for (const still of left) noteHolding(ctx, still);
  if (left.length > 0 && !ctx.resources[name]) {
    remember(ctx, target, left[0]);
    ctx.recorder.operation(
      operation(
        target,
        left[0]!,
        'wait',
        `delete requested; ${left.map(describeObject).join(', ')} still present (discovery by ownership)`,
      ),
    );
  }
}

/** Why an object with a `deletionTimestamp` is not deleted again: since when, and what it waits for. */
function terminatingReason(object: KubeObject): string {
  const finalizers = object.metadata.finalizers ?? [];
  const waitsFor = finalizers.length > 0 ? `finalizers: ${finalizers.join(', ')}` : 'the server to finish it';
  return `deletion in progress since ${object.metadata.deletionTimestamp} (${waitsFor}); not deleted again`;
}

/**
 * Keeps an object whose delete was requested and that is still present (`deletionTimestamp` set) for the
 * status report's `data.holding` (status-overrides.ts): kind, namespace, name, `metadata.finalizers` and the
 * deletion timestamp. An object without a deletion timestamp, or one already kept, is skipped.
 */
function noteHolding(ctx: ExecutionContext, object: KubeObject): void {
  const since = object.metadata.deletionTimestamp;
  if (!since) return;
  const { kind } = object;
  const { name, namespace } = object.metadata;
  if (ctx.verdicts.holding.some((h) => h.kind === kind && h.name === name && h.namespace === namespace)) return;
  ctx.verdicts.holding.push({
    kind,
    ...(namespace ? { namespace } : {}),
    name,
    finalizers: [...(object.metadata.finalizers ?? [])],
    deletion_timestamp: since,
  });
}

/** The object the resource's own discovery finds. */
async function deleteDiscovered(ctx: ExecutionContext, target: Target, policy: PropagationPolicy): Promise<void> {
  const { transport } = target;
  const name = target.spec.name;
  let found: OwnedDiscovery;
  try {
    found = await discoverOwned(target, ctx.ownerMark);
  } catch (error) {
    failCall(ctx, name, `discovery before delete failed: ${errorMessage(error)}`, error);
    ctx.recorder.operation(operation(target, target.desired, 'blocked', `discovery failed: ${errorMessage(error)}`));
    return;
  }
  const current = found.owned;
  if (!current) {
    if (found.foreign) return leaveForeign(ctx, target, found.foreign, 'left in place, never deleted');
    remember(ctx, target, undefined);
    ctx.recorder.operation(operation(target, target.desired, 'delete', 'already gone (not found)'));
    return;
  }
  if (current.metadata.deletionTimestamp) {
    // Already being deleted (a delete of an earlier pass waits on finalizers, or a Namespace terminates):
    // deleting again changes nothing, and a terminating Namespace answers 409 Conflict to it (kube-apiserver).
    remember(ctx, target, current);
    noteHolding(ctx, current);
    ctx.recorder.operation(operation(target, current, 'wait', terminatingReason(current)));
    return;
  }
  if (await keepNamespaceOfReleased(ctx, target, current)) return;
  let outcome: string;
  try {
    outcome = await transport.delete(refOf(current, target.desired), policy);
  } catch (error) {
    remember(ctx, target, current);
    failCall(ctx, name, errorMessage(error), error);
    ctx.recorder.operation(operation(target, current, 'delete', `delete failed: ${errorMessage(error)}`));
    return;
  }
  let after: KubeObject | undefined = current;
  try {
    after = (await discoverOwned(target, ctx.ownerMark)).owned;
  } catch {
    // Cannot tell whether it is gone: keep the old object, so nothing downstream assumes absence.
  }
  remember(ctx, target, after);
  if (after) noteHolding(ctx, after);
  const reason = outcome === 'not-found' ? 'already gone (not found)' : `deleted (propagationPolicy=${policy})`;
  if (after && sameObject(after, current)) {
    ctx.recorder.operation(operation(target, after, 'wait', `delete requested (propagationPolicy=${policy}); object still present`));
  } else if (after) {
    // Selector discovery: this one is gone but an older generation still matches (next pass).
    ctx.recorder.operation(operation(target, current, 'delete', `${reason}; ${after.metadata.name} still matches the discovery`));
  } else {
    ctx.recorder.operation(operation(target, current, 'delete', reason));
  }
}
