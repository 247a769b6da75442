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
  /**
   * `catchUp`: resolves once the index has applied every event committed before the call (`ReadSide.catchUp`).
   * A child the index does not know is looked up again after it: the index may lag behind the log (a restart
   * applying its backlog, a create another process just recorded), and a miss would answer 404 for a
   * resource that exists.
   */
  constructor(
    private readonly kinds: KindRegistry,
    private readonly index: ResourceIndex,
    private readonly catchUp?: () => Promise<void>,
  ) {}

  /** Stream of a new resource: its own for a top-level kind, else its parent's. @throws ResourceNotFound (parent). */
  async forNew(kind: string, id: string, owner?: { id: string; kind: string }): Promise<string> {
    const descriptor = this.kinds.get(kind);
    if (!descriptor.parent_kind || !owner) return treeStreamName(kind, id);
    return this.forExisting(owner.kind, owner.id);
  }

  /**
   * @throws ResourceNotFound when the id was never created.
   * @throws whatever `catchUp` throws (`ProjectionWaitTimeout`: the index is too far behind to confirm a miss now).
   */
  async forExisting(kind: string, id: string): Promise<string> {
    if (!this.kinds.find(kind)?.parent_kind) return treeStreamName(kind, id);
    let located = await this.index.locate(id);
    if (!located && this.catchUp) {
      await this.catchUp();
      located = await this.index.locate(id);
    }
    if (!located || located.kind !== kind) throw new ResourceNotFound(kind, id);
    return located.stream;
  }
}
