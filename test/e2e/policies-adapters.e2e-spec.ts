/**
 * Seeds 003/004 on the adapter side, through HTTP against the embedded engine with the shipped adapters
 * (config/adapters) and the bundled local Kubernetes API server: an Orphan deletion completes with the
 * Kubernetes server unreachable, and a pause holds a deletion (no DELETE reaches Kubernetes) until unpause.
 */
import { resolve } from 'node:path';
import { DELETION_WAITS_FOR_UNPAUSE } from '@decom/domain';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import type { AdapterRunObserver } from '@decom/worker';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { REALISTIC_CONTROLLER_DELAY_MS } from '@decom/kube-local';

const cond = (r: any, type: string) => r.status.conditions.find((c: any) => c.type === type);

describe('adapter policies end to end (seeds 003, 004)', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  /** Finished adapter runs, in order: a held deletion is proved by passes that ran and deleted nothing. */
  const runs: Parameters<AdapterRunObserver>[0][] = [];
  const runsOf = (adapter: string, id: string) => runs.filter((run) => run.adapter === adapter && run.job.event.data.id === id).length;

  beforeAll(async () => {
    fixture = await startTestEngine({
      localKube: { controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS },
      adaptersDir: resolve('config/adapters'),
      onAdapterRun: (run) => runs.push(run),
    });
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
    expect(kube().peek('v1', 'Namespace', undefined, id.toLowerCase())).toMatchObject({
      metadata: { annotations: { 'decom.io/owner': `Cluster/${id}/validation` } },
    });
    return id;
  };
  const gone = (id: string) =>
    eventually(`${id} hard-deleted`, async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined));

  it('deletion_policy Orphan: deleted while Kubernetes is unreachable, hard-deleted with an Orphaned event; the Namespace stays', async () => {
    const id = await reconciledCluster('orphan-offline', { deletion_policy: 'Orphan' });
    await kube().stopListening();
    try {
      expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
      await gone(id);
    } finally {
      await kube().startListening();
    }
    const history = (await api.get(`/resources/${id}/events`)).body.items;
    const orphaned = history.find((e: any) => e.type === 'Orphaned');
    expect(orphaned?.data).toMatchObject({
      adapter: 'validation',
      message: expect.stringContaining('ownership marks could not be removed'),
    });
    expect(history.map((e: any) => e.type)).toEqual(
      expect.arrayContaining(['DeletionRequested', 'Orphaned', 'AdapterFinalized', 'HardDeleted']),
    );
    expect(kube().peek('v1', 'Namespace', undefined, id.toLowerCase())).toBeDefined();
    expect(kube().peek('v1', 'ConfigMap', id.toLowerCase(), `cluster-${id}-config`)).toBeDefined();
  }, 30_000);

  it('a pause during the deletion holds it (no DELETE reaches Kubernetes) until unpause', async () => {
    const id = await reconciledCluster('pause-held');
    const ns = id.toLowerCase();
    expect((await api.call('POST', `/clusters/${id}/pause`, { reason: 'INC-9 investigation' })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    const held = await eventually('the adapter reports the hold', async () => {
      const statuses = (await api.get(`/clusters/${id}/statuses`)).body.items as any[];
      const finalized = statuses
        .find((s) => s.adapter === 'validation' && s.observed_generation === 2)
        ?.conditions.find((c: any) => c.type === 'Finalized');
      return finalized?.message === DELETION_WAITS_FOR_UNPAUSE ? finalized : undefined;
    });
    expect(held).toMatchObject({ status: 'False', reason: 'DeletionPaused' });
    // The adapter keeps re-running with backoff (50 ms, 100 ms, ...) while held: two more passes, still no DELETE.
    const passesWhenHeld = runsOf('validation', id);
    await eventually('two more passes of the held adapter', async () =>
      runsOf('validation', id) >= passesWhenHeld + 2 ? true : undefined,
    );
    expect((await api.get(`/clusters/${id}`)).status).toBe(200);
    expect(kube().requestsMatching({ method: 'DELETE', namespace: ns })).toEqual([]);
    expect(kube().requestsMatching({ method: 'DELETE', name: ns })).toEqual([]);
    expect((await api.call('POST', `/clusters/${id}/unpause`, { reason: 'done' })).status).toBe(200);
    await gone(id);
    await kube().settle();
    expect(kube().requestsMatching({ method: 'DELETE', name: ns })).toHaveLength(1);
    expect(kube().peek('v1', 'Namespace', undefined, ns)).toBeUndefined();
  }, 30_000);

  it('a paused nodepool holds its deleting cluster: no Namespace delete (its ConfigMap lives there) until unpause', async () => {
    const id = await reconciledCluster('child-paused');
    const ns = id.toLowerCase();
    const np = (await api.call('POST', `/clusters/${id}/nodepools`, { kind: 'NodePool', name: 'np-held', spec: {} })).body;
    await eventually('nodepool ConfigMap', async () => (kube().peek('v1', 'ConfigMap', ns, `nodepool-${np.id}`) ? true : undefined));
    expect((await api.call('POST', `/nodepools/${np.id}/pause`, { reason: 'keep the pool for INC-12' })).status).toBe(200);
    const deletesBefore = kube().requests.filter((r) => r.method === 'DELETE').length;
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    const view = (await api.get(`/clusters/${id}`)).body;
    expect(cond(view, 'Paused')).toMatchObject({ status: 'True', reason: 'DependentPaused' });
    // The shipped config deletes clusters Foreground: the cluster's adapter is not even dispatched
    // while its nodepool exists; the nodepool's adapter reports the pause hold.
    expect(cond(view, 'DeletionBlocked')).toMatchObject({
      status: 'True',
      reason: 'DependentsExist',
      message: expect.stringContaining(np.id),
    });
    await eventually('the nodepool adapter reports the hold', async () => {
      const statuses = (await api.get(`/nodepools/${np.id}/statuses`)).body.items as any[];
      const finalized = statuses
        .find((s) => s.adapter === 'np-configmap' && s.observed_generation === 2)
        ?.conditions.find((c: any) => c.type === 'Finalized');
      return finalized?.message === DELETION_WAITS_FOR_UNPAUSE ? true : undefined;
    });
    const clusterStatuses = (await api.get(`/clusters/${id}/statuses`)).body.items as any[];
    expect(clusterStatuses.filter((s) => s.observed_generation === 2)).toEqual([]);
    expect(kube().requests.filter((r) => r.method === 'DELETE').length).toBe(deletesBefore);
    expect(kube().peek('v1', 'ConfigMap', ns, `nodepool-${np.id}`)).toBeDefined();
    expect((await api.call('POST', `/nodepools/${np.id}/unpause`, { reason: 'done' })).status).toBe(200);
    await gone(id);
    expect(kube().peek('v1', 'Namespace', undefined, ns)).toBeUndefined();
  }, 30_000);
});
