import type { ResourceRow } from './resource-view.schema.js';

/**
 * Resources whose presented JSON is kept; the least recently stored is dropped first. About 6 KB each (the
 * row and the text; docs/operations.md): 500 hold 25 pages of 20, ~3 MB.
 */
const MAX_ENTRIES = 500;

interface Entry {
  readonly kind: string;
  /** The row the text was presented from (compared column by column to a freshly read one). */
  readonly row: ResourceRow;
  readonly text: string;
  /** `writeVersion` at which `row` was read; undefined where the store has none. */
  version: number | undefined;
}

/**
 * The JSON text of presented resources (parsing the row's JSON columns, building the object
 * and serialising it again was most of a GET's read-side cost), keyed by id. An entry is the answer for its
 * row exactly, so it is valid for:
 * - the same `writeVersion` (the store saw no read-model write since it was read: no row is read at all), or
 * - a freshly read row equal to it column by column (any store, PostgreSQL included, whoever writes).
 * Presentations that depend on the clock (a deletion past its kind's timeout) are never kept.
 */
export class PresentedJsonCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  /** The kept answer for `id` when nothing was written since it was read (`version` defined and equal). */
  atVersion(id: string, version: number | undefined): { readonly kind: string; readonly text: string } | undefined {
    if (version === undefined) return undefined;
    const entry = this.entries.get(id);
    return entry && entry.version === version ? entry : undefined;
  }

  /**
   * The JSON text for `row` (read at `version`): the kept one when its row is equal, else `present(row)`
   * serialised (and kept unless `cacheable` is false).
   */
  textOf(row: ResourceRow, version: number | undefined, present: (row: ResourceRow) => unknown, cacheable: boolean): string {
    const entry = this.entries.get(row.id);
    if (entry && sameRow(entry.row, row)) {
      entry.version = version;
      return entry.text;
    }
    const text = JSON.stringify(present(row));
    if (!cacheable) {
      if (entry) this.entries.delete(row.id);
      return text;
    }
    // Most recently stored last: Map keeps insertion order.
    this.entries.delete(row.id);
    this.entries.set(row.id, { kind: row.kind, row, text, version });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return text;
  }
}

/** Same columns, same values (rows of `SELECT *` on one table have the same keys). */
function sameRow(a: ResourceRow, b: ResourceRow): boolean {
  const left = a as unknown as Record<string, unknown>;
  const right = b as unknown as Record<string, unknown>;
  for (const key in right) if (left[key] !== right[key]) return false;
  return true;
}
