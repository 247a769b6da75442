import type { TaskConfig } from '../config/task-config.types.js';
import type { DiscoveryQuery, KubeObject } from '../transport/resource-transport.port.js';
import { type RecreateWait, applyTarget } from './apply-target.js';
import { deleteTarget } from './delete-target.js';
import type { Evaluation, ExecutionContext } from './execution-context.js';
import { type OrphanBudget, type OrphanResult, orphanStrays, orphanTarget, orphanedMessage } from './orphan-target.js';
import { discoverOwned } from './owned-discovery.js';
import { findOwnedStrays } from './owned-strays.js';
import { decideResourceStep } from './resource-plan.js';
import { errorMessage, failCall, operation } from './resource-operation.js';
import { remember, renderTarget, type Target, type TransportResolver } from './resource-target.js';

export type { RecreateWait } from './apply-target.js';

/** Decom's policy knobs of the resource phase. */
export interface ResourcePhaseOptions {
  readonly wait: RecreateWait;
  /** Bound of each cluster call on the orphan path, in ms. */
  readonly orphanCallTimeoutMs: number;
  /**
   * Reads these Kubernetes discoveries ahead, all at once, before the pre-discovery makes them one by one
   * (the executor's RunReadCacheTransport.prefetch); absent: no read ahead.
   */
  readonly prefetch?: (queries: readonly DiscoveryQuery[]) => Promise<void>;
  /** Go on through the ordered deletes in this pass (`continueOrderedDeletes`); absent: one sweep, as HyperFleet. */
  readonly continueDeletes?: boolean;
  /** Replace a present object even when its generation is unchanged (`decideApply`; the dry run). */
  readonly replaceUnchanged?: boolean;
}

/** The first resource whose manifest or discovery did not render, and why. */
interface RenderFailure {
  readonly resource: string;
  readonly message: string;
}

/** Renders in list order up to the first failure: the targets before it, and the failure if any. */
function renderAll(
  ctx: ExecutionContext,
  task: TaskConfig,
  transports: TransportResolver,
): { readonly targets: Target[]; readonly failure?: RenderFailure } {
  const targets: Target[] = [];
  for (const spec of task.resources) {
    try {
      targets.push(renderTarget(ctx, spec, transports));
    } catch (error) {
      return { targets, failure: { resource: spec.name, message: `render failed: ${errorMessage(error)}` } };
    }
  }
  return { targets };
}

/** A render failure fails the phase (`ResourceFailed`, the resource named as the step). */
function failRender(ctx: ExecutionContext, failure: RenderFailure): void {
  ctx.fail('ResourceFailed', { phase: 'resources', step: failure.resource, message: failure.message });
  ctx.recorder.phase({ phase: 'resources', status: 'failed', detail: `${failure.resource}: ${failure.message}` });
}

/**
 * Orphan stage, before anything that needs a live connection (seed 003 "Deletion-path ordering
 * fix"): while the resource is deleting, every resource whose effective policy is `Orphan` (the
 * resource's `deletion_policy`, or its `lifecycle.delete.policy`) is left in place, best effort
 * unmarked, and counts as absent. Failures here never fail the pass.
 * @returns the targets still to process.
 */
async function orphanStage(ctx: ExecutionContext, targets: readonly Target[], options: ResourcePhaseOptions): Promise<Target[]> {
  const state = ctx.resourcePolicy;
  if (!state.deleting) return [...targets];
  const budget: OrphanBudget = { callTimeoutMs: options.orphanCallTimeoutMs, unreachable: new Map() };
  const results: OrphanResult[] = [];
  const rest: Target[] = [];
  const resourceWhy = 'deletion_policy Orphan';
  for (const target of targets) {
    const configOrphan = target.spec.lifecycle?.delete?.policy === 'Orphan';
    if (state.deletionPolicy !== 'Orphan' && !configOrphan) {
      rest.push(target);
      continue;
    }
    const why = state.deletionPolicy === 'Orphan' ? resourceWhy : 'lifecycle.delete.policy Orphan';
    results.push(await orphanTarget(ctx, target, budget, why));
    const released = await orphanStrays(ctx, target, budget, why, [...targets.map((t) => t.desired), ...Object.values(ctx.resources)]);
    results.push(...released);
  }
  if (rest.length === 0) {
    const why = state.deletionPolicy === 'Orphan' ? resourceWhy : 'lifecycle.delete.policy Orphan';
    ctx.verdicts.orphaned = orphanedMessage(why, results);
  }
  return rest;
}

/**
 * Phase 3 (resources) with Decom's policy rules (docs/policies.md "Adapter side"): render every
 * manifest (a render failure fails the phase; without lifecycle and outside a deletion, the resources
 * listed before the failing one are applied first, as HyperFleet's ExecuteAll does); while deleting and paused, stop (no cluster call at all); orphan what the policies
 * say to orphan (orphanStage, no connection needed); pre-discover the rest when any lifecycle is
 * set (a discovery error other than NotFound fails the phase: nothing is applied or deleted;
 * objects that are not ours count as absent), then per resource in list order decide (pure,
 * `decideResourceStep`) and act through the transport. `ctx.resources` ends with the
 * post-operation state, absent objects left out.
 * @see seeds/000 "Executor Behavior Change", "Deletion Ordering"; seeds/003, 004; STYLE.md §3.
 */
export async function runResources(
  ctx: ExecutionContext,
  task: TaskConfig,
  transports: TransportResolver,
  options: ResourcePhaseOptions,
): Promise<void> {
  const state = ctx.resourcePolicy;
  if (state.deleting && state.paused) {
    // A pause holds a deletion entirely: no delete, no orphan, not even a read (seed 004).
    ctx.verdicts.pausedHold = true;
    ctx.recorder.phase({ phase: 'resources', status: 'skipped', detail: 'the resource is paused: deletion waits until it is unpaused' });
    return;
  }
  const { targets: rendered, failure } = renderAll(ctx, task, transports);
  // HyperFleet renders and applies one resource at a time, so a render failure stops after applying the
  // ones before it. Only so without any lifecycle and outside a deletion: a `when` may read a sibling the
  // pre-discovery never saw (the one that did not render), and absence must never be guessed.
  const partialApply = !state.deleting && !task.resources.some((r) => r.lifecycle?.create || r.lifecycle?.delete);
  if (failure && !partialApply) return failRender(ctx, failure);
  const targets = await orphanStage(ctx, rendered, options);
  const orphaned = new Set(rendered.filter((t) => !targets.includes(t)).map((t) => t.spec.name));
  const usesLifecycle = task.resources.some((r) => !orphaned.has(r.name) && (r.lifecycle?.create || r.lifecycle?.delete));
  // Objects that exist but are not ours: absent for CEL, present for `create.when` (HyperFleet: only
  // consulted for an absent object), so the apply path meets them and the adoption policy decides.
  const foreign = new Map<string, KubeObject>();
  // What this pass's resources render: discovery by ownership leaves those to their own resource.
  const claimed = targets.map((t) => t.desired);
  if (usesLifecycle) {
    await options.prefetch?.(targets.filter((t) => t.transport === transports.kubernetes).map((t) => t.query));
    for (const target of targets) {
      try {
        const found = await discoverOwned(target, ctx.ownerMark);
        // While deleting, an object of ours under an earlier name or generation stands for the
        // resource, so the order the `when` expressions encode waits for it too.
        const stray =
          !found.owned && state.deleting
            ? (await findOwnedStrays(target, ctx.ownerMark, [...claimed, ...Object.values(ctx.resources)]))[0]
            : undefined;
        remember(ctx, target, found.owned ?? stray);
        if (found.foreign) foreign.set(target.spec.name, found.foreign);
      } catch (error) {
        // Never guess "absent" (it would mean a false Finalized or an unwanted delete): stop here.
        const text = `discovery failed: ${errorMessage(error)}`;
        failCall(ctx, target.spec.name, text, error, 'phase');
        ctx.recorder.phase({ phase: 'resources', status: 'failed', detail: `${target.spec.name}: ${text}` });
        return;
      }
    }
  }
  const presentBefore = new Set(targets.filter((t) => ctx.resources[t.spec.name]).map((t) => t.spec.name));
  // Resources whose delete.when kept them this sweep although the resource is deleting.
  const heldBack: Target[] = [];
  let stopped = false;
  for (const target of targets) {
    if (!(await processTarget(ctx, target, options, foreign.get(target.spec.name), claimed, heldBack, targets))) {
      stopped = true;
      break;
    }
  }
  if (failure && !stopped) return failRender(ctx, failure);
  if (options.continueDeletes && state.deleting && !stopped) await continueOrderedDeletes(ctx, presentBefore, heldBack, claimed, targets);
  const failed = ctx.adapterMetadata().executionStatus === 'failed';
  ctx.recorder.phase({ phase: 'resources', status: failed ? 'failed' : 'success' });
}

/**
 * Deletion order within one pass. HyperFleet evaluates each resource's `lifecycle.delete.when`
 * once per pass, in list order, so a config that lists its Namespace before the ConfigMap and the Job in it
 * (the order creation needs) deletes one object per pass: each later `when` waits for a pass that sees the
 * earlier object gone. Here, once a sweep has deleted an object and its re-discovery confirmed it gone, the
 * resources it held back are evaluated again against that state, in list order, and deleted when their
 * `when` now holds; this repeats while a sweep confirms another object gone (at most once per resource).
 * What is deleted and in which order is exactly what the next passes would do; only the waits between
 * passes go. It stops at the first delete that leaves its object present (finalizers, a terminating
 * Namespace): the next pass, woken by the watch on that object, goes on from there.
 * @param presentBefore the resources discovery found before the first sweep.
 * @param heldBack the resources whose `when` was false in the first sweep (their objects present); consumed.
 * @param targets every resource of the pass (for `heldOfSameKind`).
 * @see seeds/000 "Deletion Ordering".
 */
async function continueOrderedDeletes(
  ctx: ExecutionContext,
  presentBefore: ReadonlySet<string>,
  heldBack: Target[],
  claimed: readonly KubeObject[],
  targets: readonly Target[],
): Promise<void> {
  let confirmedGone = [...presentBefore].some((name) => !ctx.resources[name]);
  while (confirmedGone && heldBack.length > 0 && ctx.adapterMetadata().executionStatus !== 'failed') {
    confirmedGone = false;
    for (const target of [...heldBack]) {
      const name = target.spec.name;
      const when = ctx.evaluate(target.spec.lifecycle!.delete!.when);
      if (!when.ok || when.value !== true) continue;
      heldBack.splice(heldBack.indexOf(target), 1);
      await deleteTarget(
        ctx,
        target,
        target.spec.lifecycle!.delete!.propagationPolicy ?? 'Background',
        claimed,
        heldOfSameKind(ctx, target, targets),
      );
      if (ctx.adapterMetadata().resourceErrors[name]) return;
      confirmedGone ||= !ctx.resources[name];
    }
  }
}

/**
 * Another resource of `target`'s kind, present, whose `lifecycle.delete.when` does not hold now, if any: the
 * ownership marker does not say which resource an object of a shared kind under another name belongs to,
 * so such objects wait for it (delete-target.ts).
 */
function heldOfSameKind(ctx: ExecutionContext, target: Target, targets: readonly Target[]): Target | undefined {
  const { apiVersion, kind } = target.desired;
  return targets.find((other) => {
    const when = other.spec.lifecycle?.delete?.when;
    if (other === target || !when || other.desired.kind !== kind || other.desired.apiVersion !== apiVersion) return false;
    return ctx.resources[other.spec.name] !== undefined && !ctx.holdsQuietly(when);
  });
}

/** One resource's step. @returns false when the loop must stop (apply error). */
async function processTarget(
  ctx: ExecutionContext,
  target: Target,
  options: ResourcePhaseOptions,
  foreign: KubeObject | undefined,
  claimed: readonly KubeObject[],
  heldBack: Target[],
  targets: readonly Target[],
): Promise<boolean> {
  const { spec } = target;
  const present = ctx.resources[spec.name];
  const exists = present ?? foreign;
  const deleteWhen: Evaluation | undefined = spec.lifecycle?.delete ? ctx.evaluate(spec.lifecycle.delete.when) : undefined;
  const deleting = deleteWhen?.ok === true && deleteWhen.value === true;
  if (ctx.resourcePolicy.deleting && present && deleteWhen?.ok === true && deleteWhen.value === false) heldBack.push(target);
  const createWhenExpr = spec.lifecycle?.create?.when;
  const createWhen = createWhenExpr && !exists && !deleting && deleteWhen?.ok !== false ? ctx.evaluate(createWhenExpr) : undefined;
  const step = decideResourceStep({
    name: spec.name,
    ...(exists && { present: exists }),
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
  } else if (step.kind === 'delete' && spec.lifecycle?.delete?.policy === 'Orphan') {
    // delete.when holds outside a deletion of the resource: the config's Orphan still never deletes.
    await orphanTarget(
      ctx,
      target,
      { callTimeoutMs: options.orphanCallTimeoutMs, unreachable: new Map() },
      'lifecycle.delete.policy Orphan',
    );
  } else if (step.kind === 'delete' && ctx.resourcePolicy.paused) {
    ctx.recorder.operation(
      operation(target, present ?? target.desired, 'wait', 'delete held: the resource is paused (no delete while paused)'),
    );
  } else if (step.kind === 'delete') {
    await deleteTarget(ctx, target, step.policy, claimed, heldOfSameKind(ctx, target, targets));
  } else {
    return applyTarget(ctx, target, options.wait, options.replaceUnchanged);
  }
  return true;
}
