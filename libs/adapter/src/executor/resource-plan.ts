import type { PropagationPolicy } from '../config/task-config.types.js';
import { generationOf } from '../transport/newest-generation.js';
import type { KubeObject } from '../transport/resource-transport.port.js';
import type { Evaluation } from './execution-context.js';

/** What to do with one resource this pass, decided before touching the cluster. */
export type ResourceStep =
  /** A lifecycle `when` could not be evaluated: neither apply nor delete (Decom; HyperFleet would apply). */
  | { readonly kind: 'blocked'; readonly reason: string }
  /** `lifecycle.create.when` was false for an absent object. */
  | { readonly kind: 'create-skipped'; readonly reason: string }
  /** `lifecycle.delete.when` was true; `present` = discovered object to delete, if any. */
  | { readonly kind: 'delete'; readonly policy: PropagationPolicy; readonly present?: KubeObject }
  | { readonly kind: 'apply' };

export interface ResourceStepInput {
  readonly name: string;
  /** Object found by discovery (pre-discovery when lifecycle is used), if any. */
  readonly present?: KubeObject;
  readonly deleteWhen?: Evaluation;
  readonly createWhen?: Evaluation;
  readonly propagationPolicy: PropagationPolicy;
}

function asBoolean(evaluation: Evaluation, what: string): { value: boolean } | { reason: string } {
  if (!evaluation.ok) return { reason: `${what} could not be evaluated: ${evaluation.error}` };
  if (typeof evaluation.value !== 'boolean') return { reason: `${what} must be a bool, got ${JSON.stringify(evaluation.value)}` };
  return { value: evaluation.value };
}

/**
 * Decides a resource's step from its lifecycle `when` results and discovered state (pure).
 * `delete.when` is consulted first: when it holds, the object goes (or is already gone) whatever
 * `create.when` says, so a deleting adapter never reports "skipped" for an absent object.
 * `create.when` only matters for an absent object (as in HyperFleet). A `when` that errors or is not a bool
 * blocks the resource (Decom; HyperFleet would fall through to apply).
 * @see seeds/000 "Executor Behavior Change", HyperFleet: hyperfleet-adapter internal/executor/resource_executor.go.
 */
export function decideResourceStep(input: ResourceStepInput): ResourceStep {
  if (input.deleteWhen) {
    const verdict = asBoolean(input.deleteWhen, 'lifecycle.delete.when');
    if ('reason' in verdict) return { kind: 'blocked', reason: verdict.reason };
    if (verdict.value) return { kind: 'delete', policy: input.propagationPolicy, ...(input.present && { present: input.present }) };
  }
  if (input.createWhen && !input.present) {
    const verdict = asBoolean(input.createWhen, 'lifecycle.create.when');
    if ('reason' in verdict) return { kind: 'blocked', reason: verdict.reason };
    if (!verdict.value) return { kind: 'create-skipped', reason: `${input.name}: lifecycle.create.when condition evaluated to false` };
  }
  return { kind: 'apply' };
}

/** How to apply a rendered manifest given the object currently stored under its name. */
export interface ApplyDecision {
  readonly operation: 'create' | 'update' | 'recreate' | 'skip';
  readonly reason: string;
}

/**
 * Create when absent; otherwise compare `hyperfleet.io/generation` (missing = 0): equal → skip,
 * different → update (full replace), or recreate with `recreate_on_change`. No spec diff, as in HyperFleet.
 * `replaceUnchanged`: HyperFleet's dry-run recording client, which compares no generation: a present
 * object is always updated (recreated with `recreate_on_change`).
 */
export function decideApply(
  desired: KubeObject,
  existing: KubeObject | undefined,
  recreateOnChange: boolean,
  replaceUnchanged = false,
): ApplyDecision {
  if (!existing) return { operation: 'create', reason: 'resource not found' };
  const before = generationOf(existing);
  const after = generationOf(desired);
  if (before === after && replaceUnchanged)
    return {
      operation: recreateOnChange ? 'recreate' : 'update',
      reason: `generation ${after} unchanged; dry run replaces every present object`,
    };
  if (before === after) return { operation: 'skip', reason: `generation ${after} unchanged` };
  return { operation: recreateOnChange ? 'recreate' : 'update', reason: `generation changed ${before}->${after}` };
}
