/**
 * The request log and the change log are for looking back (tests, the demo's timeline, investigating an
 * embedded engine). A long-running `decom start` must not grow them forever, so each keeps at
 * most `limit` entries, dropping the oldest. Trimming happens once the array is 10 % over the limit, so the
 * `splice` cost is amortised over many appends instead of paid on each. A limit of 0 keeps nothing (`decom start`,
 * which never reads them back).
 */
export function appendBounded<T>(entries: T[], entry: T, limit: number): void {
  if (limit <= 0) return;
  entries.push(entry);
  if (entries.length > limit + Math.max(1, Math.floor(limit / 10))) entries.splice(0, entries.length - limit);
}
