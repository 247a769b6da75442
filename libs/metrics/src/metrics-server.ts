/**
 * The Prometheus endpoint on its own port (`DECOM_METRICS_PORT`, default 9090, path `/metrics`), as
 * HyperFleet serves it (contract §8.2), so scraping never competes with the API's routes or middleware.
 * A plain `node:http` server: one route, no framework needed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  /** e.g. `http://127.0.0.1:9090/metrics`. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Listens on `port` (0 = any free port) and answers `GET /metrics` with the registry's text format;
 * other paths 404. Always 200: a metric whose collector throws is left out of that scrape (named in a
 * `#` comment), every other metric is served (DecomMetrics' own collectors already keep their last values).
 * @throws the listen error (e.g. EADDRINUSE) so a start-up names the port at fault.
 */
export async function startMetricsServer(registry: Registry, port: number, host = '0.0.0.0'): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are served at /metrics\n');
      return;
    }
    void scrape(registry).then((text) => res.writeHead(200, { 'content-type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/metrics`,
    port: actual,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * The registry's text; when a collector throws, each metric is rendered alone and the failing ones are
 * replaced by a comment naming them, so one broken source never hides the others.
 */
async function scrape(registry: Registry): Promise<string> {
  try {
    return await registry.metrics();
  } catch {
    const parts = await Promise.all(
      registry.getMetricsAsArray().map((metric) =>
        registry.getSingleMetricAsString(metric.name).catch((error: unknown) => `# ${metric.name}: collection failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`),
      ),
    );
    return `${parts.join('\n')}\n`;
  }
}
