/**
 * An Orphan nodepool under a Delete cluster, on the shipped layout (config/adapters): np-configmap releases
 * the nodepool's ConfigMap, and the cluster's validation adapter, which owns the Namespace that ConfigMap
 * lives in, must not delete that Namespace (Kubernetes would delete the released ConfigMap with it). It
 * releases the Namespace too and says so in its Finalized message (docs/policies.md "Orphan inside a
 * namespace another adapter deletes"). Embedded engine, bundled Kubernetes server, read with
 * @kubernetes/client-node.
 */
import { join, resolve } from 'node:path';
import { KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { REALISTIC_CONTROLLER_DELAY_MS } from '@decom/kube-local';

const cond = (r: any, type: string) => r?.status?.conditions?.find((c: any) => c.type === type);

describe('Orphan nodepool under a Delete cluster: the Namespace holding its ConfigMap is kept', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  let kube: KubernetesObjectApi;

  beforeAll(async () => {
    fixture = await startTestEngine({
      localKube: { controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS },
      adaptersDir: resolve('config/adapters'),
    });
    api = new DemoApi(fixture.engine.url);
    const kc = new KubeConfig();
    kc.loadFromFile(join(fixture.dataDir, 'kubeconfig'));
    kube = KubernetesObjectApi.makeApiClient(kc);
  });
  afterAll(async () => fixture?.stop());

  /** The object, or undefined on 404 (any other error fails the test). */
  const read = async (apiVersion: string, kind: string, name: string, namespace?: string): Promise<any> => {
    try {
      return await kube.read({ apiVersion, kind, metadata: { name, ...(namespace && { namespace }) } });
    } catch (error) {
      if ((error as { code?: number }).code === 404) return undefined;
      throw error;
    }
  };

  const reconciled = (path: string) =>
    eventually(
      `${path} Reconciled`,
      async () => (cond((await api.get(path)).body, 'Reconciled')?.status === 'True' ? true : undefined),
      30_000,
    );

  it('shipped Foreground deletion: the ConfigMap survives the cluster deletion, and the kept Namespace is reported', async () => {
    const propagation = 'Foreground';
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: `keep-np-${propagation.toLowerCase()}`, spec: {} })).body;
    expect(cluster.deletion_policy).toBe('Delete');
    const ns = String(cluster.id).toLowerCase();
    const created = await api.call('POST', `/clusters/${cluster.id}/nodepools`, {
      kind: 'NodePool',
      name: 'kept-pool',
      spec: {},
      deletion_policy: 'Orphan',
    });
    expect(created.status).toBe(201);
    const np = created.body;
    await reconciled(`/clusters/${cluster.id}`);
    await reconciled(`/nodepools/${np.id}`);
    const configMapName = `nodepool-${np.id}`;
    expect((await read('v1', 'ConfigMap', configMapName, ns))?.metadata.annotations['decom.io/owner']).toBe(
      `NodePool/${np.id}/np-configmap`,
    );

    // The preview says it before anything runs.
    const preview = await api.call('DELETE', `/clusters/${cluster.id}?dryRun=All`);
    expect(preview.status).toBe(200);
    const previewed = (preview.body.resources as any[]).find((r) => r.id === np.id);
    expect(previewed).toMatchObject({
      deletion_policy: 'Orphan',
      notes: [expect.stringContaining('is kept (released, not deleted) while it holds objects')],
    });
    expect((preview.body.resources as any[]).find((r) => r.id === cluster.id).notes).toBeUndefined();

    expect((await api.call('DELETE', `/clusters/${cluster.id}?propagationPolicy=${propagation}`)).status).toBe(202);
    await eventually(
      `cluster ${cluster.id} hard-deleted`,
      async () => ((await api.get(`/clusters/${cluster.id}`)).status === 404 ? true : undefined),
      30_000,
    );

    // The promise "Orphan keeps it" holds: the ConfigMap is there, released (no owner mark, a release marker).
    const configMap = await read('v1', 'ConfigMap', configMapName, ns);
    expect(configMap).toBeDefined();
    expect(configMap.metadata.deletionTimestamp).toBeUndefined();
    expect(configMap.metadata.annotations['decom.io/owner']).toBeUndefined();
    expect(configMap.metadata.annotations['decom.io/released-from']).toBe(`NodePool/${np.id}/np-configmap`);
    // So is its Namespace, released by the validation adapter instead of deleted; the cluster's own objects are gone.
    const namespace = await read('v1', 'Namespace', ns);
    expect(namespace).toBeDefined();
    expect(namespace.metadata.deletionTimestamp).toBeUndefined();
    expect(namespace.metadata.annotations['decom.io/owner']).toBeUndefined();
    expect(namespace.metadata.annotations['decom.io/released-from']).toBe(`Cluster/${cluster.id}/validation`);
    expect(await read('v1', 'ConfigMap', `cluster-${cluster.id}-config`, ns)).toBeUndefined();

    // Never silently: the validation adapter's Finalized=True names the Namespace and the object it keeps.
    const history = (await api.get(`/resources/${cluster.id}/events`)).body.items as any[];
    const finalized = history
      .filter((e) => e.type === 'AdapterStatusReported' && e.data.status.adapter === 'validation')
      .map((e) => e.data.status.conditions.find((c: any) => c.type === 'Finalized'))
      .filter((c) => c?.status === 'True');
    expect(finalized.length).toBeGreaterThan(0);
    expect(finalized.at(-1).message).toContain(`Namespace ${ns} kept (released, not deleted)`);
    expect(finalized.at(-1).message).toContain(`ConfigMap ${ns}/${configMapName}`);
    expect(history.map((e) => e.type)).toContain('HardDeleted');
    // The releasing side says where it recorded the object.
    const npHistory = (await api.get(`/resources/${np.id}/events`)).body.items as any[];
    const orphaned = npHistory.find((e) => e.type === 'Orphaned');
    expect(orphaned?.data.message).toContain(`recorded on its Namespace ${ns}`);
  }, 90_000);

  it('propagationPolicy Background: the Namespace owner may run first; whatever the order, nothing is lost silently', async () => {
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'keep-np-background', spec: {} })).body;
    const ns = String(cluster.id).toLowerCase();
    const np = (
      await api.call('POST', `/clusters/${cluster.id}/nodepools`, {
        kind: 'NodePool',
        name: 'kept-pool-bg',
        spec: {},
        deletion_policy: 'Orphan',
      })
    ).body;
    await reconciled(`/clusters/${cluster.id}`);
    await reconciled(`/nodepools/${np.id}`);
    expect((await api.call('DELETE', `/clusters/${cluster.id}?propagationPolicy=Background`)).status).toBe(202);
    await eventually(
      `cluster ${cluster.id} hard-deleted`,
      async () => ((await api.get(`/clusters/${cluster.id}`)).status === 404 ? true : undefined),
      30_000,
    );
    const namespace = await read('v1', 'Namespace', ns);
    const orphaned = ((await api.get(`/resources/${np.id}/events`)).body.items as any[]).find((e) => e.type === 'Orphaned');
    if (namespace && !namespace.metadata.deletionTimestamp) {
      // The release ran first: kept, as under Foreground.
      expect(await read('v1', 'ConfigMap', `nodepool-${np.id}`, ns)).toBeDefined();
      expect(orphaned?.data.message).toContain(`recorded on its Namespace ${ns}`);
    } else {
      // The Namespace owner ran first: the loss is reported by the releasing adapter.
      expect(orphaned?.data.message).toMatch(
        new RegExp(`LOST: its Namespace ${ns} is being deleted|its Namespace ${ns} was not found|nothing to leave in place`),
      );
    }
  }, 90_000);
});
