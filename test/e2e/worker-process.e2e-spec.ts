/**
 * `decom api` in this process and real `decom worker` child processes on one Redis (recovery):
 * a worker killed with SIGKILL in the middle of a deletion run loses nothing. BullMQ's stalled-job check
 * in the next worker hands the job over once the dead worker's lock expired (DECOM_JOB_LOCK_MS=2000),
 * and the deletion completes: GET answers 404.
 */
import { randomUUID } from 'node:crypto';
import { Job as BullJob, Queue } from 'bullmq';
import { BullMqJobQueue, TerminalError } from '@decom/jobs';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startWorkerTopology, type WorkerTopology } from './support/worker-topology.js';
import { spawnDecom, type DecomProcess } from './support/decom-process.js';

describe('decom worker processes (BullMQ): kill -9 mid-job', () => {
  let topology: WorkerTopology;
  const prefix = `decom-e2e-${randomUUID()}`;

  beforeAll(async () => {
    topology = await startWorkerTopology({ prefix, lockMs: 2000 });
  }, 60_000);
  afterAll(async () => topology?.stop());

  const startWorker = async () => {
    const worker = spawnDecom(['worker', '--adapters', 'validation', '--concurrency', '2'], topology.workerEnv);
    topology.workers.push(worker);
    await worker.waitFor(/worker ready: validation/, 45_000);
    return worker;
  };

  it('a worker killed mid-deletion: another worker recovers the stalled job and the cluster is hard-deleted', async () => {
    const api = new DemoApi(topology.fixture.engine.url);
    const first = await startWorker();
    const created = await api.call('POST', '/clusters', { kind: 'Cluster', name: 'kill-9-test', spec: {} });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const ns = id.toLowerCase();
    await eventually('the first worker provisioned the cluster (Reconciled=True)', async () => {
      const conditions = (await api.get(`/clusters/${id}`)).body.status.conditions as { type: string; status: string }[];
      return conditions.find((c) => c.type === 'Reconciled')?.status === 'True' || undefined;
    });
    expect(topology.kube.peek('v1', 'Namespace', undefined, ns)).toBeDefined();

    // Hold the deletion run's first Kubernetes call, so the job is surely in flight when the worker dies.
    const hold = topology.kube.faults.add({ pathPattern: ns, delayMs: 5_000, times: 1 });
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    const queue = new Queue('adapter-run.validation', { connection: { url: topology.redis.url }, prefix });
    try {
      const jobId = `validation.cluster-${id}.gen-2`;
      await eventually(
        'the deletion job is active in the first worker',
        async () => (hold.hits >= 1 && (await queue.getJobState(jobId)) === 'active') || undefined,
      );
      first.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');

      const started = Date.now();
      await startWorker();
      await eventually(
        'the cluster is hard-deleted (GET 404)',
        async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
        30_000,
        100,
      );
      const job = await BullJob.fromId(queue, jobId);
      expect(await job?.getState()).toBe('completed');
      // Started once by the killed worker, once more after the stalled-job check handed it over.
      expect(job?.attemptsStarted).toBeGreaterThanOrEqual(2);
      expect(await queue.getFailedCount()).toBe(0);
      expect(topology.kube.peek('v1', 'Namespace', undefined, ns)).toBeUndefined();
      // The dead worker's job lock had to expire first (2 s), so the handover cannot have been instant.
      expect(Date.now() - started).toBeGreaterThan(1_000);
      const events = (await topology.fixture.engine.store.readStream(`cluster-${id}`)).map((e) => e.type);
      expect(events.filter((t) => t === 'HardDeleted')).toHaveLength(1);
    } finally {
      await queue.close();
    }
  }, 90_000);

  it('decom jobs failed / decom jobs retry: an operator lists a dead letter and sends it back', async () => {
    const queue = new BullMqJobQueue({ url: topology.redis.url, prefix });
    let fixed = false;
    let runs = 0;
    queue.process('adapter-run.cli-test', async () => {
      runs += 1;
      if (!fixed) throw new TerminalError('task config: unknown identifier clustr');
    });
    const cli = async (...args: string[]) => {
      // `--redis`: this is the direct BullMQ path (the API path is test/e2e/dead-letters.e2e-spec.ts), whatever DECOM_API_URL the shell has.
      const run = spawnDecom(['jobs', ...args, '--redis'], {
        REDIS_URL: topology.redis.url,
        DECOM_QUEUE_PREFIX: prefix,
        LOG_LEVEL: 'silent',
      });
      topology.workers.push(run);
      return { code: await run.exited, output: run.output() };
    };
    try {
      await queue.enqueue('adapter-run.cli-test', 'validation.cluster-c1.gen-2', { n: 1 });
      await queue.idle();
      const listed = await cli('failed');
      expect(listed.code).toBe(0);
      expect(listed.output).toMatch(/adapter-run\.cli-test {2}validation\.cluster-c1\.gen-2 {2}attempts=1 {2}.*unknown identifier clustr/);
      const json = (await cli('failed', '--queue', 'adapter-run.cli-test', '--json')).output
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(json).toEqual([
        expect.objectContaining({ queue: 'adapter-run.cli-test', id: 'validation.cluster-c1.gen-2', data: { n: 1 }, attempts: 1 }),
      ]);

      fixed = true;
      expect(await cli('retry', 'adapter-run.cli-test', 'validation.cluster-c1.gen-2')).toEqual({
        code: 0,
        output: expect.stringContaining('retrying'),
      });
      await eventually('the retried job ran', async () => (runs === 2 ? true : undefined));
      await queue.idle();
      expect(await queue.failed()).toEqual([]);
      expect(await cli('retry', 'adapter-run.cli-test', 'validation.cluster-c1.gen-2')).toEqual({
        code: 1,
        output: expect.stringContaining('no failed job'),
      });
    } finally {
      await queue.close();
    }
  }, 60_000);
});
