/** HyperFleet's API metrics with their exact names, labels and buckets (hyperfleet-api docs/metrics.md). */
import { Counter, Gauge } from 'prom-client';
import { secondsHistogram, type ScrapeContext } from './scrape-context.js';

/** HyperFleet's request-duration buckets, in seconds. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The labels every HyperFleet API series carries. */
export interface BuildLabels {
  readonly component: string;
  readonly version: string;
}

export function httpMetrics({ registers }: Pick<ScrapeContext, 'registers'>, base: BuildLabels, commit: string) {
  const build = new Gauge({
    name: 'hyperfleet_api_build_info',
    help: 'Build information; always 1 (go_version carries the Node.js version: Decom runs on Node.js).',
    labelNames: ['component', 'version', 'commit', 'go_version'],
    registers,
  });
  build.set({ ...base, commit, go_version: process.version }, 1);
  const httpLabels = ['component', 'version', 'method', 'path', 'code'] as const;
  const requests = new Counter({
    name: 'hyperfleet_api_requests_total',
    help: 'HTTP requests answered, by method, route (ids replaced by -) and status code.',
    labelNames: httpLabels,
    registers,
  });
  const requestDuration = secondsHistogram(
    { registers },
    'hyperfleet_api_request_duration_seconds',
    'HTTP request duration in seconds, by method, route (ids replaced by -) and status code.',
    httpLabels,
    HTTP_DURATION_BUCKETS,
  );
  return { requests, requestDuration };
}
