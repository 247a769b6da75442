/** Which adapters a resource's `Reconciled` and hard-delete gate wait for. */
import type { KindRegistry } from './kinds.js';
import { isFinalizing, type ResourceState } from './resource.state.js';

/**
 * The adapters whose `Finalized=True` a deleting resource waits for: the set frozen at `DeletionRequested`,
 * or the kind's current set for deletions recorded before it was frozen (and while not deleting).
 */
export function requiredAdaptersOf(resource: ResourceState, kinds: KindRegistry): readonly string[] {
  if (isFinalizing(resource) && resource.deletion_required_adapters) return resource.deletion_required_adapters;
  return kinds.find(resource.kind)?.required_adapters ?? [];
}
