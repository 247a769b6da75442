/**
 * What a group of metrics is built with: the registry to register on, and the bounded read of a scrape-time
 * source (`DecomMetrics.guarded`: undefined when the source failed or did not answer in time; the gauge then
 * keeps its last values).
 */
import { Gauge, Histogram, type Registry } from 'prom-client';

export interface ScrapeContext {
  readonly registers: Registry[];
  guarded<T>(collector: string, read: () => Promise<T>, key?: string): Promise<T | undefined>;
}

/** A gauge labelled `label`, set at scrape from the rows of `source` (absent: no series). */
export interface ScrapedGauge<T> {
  readonly name: string;
  readonly help: string;
  readonly label: string;
  /** The source attached by now (`watch*`), or undefined before the engine attached one. */
  readonly source: () => (() => Promise<readonly T[]>) | undefined;
  /** The series of the rows: label value → gauge value. */
  readonly series: (rows: readonly T[]) => Iterable<readonly [string, number]>;
}

/**
 * Registers a gauge read from a dependency at scrape time (a database, the job queue): every series is
 * replaced by the source's answer, or kept as it was when the source failed (`guarded`).
 */
export function scrapedGauge<T>(context: ScrapeContext, gauge: ScrapedGauge<T>): Gauge<string> {
  return new Gauge({
    name: gauge.name,
    help: gauge.help,
    labelNames: [gauge.label],
    registers: context.registers,
    async collect() {
      const source = gauge.source();
      if (!source) return this.reset();
      const rows = await context.guarded(gauge.name, source);
      if (!rows) return;
      this.reset();
      for (const [value, count] of gauge.series(rows)) this.set({ [gauge.label]: value }, count);
    },
  });
}

/** A histogram of seconds with `labels`, on the context's registry. */
export function secondsHistogram<L extends string>(
  { registers }: Pick<ScrapeContext, 'registers'>,
  name: string,
  help: string,
  labels: readonly L[],
  buckets: number[],
): Histogram<L> {
  return new Histogram({ name, help, labelNames: labels, buckets, registers });
}
