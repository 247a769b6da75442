import { Counter, Gauge, Registry } from 'prom-client';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';

describe('startMetricsServer (real HTTP on 127.0.0.1)', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers 200 when a collector throws: the other metrics are served, the broken one is named in a comment', async () => {
    const registry = new Registry();
    new Counter({ name: 'kept_total', help: 'a counter', registers: [registry] }).inc(3);
    new Gauge({
      name: 'broken_gauge',
      help: 'its source is down',
      registers: [registry],
      collect() {
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      },
    });
    server = await startMetricsServer(registry, 0, '127.0.0.1');
    const answer = await fetch(server.url, { signal: AbortSignal.timeout(2_000) });
    const text = await answer.text();
    expect(answer.status).toBe(200);
    expect(text).toMatch(/^kept_total 3$/m);
    expect(text).toContain('# broken_gauge: collection failed: connect ECONNREFUSED 127.0.0.1:5432');
    expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('answers another method on its paths 405 with Allow; serves /healthz and /readyz only once told to', async () => {
    server = await startMetricsServer(new Registry(), 0, '127.0.0.1');
    const base = server.url.replace(/\/metrics$/, '');
    const post = await fetch(`${base}/metrics`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect((await fetch(`${base}/readyz`)).status).toBe(404);
    expect((await fetch(`${base}/nothing`, { method: 'POST' })).status).toBe(404);

    let ready = false;
    server.serveHealth(() => ({ ready, body: { status: ready ? 'ready' : 'not_ready' } }));
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${base}/readyz`);
    expect([notReady.status, await notReady.json()]).toEqual([503, { status: 'not_ready' }]);
    ready = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`, { method: 'DELETE' })).status).toBe(405);
  });
});
