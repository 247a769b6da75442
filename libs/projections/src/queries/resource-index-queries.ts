/**
 * The never-deleted `resource_index` read model: where a resource's events live and its tenancy, also after
 * its hard delete (the stream locator, history, tenant visibility).
 */
import { tenancyContains, type Tenancy } from '@decom/domain';
import type { ResourceIndexRow } from '../resource-view.schema.js';
import type { ReadModelQueries } from '../runner/index.js';

export class ResourceIndexQueries {
  constructor(private readonly db: ReadModelQueries) {}

  /** Where a resource's events live, also after hard delete; undefined for an id never created. */
  async locate(id: string): Promise<ResourceIndexRow | undefined> {
    return (await this.db.query<ResourceIndexRow>(`SELECT * FROM resource_index WHERE id = ?`, [id]))[0];
  }

  /**
   * Is resource `id` (also after hard delete) visible to a caller of tenancy `scope` (null = unscoped)?
   * False for an id never created.
   */
  async visible(id: string, scope: Tenancy | null | undefined): Promise<boolean> {
    const row = await this.locate(id);
    return row !== undefined && tenancyContains(row.tenant ? (JSON.parse(row.tenant) as Tenancy) : null, scope);
  }
}
