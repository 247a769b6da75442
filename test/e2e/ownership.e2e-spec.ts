/**
 * Issue #11 through HTTP against the embedded engine with the shipped adapters (config/adapters) and the
 * bundled local Kubernetes API server: objects are found by Decom's ownership marker at deletion, so a
 * Job created under an earlier generation's name is deleted too.
 */
import { resolve } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const cond = (r: any, type: string) => r.status.conditions.find((c: any) => c.type === type);

describe('issue #11 end to end: ownership, leaks', () => {
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    fixture = await startTestEngine({ adaptersDir: resolve('config/adapters') });
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
    await eventually('the cluster is hard-deleted', async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined), 30_000);
    const jobDeletes = kube()
      .requestsMatching({ method: 'DELETE', kind: 'Job' })
      .filter((r) => r.namespace === ns)
      .map((r) => r.name);
    // Each went by its own DELETE (not only by the namespace controller), before the ConfigMap.
    expect(jobDeletes).toEqual(expect.arrayContaining([`validation-${id}-gen1`, `validation-${id}-gen2`]));
    const order = kube()
      .requests.filter((r) => r.method === 'DELETE' && r.namespace === ns || (r.method === 'DELETE' && r.kind === 'Namespace' && r.name === ns))
      .map((r) => r.kind);
    expect(order.lastIndexOf('Job')).toBeLessThan(order.indexOf('ConfigMap'));
    expect(kube().peek('batch/v1', 'Job', ns, `validation-${id}-gen1`)).toBeUndefined();
  }, 60_000);
});
