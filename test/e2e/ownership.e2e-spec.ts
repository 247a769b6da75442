/**
 * Ownership and leaks through HTTP against the embedded engine with the shipped adapters (config/adapters) and the
 * bundled local Kubernetes API server: objects are found by Decom's ownership marker at deletion, so a
 * Job created under an earlier generation's name is deleted too.
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { registerHistoryCommand } from '../../apps/cli/src/commands/history.command.js';
import { registerLeaksCommand } from '../../apps/cli/src/commands/leaks.command.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { REALISTIC_CONTROLLER_DELAY_MS } from '@decom/kube-local';

const cond = (r: any, type: string) => r.status.conditions.find((c: any) => c.type === type);

describe('end to end: ownership, leaks', () => {
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    // The periodic leak scan runs often here, so its count is observable.
    fixture = await startTestEngine({
      localKube: { controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS },
      adaptersDir: resolve('config/adapters'),
      admins: 'admin@example.com',
      env: { DECOM_LEAK_SCAN_INTERVAL_MS: '200' },
    });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  const kube = () => fixture.engine.localKube!;
  const reconciled = (id: string, generation: number) =>
    eventually(`cluster ${id} Reconciled at generation ${generation}`, async () => {
      const body = (await api.get(`/clusters/${id}`)).body;
      return body.generation === generation && cond(body, 'Reconciled')?.status === 'True' ? true : undefined;
    });

  it('renamed objects: the Jobs of generations 1 and 2 are both deleted when the cluster is (discovery by ownership)', async () => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'renamed-jobs', spec: { size: 1 } })).body.id;
    const ns = id.toLowerCase();
    await reconciled(id, 1);
    expect((await api.call('PATCH', `/clusters/${id}`, { spec: { size: 2 } })).status).toBe(200);
    await eventually('the generation-2 Job exists', async () => kube().peek('batch/v1', 'Job', ns, `validation-${id}-gen2`));
    expect(kube().peek('batch/v1', 'Job', ns, `validation-${id}-gen1`)).toBeDefined();

    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    await eventually(
      'the cluster is hard-deleted',
      async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
      30_000,
    );
    const jobDeletes = kube()
      .requestsMatching({ method: 'DELETE', kind: 'Job' })
      .filter((r) => r.namespace === ns)
      .map((r) => r.name);
    // Each went by its own DELETE (not only by the namespace controller), before the ConfigMap.
    expect(jobDeletes).toEqual(expect.arrayContaining([`validation-${id}-gen1`, `validation-${id}-gen2`]));
    const order = kube()
      .requests.filter(
        (r) => (r.method === 'DELETE' && r.namespace === ns) || (r.method === 'DELETE' && r.kind === 'Namespace' && r.name === ns),
      )
      .map((r) => r.kind);
    expect(order.lastIndexOf('Job')).toBeLessThan(order.indexOf('ConfigMap'));
    expect(kube().peek('batch/v1', 'Job', ns, `validation-${id}-gen1`)).toBeUndefined();
  }, 60_000);

  /** Runs a `decom` CLI command in this process against the engine; returns what it printed. */
  const cli = async (...args: string[]) => {
    let text = '';
    const program = new Command('decom').exitOverride();
    const io = { out: (chunk: string) => void (text += chunk), defaultApiUrl: () => fixture.engine.url };
    registerHistoryCommand(program, io);
    registerLeaksCommand(program, io);
    await program.parseAsync(['node', 'decom', ...args]);
    return text;
  };

  it('force delete of a paused, provisioned cluster: the inventory names its Namespace, ConfigMap and Job; decom leaks lists and deletes them (audited)', async () => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'leaky', spec: {} })).body.id;
    const ns = id.toLowerCase();
    await reconciled(id, 1);
    const uid = (apiVersion: string, kind: string, namespace: string | undefined, name: string) =>
      (kube().peek(apiVersion, kind, namespace, name) as { metadata: { uid: string } }).metadata.uid;
    const expected = [
      { apiVersion: 'v1', kind: 'Namespace', name: ns, uid: uid('v1', 'Namespace', undefined, ns), adapter: 'validation' },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: ns,
        name: `cluster-${id}-config`,
        uid: uid('v1', 'ConfigMap', ns, `cluster-${id}-config`),
        adapter: 'validation',
      },
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        namespace: ns,
        name: `validation-${id}-gen1`,
        uid: uid('batch/v1', 'Job', ns, `validation-${id}-gen1`),
        adapter: 'validation',
      },
    ];
    const admin = new DemoApi(fixture.engine.url, 'admin@example.com');
    expect((await admin.call('POST', `/clusters/${id}/pause`, { reason: 'INC-7 hold' })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    expect((await admin.call('POST', `/clusters/${id}/force-delete`, { reason: 'INC-7 give up' })).status).toBe(204);

    const inventory = await eventually('the leak inventory is recorded', async () => {
      const items = (await api.get(`/resources/${id}/events`)).body.items as { type: string; data: any; caller?: string }[];
      return items.find((e) => e.type === 'LeakInventoryRecorded');
    });
    expect(inventory.data).toMatchObject({ id, kind: 'Cluster', adapter: 'validation', trigger: 'ForceDeleted' });
    expect(inventory.data.objects).toEqual(expect.arrayContaining(expected));
    expect(inventory.data.objects).toHaveLength(3);

    // GraphQL shows the same history; `decom history` names the objects.
    const graphql = await fetch(`${fixture.engine.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ history(id: "${id}") { type data } }` }),
    }).then((r) => r.json() as Promise<{ data: { history: { type: string; data: any }[] } }>);
    expect(graphql.data.history.find((e) => e.type === 'LeakInventoryRecorded')?.data.objects).toHaveLength(3);
    expect(await cli('history', id)).toMatch(
      new RegExp(`LeakInventoryRecorded .*adapter=validation  trigger=ForceDeleted  objects=3  names=.*Namespace:${ns}`),
    );

    // The scan finds them (the owner no longer exists), the periodic scan counts them.
    const listed = await cli('leaks');
    expect(listed).toContain('3 leaked object(s)');
    expect(listed).toContain(`ConfigMap ${ns}/cluster-${id}-config  uid=${expected[1]!.uid}  owner=Cluster/${id}/validation`);
    await eventually('decom_leaked_objects counts them', async () => {
      const text = await fetch(fixture.engine.metricsUrl).then((r) => r.text());
      return /^decom_leaked_objects 3$/m.test(text) ? true : undefined;
    });

    // Deleting is for administrators, with a reason; recorded in the former owner's history.
    await expect(cli('leaks', '--delete')).rejects.toThrow(/--reason/);
    await expect(cli('leaks', '--delete', '--reason', 'cleanup', '--as', 'bob@example.com')).rejects.toThrow(/403 .*administrators/);
    const deleted = await cli('leaks', '--delete', '--reason', 'INC-7 cleanup of leftovers', '--as', 'admin@example.com');
    expect(deleted).toContain('3 leaked object(s) deleted');
    await kube().settle();
    expect(kube().peek('v1', 'Namespace', undefined, ns)).toBeUndefined();
    expect(kube().peek('batch/v1', 'Job', ns, `validation-${id}-gen1`)).toBeUndefined();
    const audit = ((await api.get(`/resources/${id}/events`)).body.items as { type: string; data: any; caller?: string }[]).find(
      (e) => e.type === 'LeakedObjectsDeleted',
    );
    expect(audit?.data).toMatchObject({ id, caller: 'admin@example.com', reason: 'INC-7 cleanup of leftovers' });
    expect(audit?.data.objects).toHaveLength(3);
    expect(await cli('leaks')).toContain('0 leaked object(s)');
  }, 60_000);

  it("another installation's objects on the same cluster are never leaks: a marker naming a resource never created here is left alone", async () => {
    // What a second Decom installation sharing this Kubernetes cluster writes for one of its live clusters.
    const theirs = '019ad000-0000-7000-8000-0000000000aa';
    kube().seed({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: `other-${theirs}`, annotations: { 'decom.io/owner': `Cluster/${theirs}/validation` } },
    });
    kube().seed({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `cluster-${theirs}-config`,
        namespace: 'default',
        annotations: { 'decom.io/owner': `Cluster/${theirs}/validation` },
      },
    });
    expect(await cli('leaks', '--json')).not.toContain(theirs);
    const deleted = await cli('leaks', '--delete', '--reason', 'cleanup', '--as', 'admin@example.com');
    expect(deleted).not.toContain(theirs);
    await kube().settle();
    expect(kube().peek('v1', 'Namespace', undefined, `other-${theirs}`)).toBeDefined();
    expect(kube().peek('v1', 'ConfigMap', 'default', `cluster-${theirs}-config`)).toBeDefined();
  }, 30_000);

  it('force orphan: the inventory names what is left behind; the objects keep a release marker and are not leaks', async () => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'orphan-me', spec: {} })).body.id;
    const ns = id.toLowerCase();
    await reconciled(id, 1);
    const admin = new DemoApi(fixture.engine.url, 'admin@example.com');
    expect((await admin.call('POST', `/clusters/${id}/pause`, { reason: 'hold while deciding' })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    expect((await admin.call('POST', `/clusters/${id}/force-orphan`, { reason: 'hand the namespace to team X' })).status).toBe(200);
    expect((await admin.call('POST', `/clusters/${id}/unpause`, { reason: 'go' })).status).toBe(200);
    await eventually(
      'the cluster is hard-deleted',
      async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
      30_000,
    );
    const history = (await api.get(`/resources/${id}/events`)).body.items as { type: string; data: any }[];
    const inventory = history.find((e) => e.type === 'LeakInventoryRecorded');
    expect(inventory?.data).toMatchObject({ adapter: 'validation', trigger: 'ForceOrphaned' });
    expect((inventory?.data.objects as { kind: string }[]).map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Job', 'Namespace']);
    const kept = kube().peek('v1', 'Namespace', undefined, ns) as { metadata: { annotations: Record<string, string> } };
    expect(kept.metadata.annotations).toMatchObject({ 'decom.io/released-from': `Cluster/${id}/validation` });
    expect(kept.metadata.annotations['decom.io/owner']).toBeUndefined();
    // Kept on purpose, not leaked: the scan lists none of them.
    expect(await cli('leaks', '--json')).not.toContain(ns);
  }, 60_000);
});
