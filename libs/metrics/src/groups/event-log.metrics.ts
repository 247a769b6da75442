/** The event log: subscribers' lag behind its head (at scrape, in events) and append latency (seconds). */
import { Gauge, Histogram } from 'prom-client';
import type { ScrapeContext } from './scrape-context.js';

/** One event-store append, in seconds. */
export const APPEND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** A subscriber's lag: head position minus its checkpoint. */
export interface LagSource {
  readonly name: string;
  readonly lag: () => Promise<number>;
}

export function eventLogMetrics({ registers, guarded }: ScrapeContext, lagSources: readonly LagSource[]) {
  new Gauge({
    name: 'decom_subscription_lag_events',
    help: 'Events between the head of the log and a subscriber (projection, dispatch reactor), computed at scrape.',
    labelNames: ['subscriber'],
    registers,
    async collect() {
      // Not reset: a subscriber whose lag cannot be read now keeps its last value.
      await Promise.all(
        lagSources.map(async (source) => {
          const lag = await guarded('decom_subscription_lag_events', source.lag, source.name);
          if (lag !== undefined) this.set({ subscriber: source.name }, Math.max(0, lag));
        }),
      );
    },
  });
  const appendDuration = new Histogram({
    name: 'decom_event_store_append_duration_seconds',
    help: 'Latency of one event-store append, in seconds.',
    buckets: APPEND_BUCKETS,
    registers,
  });
  return { appendDuration };
}
