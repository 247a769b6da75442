/**
 * What the DELETE guard weighs of a referrer (seed 004 "Delete guard": a live referrer blocks, a paused one
 * lets `delete-for-move` through; issue "one deletion truth": a deleting referrer no longer blocks but is
 * waited for): read from the referrer's own tree, by the same rules every other reader uses (`pausedBy`,
 * `isFinalizing`). The reference index only says who references whom; never whether someone is paused.
 */
import { pausedBy } from './policies.js';
import type { ReferenceEdge } from './resource.commands.js';
import { isFinalizing, type TreeState } from './resource.state.js';

/**
 * The edge `referrerId → targetId` with the referrer's facts from `tree` (the tree that holds the referrer).
 * @returns undefined when `tree` does not hold the referrer (hard-deleted since the index was read).
 */
export function referenceEdgeFrom(tree: TreeState, referrerId: string, targetId: string): ReferenceEdge | undefined {
  const referrer = tree.resources.get(referrerId);
  if (!referrer) return undefined;
  return {
    id: referrer.id,
    kind: referrer.kind,
    name: referrer.name,
    paused: pausedBy(tree, referrer) !== undefined,
    target_id: targetId,
    deleting: isFinalizing(referrer),
  };
}
