/**
 * Resolves URL segments to a resource kind/id (contract §1.1 routes): `/{plural}/{id}`,
 * `/{parent plural}/{pid}/{plural}/{id}` (the parent must exist and own the child: 404 against the parent
 * otherwise), and the kind-agnostic `/resources/{id}`.
 */
import { ResourceNotFound, type KindDescriptor, type KindRegistry } from '@decom/domain';
import type { ResourceQueries } from '@decom/projections';
import { Problems } from '../problem-details/problem.js';

export interface ResourceTarget {
  readonly kind: string;
  readonly id: string;
}

export interface CollectionTarget {
  readonly descriptor: KindDescriptor;
  readonly owner?: { readonly id: string; readonly kind: string };
}

export class ResourceTargets {
  constructor(
    private readonly kinds: KindRegistry,
    private readonly queries: ResourceQueries,
  ) {}

  descriptor(plural: string, path: string): KindDescriptor {
    const descriptor = this.kinds.byPluralName(plural);
    if (!descriptor) throw Problems.notFoundEndpoint(path);
    return descriptor;
  }

  /** `/{plural}/{id}` — also flat child routes (`/nodepools/{id}`) and `/resources/{id}`. */
  async single(plural: string, id: string, path: string): Promise<ResourceTarget> {
    if (plural === 'resources') {
      const located = await this.queries.locate(id);
      if (!located || located.hard_deleted_time) throw new ResourceNotFound('Resource', id);
      return { kind: located.kind, id };
    }
    return { kind: this.descriptor(plural, path).kind, id };
  }

  /** `/{parent}/{pid}/{plural}/{id}`: checks the parent exists and owns the child. */
  async nested(parentPlural: string, parentId: string, plural: string, id: string, path: string): Promise<ResourceTarget> {
    const { descriptor } = await this.collection(parentPlural, parentId, plural, path);
    const child = await this.queries.get(id);
    if (!child || child.kind !== descriptor.kind || child.owner_references?.id !== parentId) {
      throw new ResourceNotFound(descriptor.kind, id);
    }
    return { kind: descriptor.kind, id };
  }

  /** `/{parent}/{pid}/{plural}`: the child collection of an existing parent. */
  async collection(parentPlural: string, parentId: string, plural: string, path: string): Promise<CollectionTarget> {
    const parent = this.descriptor(parentPlural, path);
    const descriptor = this.descriptor(plural, path);
    if (descriptor.parent_kind !== parent.kind) throw Problems.notFoundEndpoint(path);
    const owner = await this.queries.get(parentId);
    if (!owner || owner.kind !== parent.kind) throw new ResourceNotFound(parent.kind, parentId);
    return { descriptor, owner: { id: parentId, kind: parent.kind } };
  }
}
