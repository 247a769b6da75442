/**
 * Addresses for dispatch: `href` and `owner_references` of a resource, from the never-deleted
 * `resource_index` (so it also works for a resource that is being deleted).
 */
import type { KindRegistry } from '@decom/domain';
import { API_BASE_PATH, type ResourceJson, type ResourceQueries } from '@decom/projections';
import type { ReconcileEventData } from './job-names.js';

export class ResourceAddressBook {
  constructor(
    private readonly kinds: KindRegistry,
    private readonly queries: ResourceQueries,
  ) {}

  async href(kind: string, id: string): Promise<string> {
    const descriptor = this.kinds.get(kind);
    if (!descriptor.parent_kind) return `${API_BASE_PATH}/${descriptor.plural}/${id}`;
    const located = await this.queries.locate(id);
    if (!located?.owner_id) return `${API_BASE_PATH}/${descriptor.plural}/${id}`;
    return `${await this.href(descriptor.parent_kind, located.owner_id)}/${descriptor.plural}/${id}`;
  }

  async address(kind: string, id: string): Promise<Omit<ReconcileEventData, 'generation'>> {
    const href = await this.href(kind, id);
    const descriptor = this.kinds.get(kind);
    if (!descriptor.parent_kind) return { id, kind, href };
    const located = await this.queries.locate(id);
    if (!located?.owner_id) return { id, kind, href };
    return {
      id,
      kind,
      href,
      owner_references: {
        id: located.owner_id,
        kind: descriptor.parent_kind,
        href: await this.href(descriptor.parent_kind, located.owner_id),
      },
    };
  }

  /** The stored resource and its stored descendants (deepest first, so children's gates are checked first). */
  async subtree(kind: string, id: string): Promise<{ id: string; kind: string; generation: number }[]> {
    const root = await this.queries.get(id);
    if (!root) return [];
    const out = [{ id, kind, generation: root.generation }];
    for (const childKind of this.kinds.childKindsOf(kind)) {
      const children = await this.queries.list({ kind: childKind.kind, ownerId: id, page: 1, size: 100 });
      for (const child of children.items) out.unshift(...(await this.subtree(child.kind, child.id)));
    }
    return out;
  }

  /** The resource as the API shows it (conditions, frozen adapters, propagation), or undefined when gone. */
  view(id: string): Promise<ResourceJson | undefined> {
    return this.queries.get(id);
  }

  /** Stored ancestors of a resource, nearest first, from the resource index. */
  async ancestors(kind: string, id: string): Promise<{ kind: string; id: string }[]> {
    const out: { kind: string; id: string }[] = [];
    let current = { kind, id };
    for (;;) {
      const descriptor = this.kinds.find(current.kind);
      if (!descriptor?.parent_kind) return out;
      const located = await this.queries.locate(current.id);
      if (!located?.owner_id) return out;
      current = { kind: descriptor.parent_kind, id: located.owner_id };
      out.push(current);
    }
  }

  /** The top-level ancestor of a resource (itself when top-level), from the resource index. */
  async root(kind: string, id: string): Promise<{ kind: string; id: string }> {
    let current = { kind, id };
    for (;;) {
      const descriptor = this.kinds.get(current.kind);
      if (!descriptor.parent_kind) return current;
      const located = await this.queries.locate(current.id);
      if (!located?.owner_id) return current;
      current = { kind: descriptor.parent_kind, id: located.owner_id };
    }
  }
}
