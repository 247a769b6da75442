/** The job queues: depth, running and dead-lettered jobs and consumers (at scrape), retries, dead letters, prunes. */
import { Counter } from 'prom-client';
import { scrapedGauge, type ScrapeContext } from './scrape-context.js';

export interface QueueDepth {
  readonly queue: string;
  readonly waiting: number;
  readonly delayed: number;
  readonly active: number;
  /** Dead letters (failed set). */
  readonly failed: number;
}

/** How many processes consume one queue (`decom_queue_workers`); 0 for a known queue nothing consumes. */
export interface QueueWorkers {
  readonly queue: string;
  readonly workers: number;
}

export function queueMetrics(
  context: ScrapeContext,
  depths: () => (() => Promise<readonly QueueDepth[]>) | undefined,
  workers: () => (() => Promise<readonly QueueWorkers[]>) | undefined,
) {
  const { registers } = context;
  // The queue may be unreachable (Redis down): these gauges keep their last values (scrapedGauge).
  const depthGauge = (name: string, help: string, pick: (d: QueueDepth) => number) =>
    scrapedGauge(context, { name, help, label: 'queue', source: depths, series: (rows) => rows.map((d) => [d.queue, pick(d)] as const) });
  depthGauge('decom_queue_depth', 'Jobs waiting or delayed, by queue (computed at scrape).', (d) => d.waiting + d.delayed);
  scrapedGauge(context, {
    name: 'decom_queue_workers',
    help: 'Worker connections consuming each queue, in any process (0: nothing runs its jobs; computed at scrape).',
    label: 'queue',
    source: workers,
    series: (rows) => rows.map((count) => [count.queue, count.workers] as const),
  });
  depthGauge('decom_queue_active', 'Jobs running, by queue (computed at scrape).', (d) => d.active);
  depthGauge('decom_queue_dead_letters', 'Jobs in the dead-letter (failed) set, by queue (computed at scrape).', (d) => d.failed);
  const jobRetries = new Counter({
    name: 'decom_job_retries_total',
    help: 'Job tries after the first (retries), by queue.',
    labelNames: ['queue'],
    registers,
  });
  const deadLettered = new Counter({
    name: 'decom_jobs_dead_lettered_total',
    help: 'Jobs that failed for good in this process (dead-lettered), by queue.',
    labelNames: ['queue'],
    registers,
  });
  const deadLettersPruned = new Counter({
    name: 'decom_dead_letters_pruned_total',
    help: 'Dead letters removed by this process because their work was done since (HardDeleted, Superseded, Reconciled), by queue and reason.',
    labelNames: ['queue', 'reason'],
    registers,
  });
  return { jobRetries, deadLettered, deadLettersPruned };
}
