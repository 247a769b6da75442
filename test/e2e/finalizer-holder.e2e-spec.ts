/**
 * A deletion held by a Kubernetes finalizer names what holds it: the shipped validation adapter reports the
 * object it waits on (`data.holding`), and `/finalizing` (REST and GraphQL) shows its kind, namespace, name,
 * finalizers and since when, on the `AdapterNotFinalized` blocker. Embedded engine, config/adapters, the
 * bundled Kubernetes server, the finalizer set and removed through @kubernetes/client-node.
 */
import { join, resolve } from 'node:path';
import { KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { REALISTIC_CONTROLLER_DELAY_MS } from '@decom/kube-local';

describe('a deletion held by a finalizer names the object and the finalizer', () => {
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    fixture = await startTestEngine({
      localKube: { controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS },
      adaptersDir: resolve('config/adapters'),
    });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  const finalizing = async (id: string) => {
    const response = await fetch(`${fixture.engine.url}/api/decom/v1/finalizing`);
    return ((await response.json()) as { items: any[] }).items.find((i) => i.id === id);
  };
  const graphql = async (query: string) =>
    (await (
      await fetch(`${fixture.engine.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      })
    ).json()) as any;

  it('REST /finalizing and GraphQL name the ConfigMap, its namespace and example.com/hold; removing it completes the deletion', async () => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'held-by-finalizer', spec: {} })).body.id;
    await eventually('Reconciled', async () =>
      (await api.get(`/clusters/${id}`)).body.status.conditions.some((c: any) => c.type === 'Reconciled' && c.status === 'True')
        ? true
        : undefined,
    );
    const kc = new KubeConfig();
    kc.loadFromFile(join(fixture.dataDir, 'kubeconfig'));
    const kube = KubernetesObjectApi.makeApiClient(kc);
    const namespace = id.toLowerCase();
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cluster-${id}-config`, namespace } };
    const setFinalizers = (finalizers: string[]) =>
      kube.patch(
        { ...configMap, metadata: { ...configMap.metadata, finalizers } },
        undefined,
        undefined,
        undefined,
        undefined,
        'application/merge-patch+json' as never,
      );
    await setFinalizers(['example.com/hold']);
    try {
      expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
      const adapter = await eventually('the holder on the AdapterNotFinalized blocker', async () =>
        (await finalizing(id))?.blockers.find((b: any) => b.type === 'AdapterNotFinalized' && b.holding?.length > 0),
      );
      const deletionTimestamp = (await kube.read(configMap)).metadata?.deletionTimestamp;
      expect(deletionTimestamp).toBeDefined();
      expect(adapter).toMatchObject({
        adapter: 'validation',
        reported: true,
        finalized: { status: 'False' },
        holding: [
          { kind: 'ConfigMap', namespace, name: `cluster-${id}-config`, finalizers: ['example.com/hold'], since: expect.any(String) },
        ],
        message: `validation: waiting for ConfigMap ${namespace}/cluster-${id}-config (finalizers: example.com/hold, since ${adapter.holding[0].since})`,
      });
      // since is the object's deletionTimestamp (client-node reads it as a Date).
      expect(Date.parse(adapter.holding[0].since)).toBe(new Date(deletionTimestamp!).getTime());

      const gql = await graphql(
        `{ finalizing(blocker: ["AdapterNotFinalized"], size: 10) { id blockers { type message adapter holding { kind namespace name finalizers since } } } }`,
      );
      expect(gql.errors).toBeUndefined();
      const row = gql.data.finalizing.find((f: any) => f.id === id);
      expect(row.blockers.find((b: any) => b.type === 'AdapterNotFinalized')).toEqual({
        type: 'AdapterNotFinalized',
        adapter: 'validation',
        message: adapter.message,
        holding: [
          { kind: 'ConfigMap', namespace, name: `cluster-${id}-config`, finalizers: ['example.com/hold'], since: adapter.holding[0].since },
        ],
      });
      // The adapter's own report keeps it in its free data, next to the conditions.
      const statuses = (await api.get(`/clusters/${id}/statuses`)).body.items as any[];
      expect(statuses.find((s) => s.adapter === 'validation').data).toEqual({
        holding: [
          {
            kind: 'ConfigMap',
            namespace,
            name: `cluster-${id}-config`,
            finalizers: ['example.com/hold'],
            deletion_timestamp: adapter.holding[0].since,
          },
        ],
      });
    } finally {
      await setFinalizers([]);
    }
    await eventually('the hard delete', async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined), 30_000);
    expect(await finalizing(id)).toBeUndefined();
  }, 90_000);
});
