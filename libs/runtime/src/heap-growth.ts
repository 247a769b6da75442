/**
 * How far V8 lets the JavaScript heap grow between two full garbage collections.
 *
 * Why: after a full collection V8 sets the next one's trigger at the live size times a growing factor it
 * derives from the allocation rate, up to 4 × when the heap limit is large (every 64-bit machine with a
 * few GB). The pages it commits on the way stay in the process's RSS after the garbage on them is gone.
 * Measured on `decom start` deleting 300 clusters × 2 nodepools: ~110 MB live after a full collection,
 * 330-380 MB of heap committed, RSS 450-480 MB; with the factor held at 1.5 the same run commits ~190 MB and
 * stays near 300 MB RSS, at about the same deletion rate (docs/operations.md, "Memory").
 *
 * How: `--heap-growing-percent` is one of the V8 flags read at every full collection (when it recomputes
 * the next trigger), not only at start, so setting it with `v8.setFlagsFromString` as the process starts
 * takes effect. A heap ceiling (`--max-old-space-size`) or the young generation's size
 * (`--max-semi-space-size`) could only be set on node's command line or in `NODE_OPTIONS`. The operator's
 * own flag on node's command line (`execArgv`) wins; Node refuses `--heap-growing-percent` in `NODE_OPTIONS`
 * (exit 9, before any of Decom runs), so that is the only place it can come from.
 */
import { setFlagsFromString } from 'node:v8';

const FLAG = /--heap[-_]growing[-_]percent\b/;

/** The process a growth setting is for: `decom start` (role all), `decom api` or `decom worker`. */
export type HeapGrowthProcess = 'all' | 'api' | 'worker';

/**
 * The growth each command uses when DECOM_HEAP_GROWING_PERCENT is unset. `decom start` holds API, jobs,
 * adapters and the bundled Kubernetes server in one heap, and its RSS after a bulk deletion is the heap's
 * high-water mark: on 1,000 clusters × 2 nodepools (runs side by side, docs/operations.md "Memory") 50 %
 * left 369-370 MB, 20 % 327 MB with old space committed 154 instead of 201 MB, and the deletions took no
 * longer. `decom api` and `decom worker` already stay well under 300 MB at 50 % and keep fewer full collections.
 */
export const DEFAULT_HEAP_GROWING_PERCENT: Readonly<Record<HeapGrowthProcess, number>> = { all: 20, api: 50, worker: 50 };

/** `configured` (DECOM_HEAP_GROWING_PERCENT) when set, else the default of `command` (DEFAULT_HEAP_GROWING_PERCENT). */
export function heapGrowingPercentFor(command: HeapGrowthProcess, configured: number | undefined): number {
  return configured ?? DEFAULT_HEAP_GROWING_PERCENT[command];
}

/**
 * Sets V8's `--heap-growing-percent` to `percent` (`AppConfig.heapGrowingPercent`) unless it is 0 or
 * node's own arguments (`execArgv`) already give the flag.
 * @returns the flag set, or undefined when nothing was changed.
 */
export function applyHeapGrowth(
  percent: number,
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setFlagsFromString,
): string | undefined {
  if (percent <= 0 || execArgv.some((arg) => FLAG.test(arg))) return undefined;
  const flag = `--heap-growing-percent=${percent}`;
  setFlags(flag);
  return flag;
}
