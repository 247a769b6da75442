import type { ReadModelQueries } from './runner/index.js';

/** Distinct (SQL, parameters) totals kept; the oldest is dropped first. */
const MAX_ENTRIES = 256;

/**
 * `SELECT COUNT(*) AS n ...` results kept until the read models change (HyperFleet lists return
 * `total`, and COUNT(*) costs one step per matching row on every page request). Valid only where the store
 * has a `writeVersion` (it sees every write: the embedded SQLite file); elsewhere every call counts.
 * The version is read before the count runs: a write landing in between stores the entry under a version
 * already past, so it is never served (a recount), never a stale total.
 */
export class CountCache {
  private readonly entries = new Map<string, { readonly version: number; readonly total: number }>();

  constructor(private readonly db: ReadModelQueries) {}

  /** The `n` column of `sql` (a COUNT query) as a number. */
  async count(sql: string, params: readonly unknown[]): Promise<number> {
    const version = this.db.writeVersion?.();
    const key = version === undefined ? undefined : JSON.stringify([sql, params]);
    const hit = key === undefined ? undefined : this.hit(key, version);
    if (hit !== undefined) return hit;
    const total = Number((await this.db.query<{ n: number | string }>(sql, params))[0]?.n ?? 0);
    if (key !== undefined && version !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, { version, total });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return total;
  }

  /** The kept total of `sql` when nothing was written since it was counted; undefined otherwise (no query). */
  kept(sql: string, params: readonly unknown[]): number | undefined {
    const version = this.db.writeVersion?.();
    return version === undefined ? undefined : this.hit(JSON.stringify([sql, params]), version);
  }

  private hit(key: string, version: number | undefined): number | undefined {
    const hit = this.entries.get(key);
    if (!hit || hit.version !== version) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.total;
  }
}
