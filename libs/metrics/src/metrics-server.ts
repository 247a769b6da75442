/**
 * The Prometheus endpoint on its own port (`DECOM_METRICS_PORT`, default 9090, path `/metrics`), as
 * HyperFleet serves it (hyperfleet-api `docs/metrics.md`), so scraping never competes with the API's routes or
 * middleware. A process without an API port of its own (`decom worker`) also answers `/healthz` and `/readyz` here once
 * it calls `serveHealth`. A plain `node:http` server: three routes, no framework needed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** A process's readiness now, from cached state only (the handler never waits on a network call). */
export interface HealthReport {
  readonly ready: boolean;
  /** The JSON body of `/readyz` (the same for 200 and 503). */
  readonly body: Readonly<Record<string, unknown>>;
}

export interface MetricsServer {
  /** e.g. `http://127.0.0.1:9090/metrics`. */
  readonly url: string;
  readonly port: number;
  /**
   * From now on `GET /healthz` answers 200 `{"status":"ok"}` (the process serves) and `GET /readyz` 200 or
   * 503 with `report().body`. Before the call both are 404, as on a process whose API port answers them.
   */
  serveHealth(report: () => HealthReport): void;
  close(): Promise<void>;
}

/**
 * Listens on `port` (0 = any free port) and answers `GET /metrics` with the registry's text format;
 * other methods there 405 with `Allow: GET, HEAD`, other paths 404. Always 200: a metric whose collector throws is left out of that scrape (named in a
 * `#` comment), every other metric is served (DecomMetrics' own collectors already keep their last values).
 * @throws the listen error (e.g. EADDRINUSE) so a start-up names the port at fault.
 */
export async function startMetricsServer(registry: Registry, port: number, host = '0.0.0.0'): Promise<MetricsServer> {
  let health: (() => HealthReport) | undefined;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    if (health && isRead && (path === '/healthz' || path === '/readyz')) {
      const { ready, body } = path === '/healthz' ? { ready: true, body: { status: 'ok' } } : health();
      const text = `${JSON.stringify(body)}\n`;
      res
        .writeHead(ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    const known = path === '/metrics' || (health !== undefined && (path === '/healthz' || path === '/readyz'));
    if (known && !isRead) {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET, HEAD' }).end(`method not allowed: ${path} answers GET and HEAD\n`);
      return;
    }
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are served at /metrics\n');
      return;
    }
    void scrape(registry).then((text) =>
      res.writeHead(200, { 'content-type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
    );
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
    serveHealth: (report) => void (health = report),
    close: () =>
      new Promise<void>((resolve) => {
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
      registry
        .getMetricsAsArray()
        .map((metric) =>
          registry
            .getSingleMetricAsString(metric.name)
            .catch(
              (error: unknown) =>
                `# ${metric.name}: collection failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
            ),
        ),
    );
    return `${parts.join('\n')}\n`;
  }
}
