import { CloudEvent, HTTP } from 'cloudevents';
import { MANIFEST_BUNDLE_DATA_TYPE } from './cloudevent-intake.js';
import type { LocalMaestro } from './local-maestro.js';
import { startLocalMaestro } from './server.js';
import { workId } from './work-id.js';

/** The local Maestro over real HTTP: REST API, CloudEvents intake, agent, faults. */
const SOURCE = 'hyperfleet-adapter';
const manifest = (name: string, namespace?: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(namespace && { namespace }), annotations: { 'hyperfleet.io/generation': '1' } },
});

describe('local Maestro server', () => {
  let maestro: LocalMaestro;
  beforeEach(async () => {
    maestro = await startLocalMaestro({ consumers: ['cluster1'] });
  });
  afterEach(() => maestro.close());

  async function publish(
    action: string,
    name: string,
    version: number,
    data?: unknown,
    consumer = 'cluster1',
    labels: Record<string, string> = {},
  ) {
    const event = new CloudEvent({
      type: `${MANIFEST_BUNDLE_DATA_TYPE}.spec.${action}`,
      source: SOURCE,
      clustername: consumer,
      resourceid: workId(SOURCE, consumer, name),
      resourceversion: version,
      metadata: JSON.stringify({ name, labels }),
      ...(data !== undefined && { data }),
    });
    const message = HTTP.binary(event);
    const res = await fetch(`${maestro.url}${maestro.cloudEventsPath}`, {
      method: 'POST',
      headers: message.headers as Record<string, string>,
      body: String(message.body),
    });
    return { status: res.status, body: res.status === 204 ? undefined : await res.json() };
  }
  const get = async (path: string) => {
    const res = await fetch(`${maestro.url}${path}`);
    return { status: res.status, body: await res.json() };
  };

  it('creates from a create_request, the agent reports status and feedback, GET and search find it', async () => {
    expect(await publish('create_request', 'work-a', 0, { manifests: [manifest('cm-a', 'ns1')] }, 'cluster1', { app: 'x' })).toEqual({
      status: 204,
      body: undefined,
    });
    const id = workId(SOURCE, 'cluster1', 'work-a');
    await maestro.settle();
    maestro.setStatusFeedback(SOURCE, 'cluster1', 'work-a', { kind: 'ConfigMap', name: 'cm-a', namespace: 'ns1' }, [
      { name: 'phase', fieldValue: { type: 'String', string: 'Active' } },
    ]);
    const one = await get(`/api/maestro/v1/resource-bundles/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id,
      kind: 'ResourceBundle',
      name: 'work-a',
      consumer_name: 'cluster1',
      version: 1,
      metadata: { name: 'work-a', labels: { app: 'x' }, namespace: 'cluster1', uid: id },
      manifests: [manifest('cm-a', 'ns1')],
      status: {
        conditions: [
          expect.objectContaining({ type: 'Applied', status: 'True' }),
          expect.objectContaining({ type: 'Available', status: 'True' }),
        ],
        resourceStatus: [
          expect.objectContaining({
            resourceMeta: expect.objectContaining({ kind: 'ConfigMap', name: 'cm-a', namespace: 'ns1', version: 'v1', group: '' }),
            statusFeedback: { values: [{ name: 'phase', fieldValue: { type: 'String', string: 'Active' } }] },
          }),
        ],
      },
    });
    const search = encodeURIComponent(`source='${SOURCE}' and consumer_name='cluster1' and payload->'metadata'->'labels'@>'{"app":"x"}'`);
    const list = await get(`/api/maestro/v1/resource-bundles?search=${search}&page=1&size=10`);
    expect(list.body).toMatchObject({ kind: 'ResourceBundleList', page: 1, size: 1, total: 1, items: [{ id }] });
    expect((await get(`/api/maestro/v1/resource-bundles?search=${encodeURIComponent("source='x' or 1=1")}`)).status).toBe(400);
  });

  it('updates only at the current version (optimistic concurrency); refuses duplicates and unknown consumers', async () => {
    await publish('create_request', 'work-a', 0, { manifests: [manifest('cm-a')] });
    expect((await publish('create_request', 'work-a', 0, { manifests: [manifest('cm-a')] })).status).toBe(409);
    expect((await publish('update_request', 'work-a', 1, { manifests: [manifest('cm-b')] })).status).toBe(204);
    const stale = await publish('update_request', 'work-a', 1, { manifests: [manifest('cm-c')] });
    expect(stale).toMatchObject({
      status: 409,
      body: { kind: 'Error', reason: expect.stringContaining('version conflict: current 2, got 1') },
    });
    expect(maestro.peek(SOURCE, 'cluster1', 'work-a')).toMatchObject({ version: 2, manifests: [manifest('cm-b')] });
    expect((await publish('create_request', 'work-x', 0, { manifests: [manifest('cm')] }, 'nowhere')).status).toBe(400);
    expect((await publish('create_request', 'work-y', 0, { manifests: [{ kind: 'ConfigMap' }] })).status).toBe(400);
  });

  it('deletes asynchronously: the bundle stays with deleted_at until the agent confirms', async () => {
    await publish('create_request', 'work-a', 0, { manifests: [manifest('cm-a')] });
    const id = workId(SOURCE, 'cluster1', 'work-a');
    maestro.pauseAgent();
    const deleted = await fetch(`${maestro.url}/api/maestro/v1/resource-bundles/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await get(`/api/maestro/v1/resource-bundles/${id}`)).body).toMatchObject({ deleted_at: expect.any(String) });
    expect((await publish('update_request', 'work-a', 1, { manifests: [manifest('cm-b')] })).status).toBe(409);
    maestro.resumeAgent();
    await maestro.settle();
    expect((await get(`/api/maestro/v1/resource-bundles/${id}`)).status).toBe(404);
    expect((await fetch(`${maestro.url}/api/maestro/v1/resource-bundles/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('records requests, injects faults and manages consumers', async () => {
    maestro.faults.add({ method: 'GET', path: '/resource-bundles', status: 503, times: 1 });
    expect((await get('/api/maestro/v1/resource-bundles')).status).toBe(503);
    expect((await get('/api/maestro/v1/resource-bundles')).status).toBe(200);
    const created = await fetch(`${maestro.url}/api/maestro/v1/consumers`, { method: 'POST', body: JSON.stringify({ name: 'cluster2' }) });
    expect(created.status).toBe(201);
    expect((await get('/api/maestro/v1/consumers')).body).toMatchObject({ total: 2, items: [{ name: 'cluster1' }, { name: 'cluster2' }] });
    expect(maestro.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 503', 'GET 200', 'POST 201', 'GET 200']);
  });
});
