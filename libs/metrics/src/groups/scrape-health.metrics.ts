/** The scrape's own health: collectors that could not read their source, and the dependencies' probe results. */
import { Counter, Gauge } from 'prom-client';
import type { ScrapeContext } from './scrape-context.js';

/** A dependency's last probed state, for `decom_dependency_up` (a `DependencyProbes` result fits). */
export interface DependencyState {
  readonly dependency: string;
  readonly status: 'up' | 'down' | 'unknown';
}

export function scrapeHealthMetrics({ registers }: Pick<ScrapeContext, 'registers'>, dependencies: () => readonly DependencyState[]) {
  const collectorErrors = new Counter({
    name: 'decom_scrape_collector_errors_total',
    help: 'Scrapes in which a collector could not read its source (a dependency down) and served its last value, by collector (metric name).',
    labelNames: ['collector'],
    registers,
  });
  const collectorLastSuccess = new Gauge({
    name: 'decom_scrape_collector_last_success_timestamp_seconds',
    help: 'When a scrape-time collector last read its source successfully (epoch seconds), by collector (metric name): its values are as old as this.',
    labelNames: ['collector'],
    registers,
  });
  new Gauge({
    name: 'decom_dependency_up',
    help: 'Whether a dependency of this process answered its last background probe (1) or not (0), by dependency (postgres, sqlite, eventstoredb, redis, kubernetes, jwks): the same results /readyz serves.',
    labelNames: ['dependency'],
    registers,
    collect() {
      this.reset();
      for (const state of dependencies()) this.set({ dependency: state.dependency }, state.status === 'up' ? 1 : 0);
    },
  });
  return { collectorErrors, collectorLastSuccess };
}
