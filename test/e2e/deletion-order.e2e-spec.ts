/**
 * Deletion order across the tree, through the API, the in-process worker running the shipped
 * adapters (config/adapters) and the bundled local Kubernetes API server (its request log is the witness):
 * propagation, users before what they use, the cascade and cycle guards, and the effective policy.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from '@decom/kube-local';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const cond = (r: any, type: string) => r.status.conditions.find((c: any) => c.type === type);
const ADAPTERS = resolve('config/adapters');

describe('deletion order end to end', () => {
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    fixture = await startTestEngine({ adaptersDir: ADAPTERS, localKube: { controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS } });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  const kube = () => fixture.engine.localKube!;
  const reconciledCluster = async (name: string, extra: object = {}) => {
    const created = await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: {}, ...extra });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await eventually(`${name} Reconciled`, async () =>
      cond((await api.get(`/clusters/${id}`)).body, 'Reconciled')?.status === 'True' ? true : undefined,
    );
    return id;
  };
  const nodepool = async (clusterId: string, name: string, extra: object = {}) => {
    const created = await api.call('POST', `/clusters/${clusterId}/nodepools`, { kind: 'NodePool', name, spec: {}, ...extra });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await eventually(`${name} ConfigMap`, async () =>
      kube().peek('v1', 'ConfigMap', clusterId.toLowerCase(), `nodepool-${id}`) ? true : undefined,
    );
    return id;
  };
  const gone = (path: string) => eventually(`${path} hard-deleted`, async () => ((await api.get(path)).status === 404 ? true : undefined));
  const failingSince = (npId: string) =>
    eventually(`${npId} reports its failing cleanup`, async () => {
      const items = (await api.get(`/nodepools/${npId}/statuses`)).body.items as any[];
      const status = items.find((s) => s.adapter === 'np-configmap' && s.observed_generation === 2);
      return status && status.conditions.find((c: any) => c.type === 'Health')?.status === 'False' ? status : undefined;
    });
  const hardDeletedTime = async (id: string) =>
    ((await api.get(`/resources/${id}/events`)).body.items as any[]).find((e) => e.type === 'HardDeleted')!.recorded_time as string;
  const deletesOf = (kind: string, name: string, namespace?: string) =>
    kube().requestsMatching({ method: 'DELETE', kind, name, ...(namespace ? { namespace } : {}) });
  const finalizingRow = async (id: string) =>
    ((await (await fetch(`${fixture.engine.url}/api/decom/v1/finalizing`)).json()) as { items: any[] }).items.find((f) => f.id === id);
  /**
   * The failing adapter re-runs with backoff (50 ms doubling, 1 s cap in the fixture): wait until it failed
   * `passes` more times, so the runs a wrong dispatch would have started had every chance to act.
   */
  const severalPasses = (fault: { readonly hits: number }, passes = 3) => {
    const since = fault.hits;
    return eventually(`${passes} more failing passes`, async () => (fault.hits >= since + passes ? true : undefined));
  };

  it('Foreground: the cluster waits for its failing child — no Namespace DELETE until the nodepool is hard-deleted', async () => {
    const c = await reconciledCluster('fg-failing');
    const ns = c.toLowerCase();
    const np = await nodepool(c, 'np-fail');
    const fault = kube().faults.add({
      method: 'DELETE',
      kind: 'ConfigMap',
      name: `nodepool-${np}`,
      status: 500,
      message: 'injected: cloud API down',
    });
    try {
      const answer = await api.call('DELETE', `/clusters/${c}`);
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ deletion_propagation: 'Foreground', deletion_required_adapters: ['validation'] });
      await failingSince(np);
      await severalPasses(fault);
      expect(fault.hits).toBeGreaterThan(1);
      const view = (await api.get(`/clusters/${c}`)).body;
      expect(cond(view, 'DeletionBlocked')).toMatchObject({
        status: 'True',
        reason: 'DependentsExist',
        message: `1 dependent resource(s) must be hard-deleted first (propagationPolicy Foreground): [${np}]`,
      });
      expect(deletesOf('Namespace', ns)).toEqual([]);
      expect(((await api.get(`/clusters/${c}/statuses`)).body.items as any[]).filter((s) => s.observed_generation === 2)).toEqual([]);
      expect((await finalizingRow(c))?.deletion_blocked).toMatchObject({ reason: 'DependentsExist', message: expect.stringContaining(np) });
    } finally {
      fault.remove();
    }
    await gone(`/clusters/${c}`);
    await kube().settle();
    const [nsDelete] = deletesOf('Namespace', ns);
    expect(nsDelete).toBeDefined();
    expect(Date.parse(nsDelete!.time)).toBeGreaterThanOrEqual(Date.parse(await hardDeletedTime(np)));
  }, 40_000);

  it('users before what they use: op1 is destroyed only after app1 (depends_on op1) is hard-deleted', async () => {
    const c = await reconciledCluster('uses-order');
    const ns = c.toLowerCase();
    const op1 = await nodepool(c, 'op1');
    const app1 = await nodepool(c, 'app1', { references: { depends_on: [{ id: op1, kind: 'NodePool' }] } });
    expect((await api.call('DELETE', `/nodepools/${op1}`)).status).toBe(409);
    const fault = kube().faults.add({ method: 'DELETE', kind: 'ConfigMap', name: `nodepool-${app1}`, status: 500 });
    try {
      // Shipped config: the cluster is Foreground (under Background its Namespace delete would take app1's
      // ConfigMap away and so "finish" app1's cleanup — the consequence docs/policies.md states).
      expect((await api.call('DELETE', `/clusters/${c}`)).status).toBe(202);
      await failingSince(app1);
      await severalPasses(fault);
      expect(cond((await api.get(`/nodepools/${op1}`)).body, 'DeletionBlocked')).toMatchObject({
        status: 'True',
        reason: 'InUse',
        message: 'in use by 1 resource(s) that must be hard-deleted first (GET /api/decom/v1/finalizing names those you may see)',
      });
      expect(kube().peek('v1', 'ConfigMap', ns, `nodepool-${op1}`)).toBeDefined();
      expect(deletesOf('ConfigMap', `nodepool-${op1}`)).toEqual([]);
      expect((await api.get(`/nodepools/${op1}`)).status).toBe(200);
    } finally {
      fault.remove();
    }
    await gone(`/clusters/${c}`);
    const [op1Delete] = deletesOf('ConfigMap', `nodepool-${op1}`, ns);
    expect(Date.parse(op1Delete!.time)).toBeGreaterThanOrEqual(Date.parse(await hardDeletedTime(app1)));
    expect(Date.parse(await hardDeletedTime(op1))).toBeGreaterThanOrEqual(Date.parse(await hardDeletedTime(app1)));
  }, 40_000);

  it('no cascade through a live reference: DELETE of the parent is refused naming the referrer and the child', async () => {
    const c1 = await reconciledCluster('tree-one');
    const c2 = await reconciledCluster('tree-two');
    const shared1 = await nodepool(c1, 'shared1');
    const user = await nodepool(c2, 'user1', { references: { depends_on: [{ id: shared1, kind: 'NodePool' }] } });
    expect((await api.call('DELETE', `/nodepools/${shared1}`)).status).toBe(409);
    const refused = await api.call('DELETE', `/clusters/${c1}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(`NodePool 'shared1' (${shared1}), referenced by live NodePool 'user1' (${user})`);
    expect((await api.get(`/clusters/${c1}`)).body.deleted_time).toBeUndefined();
    expect(deletesOf('ConfigMap', `nodepool-${shared1}`)).toEqual([]);
    // Once the user is gone, the cascade goes through.
    expect((await api.call('DELETE', `/clusters/${c2}`)).status).toBe(202);
    await gone(`/clusters/${c2}`);
    expect((await api.call('DELETE', `/clusters/${c1}`)).status).toBe(202);
    await gone(`/clusters/${c1}`);
  }, 40_000);

  it('cycles are named: a DELETE that can never succeed is refused; a cycle among deleting resources shows DependencyCycle', async () => {
    const c1 = await reconciledCluster('cycle-one');
    const c2 = await reconciledCluster('cycle-two');
    const x = await nodepool(c1, 'x-pool');
    const y = await nodepool(c2, 'y-pool', { references: { uses: [{ id: x, kind: 'NodePool' }] } });
    expect((await api.call('PATCH', `/nodepools/${x}`, { references: { uses: [{ id: y, kind: 'NodePool' }] } })).status).toBe(200);
    const refused = await api.call('DELETE', `/nodepools/${x}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(
      `dependency cycle NodePool 'x-pool' (${x}) → NodePool 'y-pool' (${y}) → NodePool 'x-pool' (${x})`,
    );
    expect((await api.call('DELETE', `/clusters/${c1}`)).status).toBe(409);
    // A move (everything paused, seed 004) lets both through: the cycle then shows on both members.
    for (const c of [c1, c2]) expect((await api.call('POST', `/clusters/${c}/pause`, { reason: 'clusterctl move' })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${c1}?delete_for_move=true`)).status).toBe(202);
    expect((await api.call('DELETE', `/clusters/${c2}?delete_for_move=true`)).status).toBe(202);
    const blockedX = cond((await api.get(`/nodepools/${x}`)).body, 'DeletionBlocked');
    expect(blockedX).toMatchObject({
      status: 'True',
      reason: 'DependencyCycle',
      message: expect.stringContaining('dependency cycle through 2 resource(s); no member can be deleted before another'),
    });
    expect(cond((await api.get(`/nodepools/${y}`)).body, 'DeletionBlocked')).toMatchObject({ status: 'True', reason: 'DependencyCycle' });
    expect((await finalizingRow(x))?.deletion_blocked).toMatchObject({ reason: 'DependencyCycle' });
    expect((await finalizingRow(y))?.deletion_blocked).toMatchObject({ reason: 'DependencyCycle' });
    // Breaking the cycle (force-delete one tree) releases the other.
    expect((await api.call('POST', `/clusters/${c2}/force-delete`, { reason: 'break the cycle' })).status).toBe(204);
    expect((await api.call('POST', `/clusters/${c1}/unpause`, { reason: 'move done' })).status).toBe(200);
    await gone(`/clusters/${c1}`);
  }, 40_000);

  it('Background: an owner that uses its own child is refused 409 naming the cycle, as under Foreground', async () => {
    const c = await reconciledCluster('owner-uses-child');
    const np = await nodepool(c, 'used-child');
    expect((await api.call('PATCH', `/clusters/${c}`, { references: { uses: [{ id: np, kind: 'NodePool' }] } })).status).toBe(200);
    const refused = await api.call('DELETE', `/clusters/${c}?propagationPolicy=Background`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(
      `dependency cycle Cluster 'owner-uses-child' (${c}) → NodePool 'used-child' (${np}) → Cluster 'owner-uses-child' (${c})`,
    );
    expect((await api.get(`/clusters/${c}`)).body.deleted_time).toBeUndefined();
    expect((await api.call('PATCH', `/clusters/${c}`, { references: {} })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${c}?propagationPolicy=Background`)).status).toBe(202);
    await gone(`/clusters/${c}`);
  }, 40_000);

  it('the effective deletion policy and its source are visible before and during deletion, and recorded', async () => {
    const c = await reconciledCluster('orphan-parent', { deletion_policy: 'Orphan' });
    const np = await nodepool(c, 'np-inherits');
    const before = (await api.get(`/nodepools/${np}`)).body;
    expect(before.effective_deletion_policy).toEqual({ policy: 'Orphan', source: `inherited from Cluster/${c}` });
    expect((await api.get(`/clusters/${c}`)).body.effective_deletion_policy).toEqual({ policy: 'Orphan', source: 'own' });
    expect((await api.call('DELETE', `/clusters/${c}`)).status).toBe(202);
    expect((await api.get(`/nodepools/${np}`)).body.effective_deletion_policy).toEqual({
      policy: 'Orphan',
      source: `inherited from Cluster/${c}`,
    });
    const requested = ((await api.get(`/resources/${np}/events`)).body.items as any[]).find((e) => e.type === 'DeletionRequested');
    expect(requested.data).toMatchObject({
      deletion_policy: 'Orphan',
      deletion_policy_source: `inherited from Cluster/${c}`,
      required_adapters: ['np-configmap'],
    });
    await gone(`/clusters/${c}`);
    expect(kube().peek('v1', 'ConfigMap', c.toLowerCase(), `nodepool-${np}`)).toBeDefined();
  }, 40_000);
  it('GraphQL: deleteResource(propagationPolicy) and the same fields', async () => {
    const c = await reconciledCluster('gql-propagation');
    const gql = async (query: string) =>
      (await (
        await fetch(`${fixture.engine.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        })
      ).json()) as any;
    const bad = await gql(`mutation { deleteResource(id: "${c}", propagationPolicy: "Sideways") { id } }`);
    expect(bad.errors[0].extensions.problem).toMatchObject({ status: 400 });
    const answer = await gql(
      `mutation { deleteResource(id: "${c}", propagationPolicy: "Background") { deletion_propagation deletion_required_adapters effective_deletion_policy { policy source } } }`,
    );
    expect(answer.data.deleteResource).toEqual({
      deletion_propagation: 'Background',
      deletion_required_adapters: ['validation'],
      effective_deletion_policy: { policy: 'Delete', source: 'default' },
    });
    await gone(`/clusters/${c}`);
  }, 30_000);
});

describe('the adapter set is frozen at DeletionRequested, across a config change and a restart', () => {
  let dir: string;
  let kube: LocalKube;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'decom-frozen-'));
    // One Kubernetes server outlives both engines, so the restarted engine finds the objects the first created.
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    await writeFile(join(dir, 'kubeconfig.yaml'), kube.kubeconfigYaml());
  });
  afterAll(async () => {
    await kube?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const entities = async (file: string, clusterAdapters: string[]) => {
    await writeFile(
      join(dir, file),
      [
        'entities:',
        '  - kind: Cluster',
        '    plural: clusters',
        `    required_adapters: [${clusterAdapters.join(', ')}]`,
        '    deletion_propagation: Foreground',
        '  - kind: NodePool',
        '    plural: nodepools',
        '    parent_kind: Cluster',
        '    required_adapters: [np-configmap]',
        '',
      ].join('\n'),
    );
    return join(dir, file);
  };
  const start = async (entitiesFile: string) =>
    startTestEngine({
      adaptersDir: ADAPTERS,
      dataDir: join(dir, 'data'),
      env: { DECOM_ENTITIES_FILE: entitiesFile, KUBECONFIG: join(dir, 'kubeconfig.yaml') },
    });

  it('adding `monitoring` while a cluster is deleting neither strands it; a report from monitoring is discarded, visibly', async () => {
    let engine = await start(await entities('before.yaml', ['validation']));
    let api = new DemoApi(engine.engine.url);
    let id: string;
    try {
      id = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'frozen-set', spec: {} })).body.id;
      await eventually('Reconciled', async () =>
        cond((await api.get(`/clusters/${id}`)).body, 'Reconciled')?.status === 'True' ? true : undefined,
      );
      // Hold the deletion across the restart with a pause (no destroy runs while paused, seed 004).
      expect((await api.call('POST', `/clusters/${id}/pause`, { reason: 'hold across the upgrade' })).status).toBe(200);
      const deleted = await api.call('DELETE', `/clusters/${id}`);
      expect(deleted.body).toMatchObject({ deletion_required_adapters: ['validation'] });
    } finally {
      await engine.stop();
    }
    engine = await start(await entities('after.yaml', ['validation', 'monitoring']));
    api = new DemoApi(engine.engine.url);
    try {
      const view = (await api.get(`/clusters/${id}`)).body;
      expect(view.deletion_required_adapters).toEqual(['validation']);
      expect(cond(view, 'Reconciled').message).not.toContain('monitoring');
      // /finalizing names the adapters of the frozen set, not today's configuration.
      const finalizing = ((await (await fetch(`${engine.engine.url}/api/decom/v1/finalizing`)).json()) as { items: any[] }).items.find(
        (f) => f.id === id,
      );
      expect((finalizing.blockers as any[]).filter((b) => b.type === 'AdapterNotFinalized').map((b) => b.adapter)).toEqual(['validation']);
      const discarded = await api.call('PUT', `/clusters/${id}/statuses`, {
        adapter: 'monitoring',
        observed_generation: view.generation,
        observed_time: new Date().toISOString(),
        conditions: ['Applied', 'Available', 'Health', 'Finalized'].map((type) => ({ type, status: 'True' })),
      });
      expect(discarded.status).toBe(204);
      const history = (await api.get(`/resources/${id}/events`)).body.items as any[];
      expect(history.find((e) => e.type === 'AdapterStatusDiscarded')?.data).toMatchObject({
        adapter: 'monitoring',
        reason: 'NotInDeletionAdapterSet',
      });
      expect((await api.call('POST', `/clusters/${id}/unpause`, { reason: 'upgrade done' })).status).toBe(200);
      await eventually('hard-deleted with the frozen set', async () =>
        (await api.get(`/clusters/${id}`)).status === 404 ? true : undefined,
      );
      expect(kube.peek('v1', 'Namespace', undefined, id.toLowerCase())).toBeUndefined();
      // A cluster created under the new config waits for the new set.
      const fresh = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'new-set', spec: {} })).body;
      expect(cond(fresh, 'Reconciled').message).toContain('monitoring');
    } finally {
      await engine.stop();
    }
  }, 60_000);
});
