import type { EventStore } from '@decom/event-store';
import { pendingWork, type ProjectionRunner, type ReadModelStore, type ResourceQueries } from '@decom/projections';
import type { DecomMetrics } from '@decom/metrics';
import type { ReactorRunner } from '@decom/jobs';
import type { EngineJobs } from './engine-jobs.js';
import type { StartedAfterListen } from './started-after-listen.js';

/**
 * Feeds the gauges read at scrape time: pending and finalizing work from the read models, queue depths and
 * workers (`decom_queue_workers == 0` is the alert), projection and dispatch lag, the adapters' watches.
 */
export function watchEngineMetrics(parts: {
  metrics: DecomMetrics;
  store: EventStore;
  readModels: ReadModelStore;
  queries: ResourceQueries;
  projections: ProjectionRunner;
  dispatch: ReactorRunner;
  jobs: EngineJobs;
  later: StartedAfterListen;
}): void {
  const { metrics, store, projections, dispatch, later } = parts;
  const { queue, reachability, consumers } = parts.jobs;
  metrics.watchPending(async () =>
    (await pendingWork(parts.readModels)).map((p) => ({
      kind: p.kind,
      deleting: p.deleted_time !== undefined,
      sinceMs: Date.parse(p.deleted_time ?? p.reconciled_updated_time) || Date.now(),
    })),
  );
  metrics.watchFinalizing(() => parts.queries.finalizing(new Date()));
  metrics.watchQueues(async () => (queue.depths ? (reachability ? reachability.bounded(() => queue.depths!()) : queue.depths()) : []));
  if (reachability && queue.queueConsumers) {
    // Every queue the store knows, 0 when nothing consumes it.
    metrics.watchQueueWorkers(async () => {
      const counts = new Map((await consumers.counts()).map((c) => [c.queue, c.consumers]));
      const names = new Set([...(await reachability.bounded(() => queue.queueNames())), ...counts.keys()]);
      return [...names].sort().map((name) => ({ queue: name, workers: counts.get(name) ?? 0 }));
    });
  }
  metrics.watchLag('projections', async () => (await store.headPosition()) - (await projections.checkpoint()));
  metrics.watchLag('dispatch', async () => (await store.headPosition()) - dispatch.checkpoint());
  metrics.watchKubeWatches(() => later.watches());
}
