/**
 * Observability end to end, on the embedded engine with the shipped adapters and the bundled Kubernetes server:
 * - `/metrics` (own port) after a full deletion and a force delete: every metric moved as it should
 *   (counters, a histogram observation, the Finalizing gauge up then down, the stuck gauge with a 0 s threshold);
 * - one request's trace id followed from the `X-Request-Id` response header to the access log, the events
 *   (also those the adapter and the hard delete recorded later) and the adapter's Kubernetes calls;
 * - the request series' `path` label: ids replaced by `-`, plurals (shipped and custom kinds) and static
 *   segments kept, as HyperFleet's dashboards filter on them.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request as httpRequest } from 'node:http';
import pino from 'pino';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { scrape, sampleValue, type Sample } from '../support/prometheus-text.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const cond = (r: any, type: string) => r.status.conditions.find((c: any) => c.type === type);
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

describe('observability: metrics, access and transition logs, trace ids', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  const lines: Record<string, any>[] = [];
  let entitiesDir: string;

  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    // The shipped kinds plus a custom one without adapters (its plural must label its series too).
    entitiesDir = await mkdtemp(join(tmpdir(), 'decom-observability-'));
    const entities = `${await readFile(resolve('config/entities.yaml'), 'utf8')}  - kind: Widget\n    plural: widgets\n`;
    await writeFile(join(entitiesDir, 'entities.yaml'), entities);
    fixture = await startTestEngine({
      adaptersDir: resolve('config/adapters'),
      env: { DECOM_STUCK_THRESHOLD_SECONDS: '0', DECOM_ENTITIES_FILE: join(entitiesDir, 'entities.yaml') },
      logger,
    });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => {
    await fixture?.stop();
    if (entitiesDir) await rm(entitiesDir, { recursive: true, force: true });
  });

  const metrics = () => scrape(fixture.engine.metricsUrl);

  it('answers refused before routing or parsing carry X-Request-Id and write their access-log line', async () => {
    const base = `${fixture.engine.url}/api/hyperfleet/v1`;
    const longSegment = await fetch(`${base}/clusters/${'a'.repeat(300)}`);
    const badEncoding = await fetch(`${base}/cl%zzusters`);
    const longUrl = await rawRequest(fixture.engine.url, `/api/hyperfleet/v1/clusters?search=${'x'.repeat(100_000)}`);
    const answers = [
      [longSegment.status, longSegment.headers.get('x-request-id')],
      [badEncoding.status, badEncoding.headers.get('x-request-id')],
      [longUrl.status, longUrl.headers['x-request-id']],
    ] as const;
    expect(answers.map(([status]) => status)).toEqual([414, 400, 414]);
    expect(JSON.parse(longUrl.text).trace_id).toBe(answers[2][1]);
    await new Promise((resolve) => setImmediate(resolve));
    for (const [status, traceId] of answers) {
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(lines.find((l) => l.msg === 'request' && l.trace_id === traceId)).toMatchObject({ status });
    }
  });
  const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) => sampleValue(samples, name, labels) ?? 0;
  const reconciledCluster = async (name: string, headers: Record<string, string> = {}) => {
    const created = await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: {} }, headers);
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await eventually(`${name} Reconciled`, async () =>
      cond((await api.get(`/clusters/${id}`)).body, 'Reconciled')?.status === 'True' ? true : undefined,
    );
    return id;
  };
  const gone = (id: string) =>
    eventually(`${id} hard-deleted`, async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined));

  it('serves Prometheus text on its own port, with build info and HyperFleet request metrics', async () => {
    expect(fixture.engine.metricsUrl).not.toContain(new URL(fixture.engine.url).port + '/metrics');
    const response = await fetch(fixture.engine.metricsUrl);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect((await fetch(fixture.engine.metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
    await api.get('/clusters?page=1&size=5');
    const labels = { component: 'api', method: 'GET', path: '/api/hyperfleet/v1/clusters', code: '200' };
    // Counted when the response has been sent (Fastify onResponse): the client may read it a moment earlier.
    const samples = await eventually('the GET counted', async () => {
      const s = await metrics();
      return value(s, 'hyperfleet_api_requests_total', labels) >= 1 ? s : undefined;
    });
    expect(sampleValue(samples, 'hyperfleet_api_build_info', { component: 'api', version: '0.1.0' })).toBe(1);
    expect(value(samples, 'hyperfleet_api_requests_total', labels)).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'hyperfleet_api_request_duration_seconds_count', labels)).toBeGreaterThanOrEqual(1);
    // HyperFleet's buckets, exactly.
    const buckets = samples.filter(
      (s) =>
        s.name === 'hyperfleet_api_request_duration_seconds_bucket' &&
        s.labels['path'] === labels.path &&
        s.labels['code'] === '200' &&
        s.labels['method'] === 'GET',
    );
    expect(buckets.map((b) => b.labels['le'])).toEqual([
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '+Inf',
    ]);
  });

  it('a full deletion and a force delete move every deletion metric', async () => {
    const before = await metrics();
    const kind = { kind: 'Cluster' };

    // A full deletion: requested → adapter deletes in Kubernetes and reports Finalized → hard delete.
    const full = await reconciledCluster('metrics-full');
    expect((await api.call('DELETE', `/clusters/${full}`)).status).toBe(202);
    await gone(full);

    // A force delete: a paused deletion stays Finalizing (and pending, stuck past a 0 s threshold).
    const held = await reconciledCluster('metrics-held');
    expect((await api.call('POST', `/clusters/${held}/pause`, { reason: 'hold for the test' })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${held}`)).status).toBe(202);
    const during = await eventually('Finalizing gauge up', async () => {
      const s = await metrics();
      return value(s, 'decom_resources_finalizing', kind) >= 1 ? s : undefined;
    });
    const pendingDelete = { resource_type: 'Cluster', is_delete: 'true', component: 'api' };
    expect(value(during, 'hyperfleet_api_resource_pending_reconciliation', pendingDelete)).toBeGreaterThanOrEqual(1);
    expect(value(during, 'hyperfleet_api_resource_pending_reconciliation_stuck', pendingDelete)).toBeGreaterThanOrEqual(1);
    expect(value(during, 'hyperfleet_api_resource_pending_reconciliation_stuck_duration_seconds', pendingDelete)).toBeGreaterThan(0);
    expect((await api.call('POST', `/clusters/${held}/force-delete`, { reason: 'metrics test' })).status).toBe(204);
    await fixture.engine.settle();

    // The force delete's 204 is counted once sent (onResponse), possibly after settle() returned.
    const forceDeleteLabels = { method: 'POST', path: '/api/hyperfleet/v1/clusters/-/force-delete', code: '204' };
    const after = await eventually('the force delete counted', async () => {
      const s = await metrics();
      return value(s, 'hyperfleet_api_requests_total', forceDeleteLabels) -
        value(before, 'hyperfleet_api_requests_total', forceDeleteLabels) >=
        1
        ? s
        : undefined;
    });
    const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    expect(delta('decom_deletions_requested_total', kind)).toBe(2);
    expect(delta('decom_deletions_completed_total', kind)).toBe(1);
    expect(delta('decom_deletions_force_deleted_total', kind)).toBe(1);
    expect(delta('decom_deletion_duration_seconds_count', kind)).toBe(2);
    expect(delta('decom_deletion_duration_seconds_sum', kind)).toBeGreaterThan(0);
    expect(value(after, 'decom_resources_finalizing', kind)).toBe(0);
    expect(value(after, 'hyperfleet_api_resource_pending_reconciliation', pendingDelete)).toBe(0);
    expect(value(after, 'hyperfleet_api_resource_pending_reconciliation_stuck', pendingDelete)).toBe(0);
    expect(delta('hyperfleet_api_reconciliation_started_total', { resource_type: 'Cluster', is_delete: 'true' })).toBe(2);
    expect(delta('hyperfleet_api_reconciliation_started_total', { resource_type: 'Cluster', is_delete: 'false' })).toBe(2);
    expect(delta('decom_adapter_runs_total', { adapter: 'validation', operation: 'delete', outcome: 'success' })).toBeGreaterThanOrEqual(1);
    expect(delta('decom_adapter_runs_total', { adapter: 'validation', operation: 'apply', outcome: 'success' })).toBeGreaterThanOrEqual(2);
    expect(delta('decom_adapter_run_duration_seconds_count', { adapter: 'validation', operation: 'delete' })).toBeGreaterThanOrEqual(1);
    // A run that started before the force delete may still be finishing (it stops at its fence): the gauge
    // must come back to 0, not necessarily by the time the 204 was counted.
    await eventually('no adapter deletion run in progress', async () =>
      value(await metrics(), 'decom_adapter_deletions_in_progress', { adapter: 'validation' }) === 0 ? true : undefined,
    );
    expect(delta('decom_event_store_append_duration_seconds_count')).toBeGreaterThanOrEqual(6);
    expect(delta('hyperfleet_api_requests_total', { method: 'DELETE', path: '/api/hyperfleet/v1/clusters/-', code: '202' })).toBe(2);
    expect(
      delta('hyperfleet_api_requests_total', { method: 'POST', path: '/api/hyperfleet/v1/clusters/-/force-delete', code: '204' }),
    ).toBe(1);
    expect(sampleValue(after, 'decom_queue_depth', { queue: 'adapter-run.validation' })).toBe(0);
    expect(sampleValue(after, 'decom_queue_dead_letters', { queue: 'hard-delete' })).toBe(0);
    expect(sampleValue(after, 'decom_subscription_lag_events', { subscriber: 'projections' })).toBe(0);
    expect(sampleValue(after, 'decom_subscription_lag_events', { subscriber: 'dispatch' })).toBe(0);
  }, 60_000);

  it('follows one trace id from the response header to the access log, the events and the Kubernetes calls', async () => {
    const id = await reconciledCluster('traced');
    const traceId = hex(32);
    const deleted = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters/${id}`, {
      method: 'DELETE',
      headers: { traceparent: `00-${traceId}-${hex(16)}-01`, 'x-hyperfleet-identity': 'tracer@example.com' },
    });
    expect(deleted.status).toBe(202);
    expect(deleted.headers.get('x-request-id')).toBe(traceId);
    await gone(id);

    const access = lines.find((l) => l.msg === 'request' && l.trace_id === traceId);
    expect(access).toMatchObject({
      method: 'DELETE',
      route: '/api/hyperfleet/v1/:plural/:id',
      status: 202,
      caller: 'tracer@example.com',
      level: 30,
    });
    expect(typeof access!.duration_ms).toBe('number');
    const transitions = lines.filter((l) => l.trace_id === traceId && l.transition).map((l) => `${l.transition}:${l.msg}`);
    expect(transitions).toEqual(
      expect.arrayContaining(['DeletionRequested:deletion requested', 'AdapterFinalized:adapter finalized', 'HardDeleted:hard deleted']),
    );
    expect(lines.find((l) => l.transition === 'HardDeleted' && l.resource_id === id)).toMatchObject({
      kind: 'Cluster',
      cause: 'Reconciled',
      trace_id: traceId,
    });

    const events = (await api.get(`/resources/${id}/events`)).body.items as any[];
    const traced = events.filter((e) => e.trace_id === traceId).map((e) => e.type);
    // The request's own event, the adapter's reports (over HTTP, with the propagated header) and the hard delete (a job).
    expect(traced).toEqual(expect.arrayContaining(['DeletionRequested', 'AdapterFinalized', 'HardDeleted']));
    expect(events.find((e) => e.type === 'ResourceCreated').trace_id).not.toBe(traceId);

    const kubeDeletes = fixture.engine.localKube!.requests.filter((r) => r.method === 'DELETE' && r.traceparent?.split('-')[1] === traceId);
    expect(kubeDeletes.length).toBeGreaterThanOrEqual(1);
    expect(kubeDeletes.every((r) => /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/.test(r.traceparent!))).toBe(true);
  }, 60_000);

  it('keeps a well-formed X-Request-Id, replaces a malformed or oversized one, and puts the id in problem bodies', async () => {
    const kept = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters/nope`, { headers: { 'x-request-id': 'req-42.abc' } });
    expect(kept.headers.get('x-request-id')).toBe('req-42.abc');
    expect(((await kept.json()) as any).trace_id).toBe('req-42.abc');
    for (const bad of ['x'.repeat(129), 'has space', 'a/b']) {
      const answer = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters/nope`, {
        headers: { 'x-request-id': bad, traceparent: 'ff-garbage' },
      });
      const header = answer.headers.get('x-request-id')!;
      expect(header).toMatch(/^[0-9a-f]{32}$/);
      expect(((await answer.json()) as any).trace_id).toBe(header);
    }
  });

  it('labels each request series with its path: ids as -, plurals of shipped and custom kinds and static segments kept', async () => {
    const cluster = await api.call('POST', '/clusters', { kind: 'Cluster', name: 'labels-c', spec: {} });
    expect(cluster.status).toBe(201);
    const cid: string = cluster.body.id;
    const nodepool = await api.call('POST', `/clusters/${cid}/nodepools`, { kind: 'NodePool', name: 'labels-np', spec: {} });
    expect(nodepool.status).toBe(201);
    const npid: string = nodepool.body.id;
    const widget = await api.call('POST', '/widgets', { kind: 'Widget', name: 'labels-w', spec: {} });
    expect(widget.status).toBe(201);
    const wid: string = widget.body.id;
    const report = {
      adapter: 'observer',
      observed_generation: 1,
      observed_time: new Date().toISOString(),
      conditions: [
        { type: 'Applied', status: 'True', reason: 'Applied', message: 'applied' },
        { type: 'Available', status: 'True', reason: 'Ready', message: 'ready' },
        { type: 'Health', status: 'True', reason: 'Healthy', message: 'healthy' },
      ],
    };
    // Each request, the series it must count in (method, path, code).
    const requests: [method: string, path: string, body: unknown, label: string, code: number][] = [
      ['GET', `/clusters/${cid}`, undefined, '/api/hyperfleet/v1/clusters/-', 200],
      ['GET', `/clusters/${cid}/statuses`, undefined, '/api/hyperfleet/v1/clusters/-/statuses', 200],
      ['PUT', `/clusters/${cid}/statuses`, report, '/api/hyperfleet/v1/clusters/-/statuses', 201],
      ['GET', `/clusters/${cid}/nodepools`, undefined, '/api/hyperfleet/v1/clusters/-/nodepools', 200],
      ['GET', `/clusters/${cid}/nodepools/${npid}`, undefined, '/api/hyperfleet/v1/clusters/-/nodepools/-', 200],
      ['GET', `/clusters/${cid}/nodepools/${npid}/statuses`, undefined, '/api/hyperfleet/v1/clusters/-/nodepools/-/statuses', 200],
      ['GET', '/nodepools', undefined, '/api/hyperfleet/v1/nodepools', 200],
      ['GET', `/nodepools/${npid}`, undefined, '/api/hyperfleet/v1/nodepools/-', 200],
      ['GET', '/widgets', undefined, '/api/hyperfleet/v1/widgets', 200],
      ['GET', `/widgets/${wid}`, undefined, '/api/hyperfleet/v1/widgets/-', 200],
      ['PATCH', `/widgets/${wid}`, { labels: { a: 'b' } }, '/api/hyperfleet/v1/widgets/-', 200],
      ['GET', `/widgets/${wid}/statuses`, undefined, '/api/hyperfleet/v1/widgets/-/statuses', 200],
      ['GET', `/resources/${wid}`, undefined, '/api/hyperfleet/v1/resources/-', 200],
      // An unknown plural is no name HyperFleet knows: `-`, so arbitrary paths cannot add series.
      ['GET', `/bogus-${hex(8)}/${wid}`, undefined, '/api/hyperfleet/v1/-/-', 404],
    ];
    for (const [method, path, body, , code] of requests)
      expect([method, path, (await api.call(method, path, body)).status]).toEqual([method, path, code]);
    const samples = await eventually('every request counted', async () => {
      const s = await metrics();
      const last = requests.at(-1)!;
      return value(s, 'hyperfleet_api_requests_total', { method: last[0], path: last[3], code: String(last[4]) }) >= 1 ? s : undefined;
    });
    for (const [method, path, , label, code] of requests) {
      const labels = { method, path: label, code: String(code) };
      expect([method, path, value(samples, 'hyperfleet_api_requests_total', labels) >= 1]).toEqual([method, path, true]);
      expect([method, path, value(samples, 'hyperfleet_api_request_duration_seconds_count', labels) >= 1]).toEqual([method, path, true]);
    }
    // No series merges kinds any more: nothing but the unknown plural is labelled with `-` in a plural's place.
    const paths = new Set(samples.filter((s) => s.name === 'hyperfleet_api_requests_total').map((s) => s.labels['path']));
    expect([...paths].filter((p) => p!.startsWith('/api/hyperfleet/v1/-'))).toEqual(['/api/hyperfleet/v1/-/-']);
  });
});

/** A GET over a raw socket-level client: fetch refuses URLs this long before sending them. */
function rawRequest(
  base: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', maxHeaderSize: 1_000_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}
