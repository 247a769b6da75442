/**
 * Issue #11 "Fencing", with real processes: `decom api` in this process, real `decom worker` processes
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
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLocalKube, type LocalKube } from '@decom/kube-local';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { useRedis, type RedisForTests } from '../support/redis.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { spawnDecom, type DecomProcess } from './support/decom-process.js';
import { ensureBuilt } from './support/ensure-built.js';

describe('issue #11 › Fencing: a worker frozen past its job lock writes nothing after the end', () => {
  let redis: RedisForTests;
  let kube: LocalKube;
  let fixture: EngineFixture;
  let folder: string;
  let workerEnv: Record<string, string>;
  const prefix = `decom-fence-${randomUUID()}`;
  const workers: DecomProcess[] = [];

  beforeAll(async () => {
    ensureBuilt();
    redis = await useRedis();
    kube = await startLocalKube();
    folder = await mkdtemp(join(tmpdir(), 'decom-fence-'));
    await writeFile(join(folder, 'kubeconfig.yaml'), kube.kubeconfigYaml());
    const queueEnv = { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: prefix, DECOM_JOB_LOCK_MS: '1000' };
    // No rule sweeps during the test: only the queue's own hand-over moves the work.
    fixture = await startTestEngine({ role: 'api', env: queueEnv, sweep: { intervalMs: 60_000, debounceMs: 600_000 } });
    workerEnv = {
      ...queueEnv,
      DECOM_API_URL: fixture.engine.url,
      KUBECONFIG: join(folder, 'kubeconfig.yaml'),
      DECOM_ADAPTERS_DIR: resolve('config/adapters'),
      DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
      LOG_LEVEL: 'info',
      // Two workers on one machine: each its own free metrics port.
      DECOM_METRICS_PORT: '0',
    };
  }, 240_000);

  afterAll(async () => {
    for (const worker of workers) {
      worker.kill('SIGCONT');
      worker.kill('SIGKILL');
    }
    await Promise.all(workers.map((w) => w.exited));
    await fixture?.stop();
    await kube?.close();
    await redis?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const startWorker = async (adapters: string) => {
    const worker = spawnDecom(['worker', '--adapters', adapters, '--concurrency', '2'], workerEnv, { built: true });
    workers.push(worker);
    await worker.waitFor(/worker ready/, 45_000);
    return worker;
  };

  it('SIGSTOP past the lock, another worker finishes the deletion, SIGCONT: no ConfigMap is created', async () => {
    const api = new DemoApi(fixture.engine.url);
    const a = await startWorker('validation,np-configmap');
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'fence-test', spec: {} })).body;
    const ns = String(cluster.id).toLowerCase();
    await eventually('the cluster is provisioned (Reconciled=True)', async () => {
      const conditions = (await api.get(`/clusters/${cluster.id}`)).body.status.conditions as { type: string; status: string }[];
      return conditions.find((c) => c.type === 'Reconciled')?.status === 'True' || undefined;
    });

    // Hold worker A's first look at the nodepool ConfigMap, so the run is surely in flight when frozen.
    const hold = kube.faults.add({ verb: 'get', kind: 'ConfigMap', pathPattern: '/configmaps/nodepool-', delayMs: 3_000, times: 1 });
    const created = await api.call('POST', `/clusters/${cluster.id}/nodepools`, { kind: 'NodePool', name: 'np-fence', spec: {} });
    expect(created.status).toBe(201);
    const np: string = created.body.id;
    const configMap = `nodepool-${np}`;
    await eventually('worker A is discovering the ConfigMap', async () => (hold.hits >= 1 ? true : undefined), 20_000, 10);
    a.kill('SIGSTOP');

    expect((await api.call('DELETE', `/clusters/${cluster.id}/nodepools/${np}`)).status).toBe(202);
    await startWorker('np-configmap');
    await eventually('worker B finished the deletion: the nodepool is hard-deleted (404)', async () => ((await api.get(`/nodepools/${np}`)).status === 404 ? true : undefined), 30_000, 100);
    expect(kube.peek('v1', 'ConfigMap', ns, configMap)).toBeUndefined();

    const resumedAt = kube.requests.length;
    a.kill('SIGCONT');
    await a.waitFor(/run stopped, fence lost/, 20_000);
    expect(a.output()).toMatch(/run stopped, fence lost: the run lost its lock/);

    // Nothing was written for the hard-deleted nodepool after A resumed, and nothing exists.
    const writesAfterResume = kube.requests.slice(resumedAt).filter((r) => r.method !== 'GET' && r.kind === 'ConfigMap' && r.namespace === ns);
    expect(writesAfterResume).toEqual([]);
    expect(kube.peek('v1', 'ConfigMap', ns, configMap)).toBeUndefined();
    const history = (await api.get(`/resources/${np}/events`)).body.items as { type: string }[];
    expect(history.filter((e) => e.type === 'HardDeleted')).toHaveLength(1);
    expect(history.at(-1)?.type).toBe('HardDeleted');
  }, 120_000);
});
