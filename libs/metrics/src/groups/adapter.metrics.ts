/**
 * Adapter runs (by adapter, operation, outcome, with their duration), the deletions an adapter has in progress,
 * runs a Kubernetes watch triggered, and whether those watches run.
 */
import { Counter, Gauge } from 'prom-client';
import { secondsHistogram, type ScrapeContext } from './scrape-context.js';

/** One adapter run, in seconds. */
export const ADAPTER_RUN_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function adapterMetrics(
  { registers }: Pick<ScrapeContext, 'registers'>,
  deletionsInProgress: ReadonlyMap<string, ReadonlySet<string>>,
  kubeWatches: () => readonly { name: string; state: string }[],
) {
  const adapterLabels = ['adapter', 'operation', 'outcome'] as const;
  const adapterRuns = new Counter({
    name: 'decom_adapter_runs_total',
    help: 'Adapter runs by adapter, operation (apply, delete, orphan) and outcome.',
    labelNames: adapterLabels,
    registers,
  });
  const adapterRunDuration = secondsHistogram(
    { registers },
    'decom_adapter_run_duration_seconds',
    'Duration of one adapter run (task config execution and progress check), in seconds.',
    adapterLabels,
    ADAPTER_RUN_BUCKETS,
  );
  new Gauge({
    name: 'decom_adapter_deletions_in_progress',
    help: 'Resources an adapter is deleting whose cleanup is not confirmed yet (last run: delete, in progress).',
    labelNames: ['adapter'],
    registers,
    collect() {
      this.reset();
      for (const [adapter, ids] of deletionsInProgress) this.set({ adapter }, ids.size);
    },
  });
  new Gauge({
    name: 'decom_kube_watch_up',
    help: '1 while an adapter watch of Kubernetes objects is running, 0 while it retries, by watch (computed at scrape).',
    labelNames: ['watch'],
    registers,
    collect() {
      this.reset();
      for (const watch of kubeWatches()) this.set({ watch: watch.name }, watch.state === 'running' ? 1 : 0);
    },
  });
  const watchTriggeredRuns = new Counter({
    name: 'decom_adapter_watch_triggered_runs_total',
    help: "Adapter runs enqueued at once because a watch saw one of the resource's objects change (instead of waiting for the re-run backoff), by adapter.",
    labelNames: ['adapter'],
    registers,
  });
  return { adapterRuns, adapterRunDuration, watchTriggeredRuns };
}
