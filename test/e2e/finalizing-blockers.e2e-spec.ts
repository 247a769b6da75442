/**
 * The finalizing read model says why each deletion is pending, as structured blockers, over
 * REST (`/api/decom/v1/finalizing`) and GraphQL, against the embedded engine with the shipped adapters and
 * the bundled Kubernetes server (its fault injector plays an RBAC 403).
 */
import { resolve } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { REALISTIC_CONTROLLER_DELAY_MS } from '@decom/kube-local';

describe('finalizing blockers over REST and GraphQL', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  const decom = async (path: string) => {
    const response = await fetch(`${fixture.engine.url}/api/decom/v1${path}`);
    return { status: response.status, body: (await response.json()) as any };
  };
  const graphql = async (query: string) =>
    (await (
      await fetch(`${fixture.engine.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      })
    ).json()) as any;

  beforeAll(async () => {
    fixture = await startTestEngine({
      localKube: { controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS },
      adaptersDir: resolve('config/adapters'),
    });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  const reconciledCluster = async (name: string) => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: {} })).body.id;
    await eventually(`${name} Reconciled`, async () =>
      (await api.get(`/clusters/${id}`)).body.status.conditions.some((c: any) => c.type === 'Reconciled' && c.status === 'True')
        ? true
        : undefined,
    );
    return id;
  };
  const item = async (id: string, query = '') => ((await decom(`/finalizing${query}`)).body.items as any[]).find((i) => i.id === id);

  it('a 403 from Kubernetes: AdapterNotFinalized with the Health reason, message and report time; old fields kept', async () => {
    const id = await reconciledCluster('blocked-403');
    const fault = fixture.engine.localKube!.faults.add({
      method: 'DELETE',
      kind: 'Namespace',
      name: id.toLowerCase(),
      status: 403,
      reason: 'Forbidden',
      message: 'RBAC: adapter may not delete',
    });
    try {
      expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
      const found = await eventually('the adapter blocker', async () => {
        const f = await item(id);
        return f?.blockers.some((b: any) => b.type === 'AdapterNotFinalized' && b.health?.status === 'False') ? f : undefined;
      });
      const adapter = found.blockers.find((b: any) => b.type === 'AdapterNotFinalized');
      expect(adapter).toMatchObject({
        adapter: 'validation',
        reported: true,
        generation: 2,
        observed_generation: 2,
        held_by_pause: false,
        health: { status: 'False', message: expect.stringContaining('RBAC: adapter may not delete') },
        finalized: { status: 'False' },
        last_report_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        message: expect.stringContaining('RBAC: adapter may not delete'),
      });
      // A terminal error is not retried: the job sits in the dead-letter set, a root cause listed before the adapter.
      const dead = await eventually('the dead letter', async () => (await item(id))?.blockers.find((b: any) => b.type === 'DeadLettered'));
      expect(dead).toMatchObject({
        queue: 'adapter-run.validation',
        job_id: expect.stringContaining(id),
        attempts: 1,
        error: expect.stringContaining('Forbidden'),
      });
      expect(found).toMatchObject({
        waiting_on_adapters: ['validation'],
        unhealthy_adapters: [{ adapter: 'validation' }],
        children_remaining: 0,
      });
      // Filters: by blocker type and kind.
      expect(await item(id, '?blocker=AdapterNotFinalized')).toBeDefined();
      expect(await item(id, '?blocker=Paused')).toBeUndefined();
      expect(await item(id, '?kind=Cluster&older_than_seconds=0')).toBeDefined();
      expect(await item(id, '?kind=NodePool')).toBeUndefined();
      expect(await item(id, '?older_than_seconds=3600')).toBeUndefined();
      expect(await item(id, `?search=${encodeURIComponent("name='blocked-403'")}`)).toBeDefined();
      expect(await item(id, `?search=${encodeURIComponent("name='another'")}`)).toBeUndefined();
      expect((await decom(`/finalizing?search=${encodeURIComponent('name = ')}`)).status).toBe(400);

      const gql = await graphql(
        `{ finalizing(blocker: ["AdapterNotFinalized"]) { id waiting_on_adapters blockers { type message adapter health { status reason message } last_report_time } } }`,
      );
      expect(gql.errors).toBeUndefined();
      const row = gql.data.finalizing.find((f: any) => f.id === id);
      expect(row.blockers.find((b: any) => b.type === 'AdapterNotFinalized')).toMatchObject({
        adapter: 'validation',
        health: { status: 'False' },
      });
      const searched = await graphql(`{ finalizing(search: "name='blocked-403'") { id } }`);
      expect(searched.data.finalizing.map((f: any) => f.id)).toEqual([id]);
      const badGql = await graphql(`{ finalizing(blocker: ["Stuck"]) { id } }`);
      expect(badGql.errors[0].extensions.problem).toMatchObject({ status: 400 });
    } finally {
      fault.remove();
      await api.call('POST', `/clusters/${id}/force-delete`, { reason: 'test cleanup' });
    }
  }, 40_000);

  it('a paused deletion: Paused first (by whom, why, own or via parent), the adapter marked as held by the pause', async () => {
    const id = await reconciledCluster('blocked-paused');
    const np: string = (await api.call('POST', `/clusters/${id}/nodepools`, { kind: 'NodePool', name: 'np-held', spec: {} })).body.id;
    const alice = new DemoApi(fixture.engine.url, 'alice@example.com');
    expect((await alice.call('POST', `/clusters/${id}/pause`, { reason: 'INC-9' })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    const cluster = await eventually('the cluster row', () => item(id));
    expect(cluster.blockers[0]).toMatchObject({
      type: 'Paused',
      source: 'self',
      paused_by: 'alice@example.com',
      reason: 'INC-9',
      message: 'paused by alice@example.com: INC-9',
    });
    expect(cluster.blockers.find((b: any) => b.type === 'DependentsRemaining')).toMatchObject({ count: 1, ids: [np] });
    const adapter = cluster.blockers.find((b: any) => b.type === 'AdapterNotFinalized');
    if (adapter) expect(adapter.held_by_pause).toBe(true);
    const nodepool = await eventually('the nodepool row', () => item(np));
    expect(nodepool.blockers[0]).toMatchObject({
      type: 'Paused',
      source: 'parent',
      paused_by: 'alice@example.com',
      resource: { id, kind: 'Cluster' },
    });
    expect(await item(id, '?blocker=Paused,DeadLettered')).toBeDefined();
    await api.call('POST', `/clusters/${id}/force-delete`, { reason: 'test cleanup' });
  }, 40_000);

  it('refuses unknown and badly spelled parameters with 400 problem details (olderThanSeconds is the GraphQL spelling)', async () => {
    const camel = await decom('/finalizing?olderThanSeconds=10');
    expect(camel.status).toBe(400);
    expect(camel.body).toMatchObject({ status: 400, detail: expect.stringContaining('olderThanSeconds') });
    expect((await decom('/finalizing?older_than_seconds=-1')).status).toBe(400);
    expect((await decom('/finalizing?older_than_seconds=abc')).status).toBe(400);
    const badType = await decom('/finalizing?blocker=Stuck');
    expect(badType.status).toBe(400);
    expect(badType.body.errors[0]).toMatchObject({ field: 'blocker', constraint: 'pattern' });
    expect((await decom('/finalizing?kind=Spaceship')).status).toBe(404);
  });

  it('audit: force deletes fleet-wide with caller, reason, removed subresources and adapter statuses; filters validated', async () => {
    const id = await reconciledCluster('audited-1');
    const np: string = (await api.call('POST', `/clusters/${id}/nodepools`, { kind: 'NodePool', name: 'np-aud', spec: {} })).body.id;
    const fault = fixture.engine.localKube!.faults.add({
      method: 'DELETE',
      kind: 'Namespace',
      name: id.toLowerCase(),
      status: 403,
      reason: 'Forbidden',
    });
    try {
      expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
      const bob = new DemoApi(fixture.engine.url, 'bob@example.com');
      expect((await bob.call('POST', `/clusters/${id}/force-delete`, { reason: 'INC-42 stuck on RBAC' })).status).toBe(204);
    } finally {
      fault.remove();
    }
    const audit = await decom('/audit?type=ForceDeleted&limit=10');
    expect(audit.status).toBe(200);
    const entry = audit.body.items.find((e: any) => e.id === id);
    expect(entry).toMatchObject({
      type: 'ForceDeleted',
      kind: 'Cluster',
      name: 'audited-1',
      caller: 'bob@example.com',
      reason: 'INC-42 stuck on RBAC',
      subresources: [expect.objectContaining({ id: np, kind: 'NodePool' })],
    });
    expect(entry.adapter_statuses[id]).toEqual(expect.arrayContaining([expect.objectContaining({ adapter: 'validation' })]));
    expect((await decom('/audit?type=ForceOrphaned')).body.items.some((e: any) => e.id === id)).toBe(false);
    const gql = await graphql(`{ audit(type: ["ForceDeleted"], limit: 5) { id caller reason subresources { id kind } } }`);
    expect(gql.data.audit.find((e: any) => e.id === id)).toMatchObject({
      caller: 'bob@example.com',
      reason: 'INC-42 stuck on RBAC',
      subresources: [{ id: np, kind: 'NodePool' }],
    });
    expect((await decom('/audit?type=Deleted')).status).toBe(400);
    expect((await decom('/audit?limit=0')).status).toBe(400);
  }, 40_000);

  it('live updates: the event log as Server-Sent Events, after the projections applied them; Last-Event-ID replays', async () => {
    const controller = new AbortController();
    const response = await fetch(`${fixture.engine.url}/api/decom/v1/events/stream`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const created: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'live-1', spec: {} })).body.id;
    const message = await eventually('the ResourceCreated message', async () => {
      const { value } = await reader.read();
      text += decoder.decode(value);
      const block = text.split('\n\n').find((b) => b.includes('event: ResourceCreated') && b.includes(created));
      return block;
    });
    controller.abort();
    const id = Number(/^id: (\d+)$/m.exec(message)![1]);
    const data = JSON.parse(/^data: (.*)$/m.exec(message)![1]!);
    expect(data).toMatchObject({
      type: 'ResourceCreated',
      position: id,
      resource: { id: created, kind: 'Cluster' },
      caller: 'operator@example.com',
    });
    // The read model already has it when the message arrives.
    expect((await api.get(`/clusters/${created}`)).status).toBe(200);

    const replay = new AbortController();
    const again = await fetch(`${fixture.engine.url}/api/decom/v1/events/stream`, {
      signal: replay.signal,
      headers: { 'last-event-id': String(id - 1) },
    });
    const replayReader = again.body!.getReader();
    let replayed = '';
    await eventually('the replayed message', async () => {
      replayed += decoder.decode((await replayReader.read()).value);
      return replayed.includes(`id: ${id}\n`) ? true : undefined;
    });
    replay.abort();
    expect((await fetch(`${fixture.engine.url}/api/decom/v1/events/stream?after=-3`)).status).toBe(400);
  });
});
