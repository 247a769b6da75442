/**
 * Kubernetes back, seen by two `decom worker` processes at once (docs/operations.md "Kubernetes back"):
 * `decom api` in this process, two real workers on one Redis and the bundled Kubernetes server, which
 * stops listening while a cluster's DELETE runs. Both workers' probes see the API server return and both
 * promote what backs off because of it: the backed-off run is made due once (the two log lines add up to
 * one re-queued run), it runs once more and the cluster is gone within seconds of the recovery, well
 * before the slot its retry was waiting for.
 */
import { randomUUID } from 'node:crypto';
import { Job as BullJob, Queue } from 'bullmq';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startWorkerTopology, type WorkerTopology } from './support/worker-topology.js';
import { spawnDecom, type DecomProcess } from './support/decom-process.js';

/** Failed tries before Kubernetes comes back: the next retry is then 16 s ±20% away (at least 12.8 s). */
const FAILED_TRIES = 6;

describe('decom worker processes (BullMQ): Kubernetes back, backed-off runs promoted once', () => {
  let topology: WorkerTopology;
  const prefix = `decom-e2e-${randomUUID()}`;

  beforeAll(async () => {
    topology = await startWorkerTopology({ prefix, lockMs: 5_000 });
  }, 60_000);
  afterAll(async () => topology?.stop());

  const startWorker = async (): Promise<DecomProcess> => {
    const worker = spawnDecom(['worker', '--adapters', 'validation', '--concurrency', '2'], topology.workerEnv);
    topology.workers.push(worker);
    await worker.waitFor(/worker ready: validation/, 45_000);
    return worker;
  };
  const requeuedBy = (worker: DecomProcess): number[] =>
    worker
      .output()
      .split('\n')
      .flatMap((line) => {
        const match = /kubernetes reachable again: (\d+) backed-off adapter runs re-queued/.exec(line);
        return match ? [Number(match[1])] : [];
      });

  it('two workers see the recovery; the backed-off DELETE run is promoted once and the cluster is gone within seconds', async () => {
    const api = new DemoApi(topology.fixture.engine.url);
    const workers = await Promise.all([startWorker(), startWorker()]);
    const id = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'kube-back-workers', spec: {} })).body.id as string;
    await eventually(
      'cluster Reconciled=True',
      async () =>
        (await api.get(`/clusters/${id}`)).body.status?.conditions?.some(
          (c: { type: string; status: string }) => c.type === 'Reconciled' && c.status === 'True',
        )
          ? true
          : undefined,
      30_000,
    );
    const queue = new Queue('adapter-run.validation', { connection: { url: topology.redis.url }, prefix });
    try {
      await topology.kube.stopListening();
      const jobId = `validation.cluster-${id}.gen-2`;
      /** When the last failed try was seen: its retry's slot is at least 12.8 s later. */
      let seen = 0;
      try {
        expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
        await eventually(
          `${FAILED_TRIES} failed tries of the DELETE's run`,
          async () => {
            const job = await BullJob.fromId(queue, jobId);
            if (!job || job.attemptsMade < FAILED_TRIES || (await job.getState()) !== 'delayed') return undefined;
            seen = Date.now();
            return true;
          },
          40_000,
          50,
        );
        // Both workers saw the outage before it ends.
        for (const worker of workers) await worker.waitFor(/dependency kubernetes down/, 10_000);
      } finally {
        await topology.kube.startListening();
      }
      await eventually(
        'cluster hard-deleted (404)',
        async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
        20_000,
        100,
      );
      const gone = Date.now();
      expect(gone).toBeLessThan(seen + 12_000);
      for (const worker of workers) await worker.waitFor(/kubernetes reachable again: \d+ backed-off adapter runs re-queued/, 10_000);
      const counts = workers.map(requeuedBy);
      expect(counts.map((c) => c.length)).toEqual([1, 1]);
      expect(counts.flat().reduce((a, b) => a + b, 0)).toBe(1);
      expect(await (await BullJob.fromId(queue, jobId))?.getState()).toBe('completed');
    } finally {
      await queue.close();
    }
  }, 150_000);
});
