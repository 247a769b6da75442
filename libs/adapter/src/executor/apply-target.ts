import type { KubeObject, ObjectRef, ResourceTransport } from '../transport/resource-transport.port.js';
import { TransportError } from '../transport/transport-error.js';
import { decideAdoption } from './adoption-policy.js';
import { leaveForeign } from './delete-target.js';
import type { ExecutionContext } from './execution-context.js';
import type { ResourceOperation } from './execution-result.js';
import { withKeptRecords } from './kept-in-namespace.js';
import { discoverOwned } from './owned-discovery.js';
import { isOwnedBy, ownerLabels, withOwner } from './ownership.js';
import { decideApply } from './resource-plan.js';
import { describeObject, errorMessage, failCall, operation, refOf } from './resource-operation.js';
import { remember, type Target } from './resource-target.js';

/** How long `recreate_on_change` waits for the old object to disappear before creating. */
export interface RecreateWait {
  readonly timeoutMs: number;
  readonly intervalMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

async function waitUntilGone(transport: ResourceTransport, ref: ObjectRef, wait: RecreateWait): Promise<boolean> {
  for (let waited = 0; waited <= wait.timeoutMs; waited += wait.intervalMs) {
    if (!(await transport.get(ref))) return true;
    await wait.sleep(wait.intervalMs);
  }
  return false;
}

/**
 * An existing object that is not ours, on the apply path: never adopted while the resource is
 * deleting (left alone, absent for this adapter); otherwise the resource's adoption policy
 * decides (adoption-policy.ts). A refusal writes nothing and is a resource error with reason
 * `AdoptionConflict` / `AlreadyExists` (the status gets `Applied=False` with it).
 * @returns false when the resource loop must stop (refused, like an apply error).
 */
async function applyToForeign(ctx: ExecutionContext, target: Target, existing: KubeObject): Promise<boolean> {
  const { spec, transport } = target;
  if (ctx.resourcePolicy.deleting) {
    leaveForeign(ctx, target, existing, 'not adopted while the resource is deleting');
    return true;
  }
  const decision = decideAdoption(spec.lifecycle?.create?.adoptionPolicy ?? 'Adopt', target.desired, existing, ctx.ownerMark);
  const where = {
    kind: existing.kind,
    name: existing.metadata.name,
    ...(existing.metadata.namespace && { namespace: existing.metadata.namespace }),
  };
  if (decision.kind === 'refuse') {
    remember(ctx, target, undefined);
    ctx.failResource(spec.name, { phase: 'resources', step: spec.name, message: decision.message }, decision.reason);
    ctx.recorder.operation(operation(target, existing, 'foreign', `${decision.reason}: ${decision.message}`));
    ctx.recorder.policyOutcome({
      resource: spec.name,
      outcome: decision.reason,
      message: decision.message,
      ...where,
      ...(decision.differences && { differences: decision.differences }),
    });
    return false;
  }
  await transport.replace(decision.write);
  ctx.recorder.operation(operation(target, existing, 'adopt', decision.reason));
  const drift = decision.drift ?? decision.overwrote;
  ctx.recorder.policyOutcome({
    resource: spec.name,
    outcome: decision.record,
    message: `${describeObject(existing)} ${decision.reason}`,
    ...where,
    ...(drift && { drift }),
  });
  remember(ctx, target, (await discoverOwned(target, ctx.ownerMark)).owned);
  return true;
}

/**
 * Apply path: GET by the manifest's name; an object that is not ours goes through the
 * adoption policy; otherwise create / replace / recreate / skip by `hyperfleet.io/generation`.
 * Every write carries Decom's ownership marker (ownership.ts). Then discover (ours only) into
 * `resources`. While paused, a `recreate_on_change` delete is deferred (a pause runs no destroy).
 * @returns false on error (recorded): apply errors stop the resource loop.
 */
export async function applyTarget(ctx: ExecutionContext, target: Target, wait: RecreateWait, replaceUnchanged = false): Promise<boolean> {
  const { spec, transport } = target;
  const desired = withOwner(target.desired, ctx.ownerMark);
  try {
    const ref = refOf(desired, desired);
    const existing = await transport.get(ref);
    if (existing && !isOwnedBy(existing, ctx.ownerMark)) return await applyToForeign(ctx, target, existing);
    const decision = decideApply(desired, existing, spec.recreateOnChange, replaceUnchanged);
    let op: ResourceOperation = operation(target, desired, decision.operation, decision.reason);
    if (decision.operation === 'create') {
      try {
        await transport.create(desired);
      } catch (error) {
        // Someone created it between our GET and POST: not ours, so the next pass applies the adoption policy.
        if (!(error instanceof TransportError && error.reason === 'AlreadyExists')) throw error;
        op = operation(target, desired, 'skip', 'already exists (created concurrently; the adoption policy applies on the next pass)');
      }
    } else if (decision.operation === 'skip' && existing && missingOwnerLabels(existing, ctx.ownerMark)) {
      // An object ours from before the selectable labels existed gets them once (nothing else
      // changes), so adapter watches and label-selected discovery by ownership see it from now on.
      await transport.replace(withOwner(existing, ctx.ownerMark));
      op = operation(
        target,
        desired,
        'update',
        `${decision.reason}; ownership labels added (${Object.keys(ownerLabels(ctx.ownerMark)).join(', ')})`,
      );
    } else if (decision.operation === 'update' && existing) {
      // A Namespace's records of objects released into it (kept-in-namespace.ts) survive an update.
      const update = withKeptRecords(desired, existing);
      await transport.replace({ ...update, metadata: { ...update.metadata, resourceVersion: existing.metadata.resourceVersion } });
    } else if (decision.operation === 'recreate' && existing) {
      if (ctx.resourcePolicy.paused) {
        op = operation(target, desired, 'wait', `${decision.reason}; recreate deferred: the resource is paused (no delete while paused)`);
      } else {
        await transport.delete(refOf(existing, desired), 'Background');
        if (await waitUntilGone(transport, ref, wait)) await transport.create(desired);
        else op = operation(target, desired, 'wait', `${decision.reason}; old object still terminating, create on a later event`);
      }
    }
    ctx.recorder.operation(op);
    remember(ctx, target, (await discoverOwned(target, ctx.ownerMark)).owned);
    return true;
  } catch (error) {
    failCall(ctx, spec.name, errorMessage(error), error);
    ctx.recorder.operation(operation(target, desired, 'blocked', `apply failed: ${errorMessage(error)}`));
    return false;
  }
}

/** Does `object` (already ours) lack one of the marker's selectable labels? */
function missingOwnerLabels(object: KubeObject, mark: string): boolean {
  return Object.entries(ownerLabels(mark)).some(([label, value]) => object.metadata.labels?.[label] !== value);
}
