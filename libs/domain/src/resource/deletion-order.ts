/**
 * Deletion order across the tree (seed 004 "The order", "The cluster waits for its machines";
 * seed 000 "Subresource Deletion" for the parallel kind). Pure.
 *
 * - Propagation, as Kubernetes names it: `Foreground` — a resource's adapters are not dispatched until every
 *   descendant is hard-deleted (seed 004); `Background` — resource- and subresource-level adapters clean up
 *   in parallel (seed 000, HyperFleet's behaviour when nothing is configured); only the hard delete is
 *   bottom-up. A parent's destroy may then take a child's objects away (docs/policies.md).
 * - Users before what they use: a deleting resource referenced by any stored resource (live or deleting,
 *   in the same cascade or not) waits, `InUse`, until its referrers are hard-deleted.
 * - Waiting can form a cycle (A uses B, B uses A, both deleting): `DependencyCycle`, members in order.
 */
export type PropagationPolicy = 'Foreground' | 'Background';
export const PROPAGATION_POLICIES: readonly PropagationPolicy[] = ['Foreground', 'Background'];
export const DEFAULT_PROPAGATION_POLICY: PropagationPolicy = 'Background';

export function isPropagationPolicy(value: unknown): value is PropagationPolicy {
  return typeof value === 'string' && (PROPAGATION_POLICIES as readonly string[]).includes(value);
}

/** Why a deleting resource's adapters are held back (reasons of `DeletionBlocked=True`, see conditions.ts). */
export type DeletionBlockerReason = 'DependencyCycle' | 'DependentsExist' | 'InUse';

/** One thing a deleting resource waits on before its adapters may be dispatched. `ids` in order. */
export interface DeletionBlocker {
  readonly reason: DeletionBlockerReason;
  /** DependentsExist: the stored descendants; InUse: the referrers; DependencyCycle: the members, in order (first repeated last). */
  readonly ids: readonly string[];
}

/**
 * One line per blocker: `2 dependent resource(s) must be deleted first (Foreground): [a, b]`. Dependents
 * are in the resource's own tree (its tenancy), so they are named; referrers and cycle members may live in
 * a tenancy some readers of this shared condition cannot see (as HyperFleet scopes tenancy), so they are only counted:
 * the finalizing blockers (`InUse.referrers`) and the DELETE's 409 name those the caller may see.
 */
export function describeBlocker(blocker: DeletionBlocker): string {
  switch (blocker.reason) {
    case 'DependencyCycle':
      return `dependency cycle through ${blocker.ids.length - 1} resource(s); no member can be deleted before another (force-delete one member to break it: a deleting resource's references cannot be changed; a DELETE's 409 names the members you may see)`;
    case 'DependentsExist':
      return `${blocker.ids.length} dependent resource(s) must be hard-deleted first (propagationPolicy Foreground): [${blocker.ids.join(', ')}]`;
    case 'InUse':
      return `in use by ${blocker.ids.length} resource(s) that must be hard-deleted first (GET /api/decom/v1/finalizing names those you may see)`;
  }
}

/**
 * The wait graph: `waitsFor(x)` lists what x waits on (its Foreground descendants and its referrers), for
 * deleting resources only (a live resource waits on nothing). Returns the cycle through `start` in order
 * (`[start, ..., start]`), or undefined. Bounded: at most `maxNodes` resources are visited.
 */
export function findWaitCycle(start: string, waitsFor: (id: string) => readonly string[], maxNodes = 500): string[] | undefined {
  const visited = new Set<string>();
  // Depth-first with an explicit path, so the cycle comes out in order.
  const path: string[] = [start];
  const walk = (id: string): string[] | undefined => {
    for (const next of waitsFor(id)) {
      if (next === start) return [...path, start];
      if (visited.has(next) || visited.size >= maxNodes) continue;
      visited.add(next);
      path.push(next);
      const found = walk(next);
      if (found) return found;
      path.pop();
    }
    return undefined;
  };
  return walk(start);
}
