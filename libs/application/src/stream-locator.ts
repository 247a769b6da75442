/**
 * Finds the tree stream a resource lives in. A top-level resource roots its own stream; a child lives in
 * its root ancestor's stream, found through the never-deleted `resource_index` read model.
 */
import { ResourceNotFound, treeStreamName, type KindRegistry } from '@decom/domain';

/**
 * Where a resource's records live, as the never-deleted resource index says (the projections' `ResourceQueries`
 * is one): `undefined` when the id was never created.
 */
export interface ResourceIndex {
  locate(id: string): Promise<{ readonly kind: string; readonly stream: string } | undefined>;
}

export class StreamLocator {
  constructor(
    private readonly kinds: KindRegistry,
    private readonly index: ResourceIndex,
  ) {}

  /** Stream of a new resource: its own for a top-level kind, else its parent's. @throws ResourceNotFound (parent). */
  async forNew(kind: string, id: string, owner?: { id: string; kind: string }): Promise<string> {
    const descriptor = this.kinds.get(kind);
    if (!descriptor.parent_kind || !owner) return treeStreamName(kind, id);
    return this.forExisting(owner.kind, owner.id);
  }

  /** @throws ResourceNotFound when the id was never created. */
  async forExisting(kind: string, id: string): Promise<string> {
    if (!this.kinds.find(kind)?.parent_kind) return treeStreamName(kind, id);
    const located = await this.index.locate(id);
    if (!located || located.kind !== kind) throw new ResourceNotFound(kind, id);
    return located.stream;
  }
}
