/** What a kind's deletion budget has used, from the `deletion_requests` read model (deletion-budget.ts). */
import type { ReadModelQueries } from '../runner/index.js';

/** Counts for one kind and tenancy; `oldest_in_last_hour` RFC 3339, `tenant` the tenancy key (absent when unscoped). */
export interface DeletionBudgetUse {
  readonly in_flight: number;
  readonly in_last_hour: number;
  readonly oldest_in_last_hour?: string;
  readonly tenant?: string;
}

export class DeletionBudgetQueries {
  constructor(private readonly db: ReadModelQueries) {}

  /**
   * What the deletion budget of `kind` has used for the tenancy of resource `id` (deletion-budget.ts): top-level
   * deletions still Finalizing, and those requested since `since` (RFC 3339) with the oldest of them. Counted from
   * `deletion_requests` (every DELETE's target) joined with the stored resources.
   */
  async deletionBudgetUse(kind: string, id: string, since: string): Promise<DeletionBudgetUse> {
    const tenant = (await this.db.query<{ tenant: string | null }>(`SELECT tenant FROM resources WHERE id = ?`, [id]))[0]?.tenant ?? '';
    const inFlight = await this.db.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM deletion_requests d JOIN resources r ON r.id = d.id WHERE d.kind = ? AND d.tenant = ? AND r.deleted_time IS NOT NULL`,
      [kind, tenant],
    );
    const recent = await this.db.query<{ n: number | string; oldest: string | null }>(
      `SELECT COUNT(*) AS n, MIN(deleted_time) AS oldest FROM deletion_requests WHERE kind = ? AND tenant = ? AND deleted_time > ?`,
      [kind, tenant, since],
    );
    const oldest = recent[0]?.oldest;
    return {
      in_flight: Number(inFlight[0]?.n ?? 0),
      in_last_hour: Number(recent[0]?.n ?? 0),
      ...(oldest ? { oldest_in_last_hour: oldest } : {}),
      ...(tenant ? { tenant } : {}),
    };
  }
}
