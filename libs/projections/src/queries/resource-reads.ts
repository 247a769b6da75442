/**
 * Single resources from the `resources` read model: by id (object or JSON text), by name, and keyset pages
 * for the sweeper. Never-deleted facts (`resource_index`) are ResourceIndexQueries'.
 */
import { tenancyKey, type Tenancy } from '@decom/domain';
import type { ResourceJson } from '../resource-presenter.js';
import type { ResourceRow } from '../resource-view.schema.js';
import type { ReadModelQueries } from '../runner/index.js';
import type { PresentedResources } from './presented-resources.js';

/** Where a keyset walk over resources stands: the last item seen (ResourceJson has both fields). */
export interface KeysetCursor {
  readonly created_time: string;
  readonly id: string;
}

export class ResourceReads {
  constructor(
    private readonly db: ReadModelQueries,
    private readonly presented: PresentedResources,
  ) {}

  /** The presented resource; undefined when it does not exist (never created, or hard-deleted). */
  async get(id: string): Promise<ResourceJson | undefined> {
    const row = (await this.db.query<ResourceRow>(`SELECT * FROM resources WHERE id = ?`, [id]))[0];
    return row ? this.presented.present(row) : undefined;
  }

  /**
   * `get(id)` as JSON text (exactly `JSON.stringify(await get(id))`) with the resource's kind, from the
   * presented-JSON cache when the row did not change; undefined when there is no such resource.
   */
  async getJson(id: string): Promise<{ readonly kind: string; readonly text: string } | undefined> {
    const version = this.db.writeVersion?.();
    const kept = this.presented.kept(id, version);
    if (kept) return kept;
    const row = (await this.db.query<ResourceRow>(`SELECT * FROM resources WHERE id = ?`, [id]))[0];
    return row ? { kind: row.kind, text: this.presented.textOf(row, version) } : undefined;
  }

  /**
   * `getJson(id)` without a query or a promise, when its answer is kept and nothing was written since
   * (the hot GET answers from here); undefined otherwise (then use `getJson`, which also
   * answers for resources that do not exist).
   */
  keptJson(id: string): { readonly kind: string; readonly text: string } | undefined {
    return this.presented.kept(id, this.db.writeVersion?.());
  }

  /**
   * A stored resource of `kind` named `name` under `ownerId` (top level when undefined); top-level names
   * are unique per tenant, so with `tenant` only a resource of exactly that tenancy counts.
   */
  async findByName(kind: string, name: string, ownerId?: string, tenant?: Tenancy | null): Promise<ResourceJson | undefined> {
    const rows = await this.db.query<ResourceRow>(
      ownerId === undefined
        ? `SELECT * FROM resources WHERE kind = ? AND name = ? AND owner_id IS NULL`
        : `SELECT * FROM resources WHERE kind = ? AND name = ? AND owner_id = ?`,
      ownerId === undefined ? [kind, name] : [kind, name, ownerId],
    );
    const key = tenancyKey(tenant);
    const row = ownerId === undefined ? rows.find((r) => tenancyKey(r.tenant ? (JSON.parse(r.tenant) as Tenancy) : null) === key) : rows[0];
    return row ? this.presented.present(row) : undefined;
  }

  /**
   * Up to `size` resources of `kind` in (created_time, id) order, oldest first, strictly after `after`
   * (from the start when absent): a keyset page, O(size) at any depth (index resources_kind_created_id).
   * A walk that passes each page's last item as the next `after` sees every resource that exists for the
   * whole walk exactly once; one created meanwhile sorts after the cursor (a later created_time) and is
   * seen too, one hard-deleted meanwhile may or may not be.
   */
  async pageAfter(options: { readonly kind: string; readonly size: number; readonly after?: KeysetCursor }): Promise<ResourceJson[]> {
    const rows = options.after
      ? await this.db.query<ResourceRow>(
          `SELECT * FROM resources WHERE kind = ? AND (created_time > ? OR (created_time = ? AND id > ?)) ORDER BY created_time ASC, id ASC LIMIT ?`,
          [options.kind, options.after.created_time, options.after.created_time, options.after.id, options.size],
        )
      : await this.db.query<ResourceRow>(`SELECT * FROM resources WHERE kind = ? ORDER BY created_time ASC, id ASC LIMIT ?`, [
          options.kind,
          options.size,
        ]);
    return rows.map((row) => this.presented.present(row));
  }
}
