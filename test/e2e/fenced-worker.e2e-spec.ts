/**
 * Fencing, with real processes: `decom api` in this process, real `decom worker` processes
 * from the built binary (`npm run build`, done by ensureBuilt when dist/ is stale) on one Redis (keys
 * under a fresh prefix), the bundled Kubernetes API server.
 *
 * Worker A starts provisioning a nodepool's ConfigMap and is frozen (SIGSTOP) while its discovery call
 * is in flight, longer than its job lock (DECOM_JOB_LOCK_MS=1000). The nodepool is deleted; worker B
 * takes over, confirms there is nothing to clean up and the nodepool is hard-deleted. Then A resumes
 * (SIGCONT) with its stale view ("absent, create it"): its fence check refuses the create and the run
 * stops. Nothing exists for the hard-deleted nodepool.
 */
import { randomUUID } from 'node:crypto';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startWorkerTopology, type WorkerTopology } from './support/worker-topology.js';
import { spawnDecom, type DecomProcess } from './support/decom-process.js';
import { ensureBuilt } from './support/ensure-built.js';

describe('Fencing: a worker frozen past its job lock writes nothing after the end', () => {
  let topology: WorkerTopology;
  const prefix = `decom-fence-${randomUUID()}`;

  beforeAll(async () => {
    ensureBuilt();
    topology = await startWorkerTopology({ prefix, lockMs: 1000 });
  }, 240_000);
  afterAll(async () => topology?.stop());

  const startWorker = async (adapters: string) => {
    const worker = spawnDecom(['worker', '--adapters', adapters, '--concurrency', '2'], topology.workerEnv, { built: true });
    topology.workers.push(worker);
    await worker.waitFor(/worker ready/, 45_000);
    return worker;
  };

  it('SIGSTOP past the lock, another worker finishes the deletion, SIGCONT: no ConfigMap is created', async () => {
    const api = new DemoApi(topology.fixture.engine.url);
    const a = await startWorker('validation,np-configmap');
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'fence-test', spec: {} })).body;
    const ns = String(cluster.id).toLowerCase();
    await eventually('the cluster is provisioned (Reconciled=True)', async () => {
      const conditions = (await api.get(`/clusters/${cluster.id}`)).body.status.conditions as { type: string; status: string }[];
      return conditions.find((c) => c.type === 'Reconciled')?.status === 'True' || undefined;
    });

    // Hold worker A's first look at the nodepool ConfigMap, so the run is surely in flight when frozen.
    const hold = topology.kube.faults.add({
      verb: 'get',
      kind: 'ConfigMap',
      pathPattern: '/configmaps/nodepool-',
      delayMs: 3_000,
      times: 1,
    });
    const created = await api.call('POST', `/clusters/${cluster.id}/nodepools`, { kind: 'NodePool', name: 'np-fence', spec: {} });
    expect(created.status).toBe(201);
    const np: string = created.body.id;
    const configMap = `nodepool-${np}`;
    await eventually('worker A is discovering the ConfigMap', async () => (hold.hits >= 1 ? true : undefined), 20_000, 10);
    a.kill('SIGSTOP');

    expect((await api.call('DELETE', `/clusters/${cluster.id}/nodepools/${np}`)).status).toBe(202);
    await startWorker('np-configmap');
    await eventually(
      'worker B finished the deletion: the nodepool is hard-deleted (404)',
      async () => ((await api.get(`/nodepools/${np}`)).status === 404 ? true : undefined),
      30_000,
      100,
    );
    expect(topology.kube.peek('v1', 'ConfigMap', ns, configMap)).toBeUndefined();

    const resumedAt = topology.kube.requests.length;
    a.kill('SIGCONT');
    await a.waitFor(/run stopped, fence lost/, 20_000);
    expect(a.output()).toMatch(/run stopped, fence lost: the run lost its lock/);

    // Nothing was written for the hard-deleted nodepool after A resumed, and nothing exists.
    const writesAfterResume = topology.kube.requests
      .slice(resumedAt)
      .filter((r) => r.method !== 'GET' && r.kind === 'ConfigMap' && r.namespace === ns);
    expect(writesAfterResume).toEqual([]);
    expect(topology.kube.peek('v1', 'ConfigMap', ns, configMap)).toBeUndefined();
    const history = (await api.get(`/resources/${np}/events`)).body.items as { type: string }[];
    expect(history.filter((e) => e.type === 'HardDeleted')).toHaveLength(1);
    expect(history.at(-1)?.type).toBe('HardDeleted');
  }, 120_000);
});
