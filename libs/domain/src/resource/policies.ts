/**
 * Deletion policy, pause and references (seeds 003 and 004).
 * - `deletion_policy`: `Delete` (default) cleans up the adapters' objects; `Orphan` leaves them in place and
 *   only removes Decom's ownership marks. A child without its own policy inherits the deleting ancestor's.
 *   When sources disagree the non-destructive one wins (`Orphan`): docs/policies.md.
 * - Pause: a paused resource, or one under a paused ancestor, runs no destroy (seed 004 "Pause stops a deletion").
 * - References: a live (not deleting) resource that references another blocks its DELETE (seed 004 guard).
 */
import type { ResourceState, TreeState } from './resource.state.js';
import type { DeletionPolicy, DeletionPolicySource, EffectiveDeletionPolicy } from './deletion-policy.js';

export type { DeletionPolicy, DeletionPolicySource, EffectiveDeletionPolicy } from './deletion-policy.js';
export type { ObjectReference, References } from './references.js';
export type { OperatorMark } from './operator-mark.js';

export const DELETION_POLICIES: readonly DeletionPolicy[] = ['Delete', 'Orphan'];
export const DEFAULT_DELETION_POLICY: DeletionPolicy = 'Delete';

/** The ancestors of `resource` in the tree, nearest first. */
export function ancestorsOf(tree: TreeState, resource: ResourceState): ResourceState[] {
  const out: ResourceState[] = [];
  let owner = resource.owner_references ? tree.resources.get(resource.owner_references.id) : undefined;
  while (owner) {
    out.push(owner);
    owner = owner.owner_references ? tree.resources.get(owner.owner_references.id) : undefined;
  }
  return out;
}

/** The resource that makes `resource` paused: itself or the nearest paused ancestor; undefined when not paused. */
export function pausedBy(tree: TreeState, resource: ResourceState): ResourceState | undefined {
  return [resource, ...ancestorsOf(tree, resource)].find((r) => r.paused !== undefined);
}

/**
 * The policy a deletion of `resource` runs with: `Orphan` when it or an ancestor was force-orphaned; else its
 * own declared policy; else the nearest ancestor's declared policy ("cascades unless they say otherwise");
 * else `Delete`.
 */
export function effectiveDeletionPolicy(tree: TreeState, resource: ResourceState): DeletionPolicy {
  return effectiveDeletionPolicyWithSource(tree, resource).policy;
}

/** `effectiveDeletionPolicy` with its source (same precedence; see docs/policies.md). */
export function effectiveDeletionPolicyWithSource(tree: TreeState, resource: ResourceState): EffectiveDeletionPolicy {
  return resolveDeletionPolicy([resource, ...ancestorsOf(tree, resource)]);
}

/** The precedence over a lineage (the resource first, then its ancestors nearest first). */
export function resolveDeletionPolicy(
  lineage: readonly {
    readonly id: string;
    readonly kind: string;
    readonly deletion_policy?: DeletionPolicy | undefined;
    readonly force_orphan?: unknown;
  }[],
): EffectiveDeletionPolicy {
  // The break-glass on the resource or any ancestor beats every declared policy.
  const broken = lineage.find((r) => r.force_orphan);
  if (broken) return { policy: 'Orphan', source: `force-orphan on ${broken.kind}/${broken.id}` };
  const declared = lineage.find((r) => r.deletion_policy !== undefined);
  if (!declared) return { policy: DEFAULT_DELETION_POLICY, source: 'default' };
  return { policy: declared.deletion_policy!, source: declared === lineage[0] ? 'own' : `inherited from ${declared.kind}/${declared.id}` };
}
