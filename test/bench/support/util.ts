/** Small helpers the bench scenarios share: bounded parallelism, polling, percentiles, number formatting. */
import { loadavg } from 'node:os';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs `work` over `items` with at most `limit` at once; the first failure rejects (the others finish their item). */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length && failed === undefined) {
        const index = next++;
        try {
          await work(items[index]!, index);
        } catch (error) {
          failed ??= error;
        }
      }
    }),
  );
  if (failed !== undefined) throw failed;
}

/** Polls `probe` every `intervalMs` until true. @throws Error naming `what` after `timeoutMs`. */
export async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number, intervalMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** Nearest-rank percentile of an ascending array (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** `12,345` / `12.3` with thousands separators. */
export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a';

export const pct = (ratio: number) => (Number.isFinite(ratio) ? `${Math.round(ratio * 100)} %` : 'n/a');

export const mb = (bytes: number) => `${fmt(bytes / 2 ** 20)} MB`;

/** `1.23, 0.98, 0.75` (1, 5, 15 minutes). */
export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** Seconds since `startedMs` (performance.now()). */
export const secondsSince = (startedMs: number) => (performance.now() - startedMs) / 1000;
