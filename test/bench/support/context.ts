/**
 * What `npm run bench` (run.ts) hands each bench module, and the rows of the "Targets" table:
 * every target figure with the ceiling measured in the same run, the ratio, the target and whether it was met.
 */
export type TargetId = 'P1' | 'P2' | 'P3' | 'P4' | 'P5' | 'P6' | 'P7' | 'P8' | 'P9' | 'P10';

export interface TargetRow {
  readonly id: TargetId;
  /** What was measured, e.g. `DELETE → GET 404 p50`. */
  readonly measure: string;
  /** The figure, formatted with its unit. */
  readonly figure: string;
  /** The ceiling measured in the same run, formatted (or `—` when the target has none, e.g. a latency bound). */
  readonly ceiling: string;
  /** figure / ceiling, formatted (or `—`). */
  readonly ratio: string;
  /** The target, e.g. `≤ 150 ms` or `≥ 60 % of bare`. */
  readonly target: string;
  readonly met: boolean;
  /** One line on where the time goes or how the figure was sized (optional). */
  readonly note?: string;
}

export interface BenchContext {
  /** `--quick`: tiny sizes, only checks that the scenario runs (figures are not judged). */
  readonly quick: boolean;
  /** `--profile`: engine children run under `node --cpu-prof`; a missed target prints the top self-time functions. */
  readonly profile: boolean;
  /** A fresh temp folder for this module (deleted after it). */
  readonly dir: string;
  /** Adds a row to the Targets table. */
  target(row: TargetRow): void;
  /** A progress line on stdout (`  [orchestration] …`). */
  log(line: string): void;
}

/** A bench module's default export: returns its Markdown section (own `## ` heading). */
export type BenchModule = (context: BenchContext) => Promise<string>;

/** The Targets table in Markdown. `quick`: the mark column says the sizes are too small to judge. */
export function targetsTable(rows: readonly TargetRow[], quick: boolean): string {
  // By target number (P10 after P9), stable within one: rows keep the order their scenario gave them.
  const sorted = [...rows].sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  const mark = (r: TargetRow) => (quick ? '(quick)' : r.met ? '✅ met' : '❌ not met');
  return [
    '| # | measure | figure | ceiling (same run) | ratio | target | |',
    '|---|---|---:|---:|---:|---|---|',
    ...sorted.map((r) => `| ${r.id} | ${r.measure} | ${r.figure} | ${r.ceiling} | ${r.ratio} | ${r.target} | ${mark(r)} |`),
  ].join('\n');
}
