/**
 * Resolves URL segments to a resource kind/id (HyperFleet's routes): `/{plural}/{id}`,
 * `/{parent plural}/{pid}/{plural}/{id}` (the parent must exist and own the child: 404 against the parent
 * otherwise), and the kind-agnostic `/resources/{id}`. With a tenant `scope` (HyperFleet's tenancy), a resource
 * whose tenancy does not contain it answers 404 like one that does not exist.
 */
import { ResourceNotFound, type KindDescriptor, type KindRegistry, type Tenancy } from '@decom/domain';
import type { ResourceQueries } from '@decom/projections';
import { Problems } from '../problem-details/problem.js';

export interface ResourceTarget {
  readonly kind: string;
  readonly id: string;
}

/**
 * The path parameters of a one-resource route: `/{plural}/{id}...`, or nested `/{plural}/{pid}/{childPlural}/{id}...`
 * where `plural` names the parent kind and `childPlural` the resource's.
 */
export interface ResourceRouteParams {
  readonly plural: string;
  readonly id: string;
  readonly pid?: string;
  readonly childPlural?: string;
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

  /**
   * The resource a one-resource route names: `nested` when the route names a parent (`pid`), else `single`.
   * @throws as `single` and `nested` do (404 endpoint for an unknown plural, ResourceNotFound)
   */
  of(route: ResourceRouteParams, path: string, scope: Tenancy | null): Promise<ResourceTarget> {
    const { plural, id, pid, childPlural } = route;
    return pid !== undefined && childPlural !== undefined
      ? this.nested(plural, pid, childPlural, id, path, scope)
      : this.single(plural, id, path, scope);
  }

  /** `/{plural}/{id}` — also flat child routes (`/nodepools/{id}`) and `/resources/{id}`. */
  async single(plural: string, id: string, path: string, scope: Tenancy | null): Promise<ResourceTarget> {
    if (plural === 'resources') {
      const located = await this.queries.locate(id);
      if (!located || located.hard_deleted_time || !(await this.queries.visible(id, scope))) throw new ResourceNotFound('Resource', id);
      return { kind: located.kind, id };
    }
    const kind = this.descriptor(plural, path).kind;
    if (scope && !(await this.queries.visible(id, scope))) throw new ResourceNotFound(kind, id);
    return { kind, id };
  }

  /** `/{parent}/{pid}/{plural}/{id}`: checks the parent exists and owns the child. */
  async nested(
    parentPlural: string,
    parentId: string,
    plural: string,
    id: string,
    path: string,
    scope: Tenancy | null,
  ): Promise<ResourceTarget> {
    const { descriptor } = await this.collection(parentPlural, parentId, plural, path, scope);
    const child = await this.queries.get(id);
    if (!child || child.kind !== descriptor.kind || child.owner_references?.id !== parentId) {
      throw new ResourceNotFound(descriptor.kind, id);
    }
    return { kind: descriptor.kind, id };
  }

  /** `/{parent}/{pid}/{plural}`: the child collection of an existing parent. */
  async collection(parentPlural: string, parentId: string, plural: string, path: string, scope: Tenancy | null): Promise<CollectionTarget> {
    const parent = this.descriptor(parentPlural, path);
    const descriptor = this.descriptor(plural, path);
    if (descriptor.parent_kind !== parent.kind) throw Problems.notFoundEndpoint(path);
    const owner = await this.queries.get(parentId);
    // A child inherits its parent's tenancy, so the parent's visibility decides the children's.
    if (!owner || owner.kind !== parent.kind || !(await this.queries.visible(parentId, scope)))
      throw new ResourceNotFound(parent.kind, parentId);
    return { descriptor, owner: { id: parentId, kind: parent.kind } };
  }
}
