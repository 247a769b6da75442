/** One resource's adapter statuses from the `adapter_statuses` read model (`GET .../statuses`). */
import type { AdapterStatus } from '@decom/domain';
import { toAdapterStatus } from '../adapter-status-row.js';
import type { AdapterStatusRow } from '../resource-view.schema.js';
import type { ReadModelQueries } from '../runner/index.js';
import { searchCondition, STATUS_SEARCH } from '../search/index.js';
import type { Page } from './page.js';

export class AdapterStatusQueries {
  constructor(private readonly db: ReadModelQueries) {}

  /**
   * One resource's adapter statuses, by adapter name; `page` 1-based, `size` items per page.
   * @param search TSL over STATUS_SEARCH fields. @throws SearchSyntaxError, SearchFieldError
   */
  async statuses(resourceId: string, page = 1, size = 100, search?: string): Promise<Page<AdapterStatus>> {
    const condition = searchCondition(search, STATUS_SEARCH, this.db.dialect ?? 'sqlite');
    const where = condition ? `resource_id = ? AND ${condition.sql}` : 'resource_id = ?';
    const params = [resourceId, ...(condition?.params ?? [])];
    const total = Number(
      (await this.db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM adapter_statuses WHERE ${where}`, params))[0]?.n ?? 0,
    );
    const rows = await this.db.query<AdapterStatusRow>(
      `SELECT * FROM adapter_statuses WHERE ${where} ORDER BY adapter ASC LIMIT ? OFFSET ?`,
      [...params, size, (page - 1) * size],
    );
    return { page, size: rows.length, total, items: rows.map(toAdapterStatus) };
  }
}
