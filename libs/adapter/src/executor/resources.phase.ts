import type { PropagationPolicy, TaskConfig } from '../config/task-config.types.js';
import type { KubeObject, ObjectRef, ResourceTransport } from '../transport/resource-transport.port.js';
import { TransportError } from '../transport/transport-error.js';
import type { Evaluation, ExecutionContext } from './execution-context.js';
import type { ResourceOperation } from './execution-result.js';
import { decideApply, decideResourceStep } from './resource-plan.js';
import { remember, renderTarget, type Target, type TransportResolver } from './resource-target.js';

/** How long `recreate_on_change` waits for the old object to disappear before creating. */
export interface RecreateWait {
  readonly timeoutMs: number;
  readonly intervalMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function refOf(object: KubeObject, fallback: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion ?? fallback.apiVersion,
    kind: object.kind ?? fallback.kind,
    name: object.metadata.name,
    ...(object.metadata.namespace && { namespace: object.metadata.namespace }),
  };
}

function sameObject(a: KubeObject, b: KubeObject): boolean {
  if (a.metadata.uid && b.metadata.uid) return a.metadata.uid === b.metadata.uid;
  return a.metadata.name === b.metadata.name && a.metadata.namespace === b.metadata.namespace;
}

function operation(target: Target, object: KubeObject, kind: ResourceOperation['operation'], reason: string): ResourceOperation {
  return {
    resource: target.spec.name,
    operation: kind,
    reason,
    kind: object.kind ?? target.desired.kind,
    name: object.metadata.name,
    ...(object.metadata.namespace && { namespace: object.metadata.namespace }),
    ...(target.consumer && { consumer: target.consumer }),
  };
}

/**
 * Delete path (§2.6 b): discover, DELETE with the propagation policy (404 = already gone, #1),
 * re-discover. Gone → left out of `resources` so dependents can go in the same pass; still there
 * (finalizers) → kept, dependents wait. Errors are recorded per resource and processing goes on.
 */
async function deleteTarget(ctx: ExecutionContext, target: Target, policy: PropagationPolicy): Promise<void> {
  const { transport } = target;
  const name = target.spec.name;
  let current: KubeObject | undefined;
  try {
    current = await transport.discover(target.query);
  } catch (error) {
    ctx.failResource(name, { phase: 'resources', step: name, message: `discovery before delete failed: ${message(error)}` });
    ctx.recorder.operation(operation(target, target.desired, 'blocked', `discovery failed: ${message(error)}`));
    return;
  }
  if (!current) {
    remember(ctx, target, undefined);
    ctx.recorder.operation(operation(target, target.desired, 'delete', 'already gone (not found)'));
    return;
  }
  let outcome: string;
  try {
    outcome = await transport.delete(refOf(current, target.desired), policy);
  } catch (error) {
    remember(ctx, target, current);
    ctx.failResource(name, { phase: 'resources', step: name, message: message(error) });
    ctx.recorder.operation(operation(target, current, 'delete', `delete failed: ${message(error)}`));
    return;
  }
  let after: KubeObject | undefined = current;
  try {
    after = await transport.discover(target.query);
  } catch {
    // Cannot tell whether it is gone: keep the old object, so nothing downstream assumes absence.
  }
  remember(ctx, target, after);
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

async function waitUntilGone(transport: ResourceTransport, ref: ObjectRef, wait: RecreateWait): Promise<boolean> {
  for (let waited = 0; waited <= wait.timeoutMs; waited += wait.intervalMs) {
    if (!(await transport.get(ref))) return true;
    await wait.sleep(wait.intervalMs);
  }
  return false;
}

/**
 * Apply path (§2.6 c, d): GET by the manifest's name, create / replace / recreate / skip by
 * `hyperfleet.io/generation`, then discover by the discovery config into `resources`.
 * @returns false on error (recorded): apply errors stop the resource loop.
 */
async function applyTarget(ctx: ExecutionContext, target: Target, wait: RecreateWait): Promise<boolean> {
  const { spec, desired, transport } = target;
  try {
    const ref = refOf(desired, desired);
    const existing = await transport.get(ref);
    const decision = decideApply(desired, existing, spec.recreateOnChange);
    let op: ResourceOperation = operation(target, desired, decision.operation, decision.reason);
    if (decision.operation === 'create') {
      try {
        await transport.create(desired);
      } catch (error) {
        // Someone created it between our GET and POST: the object exists, which is what we wanted.
        if (!(error instanceof TransportError && error.reason === 'AlreadyExists')) throw error;
        op = operation(target, desired, 'skip', 'already exists');
      }
    } else if (decision.operation === 'update' && existing) {
      await transport.replace({ ...desired, metadata: { ...desired.metadata, resourceVersion: existing.metadata.resourceVersion } });
    } else if (decision.operation === 'recreate' && existing) {
      await transport.delete(refOf(existing, desired), 'Background');
      if (await waitUntilGone(transport, ref, wait)) await transport.create(desired);
      else op = operation(target, desired, 'wait', `${decision.reason}; old object still terminating, create on a later event`);
    }
    ctx.recorder.operation(op);
    remember(ctx, target, await transport.discover(target.query));
    return true;
  } catch (error) {
    ctx.failResource(spec.name, { phase: 'resources', step: spec.name, message: message(error) });
    ctx.recorder.operation(operation(target, desired, 'blocked', `apply failed: ${message(error)}`));
    return false;
  }
}

/**
 * Phase 3 (§2.6): render every manifest, pre-discover all resources when any lifecycle is set
 * (a discovery error other than NotFound fails the phase: nothing is applied or deleted), then
 * per resource in list order decide (pure, `decideResourceStep`) and act through the transport.
 * `ctx.resources` ends with the post-operation state, absent objects left out.
 * @see seeds/000 "Executor Behavior Change", "Deletion Ordering"; STYLE.md §3.
 */
export async function runResources(ctx: ExecutionContext, task: TaskConfig, transports: TransportResolver, wait: RecreateWait): Promise<void> {
  const targets: Target[] = [];
  for (const spec of task.resources) {
    try {
      targets.push(renderTarget(ctx, spec, transports));
    } catch (error) {
      const text = `render failed: ${message(error)}`;
      ctx.fail('ResourceFailed', { phase: 'resources', step: spec.name, message: text });
      ctx.recorder.phase({ phase: 'resources', status: 'failed', detail: `${spec.name}: ${text}` });
      return;
    }
  }
  const usesLifecycle = task.resources.some((r) => r.lifecycle?.create || r.lifecycle?.delete);
  if (usesLifecycle) {
    for (const target of targets) {
      try {
        remember(ctx, target, await target.transport.discover(target.query));
      } catch (error) {
        // Never guess "absent" (it would mean a false Finalized or an unwanted delete): stop here.
        const text = `discovery failed: ${message(error)}`;
        ctx.fail('ResourceFailed', { phase: 'resources', step: target.spec.name, message: text });
        ctx.recorder.phase({ phase: 'resources', status: 'failed', detail: `${target.spec.name}: ${text}` });
        return;
      }
    }
  }
  for (const target of targets) {
    const { spec } = target;
    const present = ctx.resources[spec.name];
    const deleteWhen: Evaluation | undefined = spec.lifecycle?.delete ? ctx.evaluate(spec.lifecycle.delete.when) : undefined;
    const deleting = deleteWhen?.ok === true && deleteWhen.value === true;
    const createWhen = spec.lifecycle?.create && !present && !deleting && deleteWhen?.ok !== false ? ctx.evaluate(spec.lifecycle.create.when) : undefined;
    const step = decideResourceStep({
      name: spec.name,
      ...(present && { present }),
      ...(deleteWhen && { deleteWhen }),
      ...(createWhen && { createWhen }),
      propagationPolicy: spec.lifecycle?.delete?.propagationPolicy ?? 'Background',
    });
    if (step.kind === 'blocked') {
      ctx.failResource(spec.name, { phase: 'resources', step: spec.name, message: step.reason });
      ctx.recorder.operation(operation(target, present ?? target.desired, 'blocked', step.reason));
    } else if (step.kind === 'create-skipped') {
      ctx.markSkipped(step.reason);
      ctx.recorder.operation(operation(target, target.desired, 'skip', step.reason));
    } else if (step.kind === 'delete') {
      await deleteTarget(ctx, target, step.policy);
    } else if (!(await applyTarget(ctx, target, wait))) {
      break;
    }
  }
  const failed = ctx.adapterMetadata().executionStatus === 'failed';
  ctx.recorder.phase({ phase: 'resources', status: failed ? 'failed' : 'success' });
}
