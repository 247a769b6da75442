/**
 * The engine on BullMQ and a real Redis: dispatch on each trigger, the adapter error taxonomy
 * end to end (transient → retried with backoff; terminal → reported, dead-lettered, retried by an
 * operator), and recovery after Redis loses its data (FLUSHALL) within one sweep interval.
 * Redis: always a throw-away `redis-server` of its own (the FLUSHALL test wipes it), never REDIS_URL.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { Job as BullJob, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { useThrowAwayRedis, type RedisForTests } from '../support/redis.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { statusReport, FINALIZED } from '../support/status-reports.js';

let redis: RedisForTests;
beforeAll(async () => {
  redis = await useThrowAwayRedis();
});
afterAll(async () => redis?.stop());

const report = statusReport;
const condition = (resource: { status: { conditions: { type: string; status: string }[] } }, type: string) =>
  resource.status.conditions.find((c) => c.type === type);

/** Ids of every job a BullMQ queue holds, whatever its state. */
async function jobIds(queue: Queue): Promise<string[]> {
  return (await queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'])).map((j) => j?.id ?? '');
}

describe('dispatch on BullMQ (decom api; the test plays the adapters)', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  const prefix = `decom-e2e-${randomUUID()}`;
  const queues: Record<string, Queue> = {};
  const queue = (name: string) => (queues[name] ??= new Queue(name, { connection: { url: redis.url }, prefix }));

  beforeAll(async () => {
    fixture = await startTestEngine({
      role: 'api',
      env: { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: prefix },
      sweep: { intervalMs: 60_000, debounceMs: 600_000 },
    });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => {
    await Promise.all(Object.values(queues).map((q) => q.close()));
    await fixture?.stop();
  });

  it('enqueues a job on each trigger: create, spec change, DELETE, Finalized report, child hard delete', async () => {
    // The create's W3C trace id travels with the job it triggers.
    const traceId = randomUUID().replace(/-/g, '');
    const traceparent = `00-${traceId}-${'a'.repeat(16)}-01`;
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'dispatch-1', spec: { region: 'eu' } }, { traceparent }))
      .body;
    const c = cluster.id as string;
    const validation = queue('adapter-run.validation');
    const hardDelete = queue('hard-delete');
    const has = (q: Queue, pattern: RegExp) => async () => ((await jobIds(q)).some((id) => pattern.test(id)) ? true : undefined);

    await eventually('adapter run for the created cluster', has(validation, new RegExp(`^validation\\.cluster-${c}\\.gen-1$`)));
    const payload = (await BullJob.fromId(validation, `validation.cluster-${c}.gen-1`))!.data.data;
    expect(payload).toEqual({
      adapter: 'validation',
      rerun: 0,
      trace_id: traceId,
      event: expect.objectContaining({
        specversion: '1.0',
        type: 'com.redhat.hyperfleet.cluster.reconcile',
        source: 'decom',
        id: `validation.cluster-${c}.gen-1`,
        data: { id: c, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${c}`, generation: 1 },
      }),
    });

    expect((await api.call('PATCH', `/clusters/${c}`, { spec: { region: 'us' } })).status).toBe(200);
    await eventually('adapter run for the spec change (generation 2)', has(validation, new RegExp(`^validation\\.cluster-${c}\\.gen-2$`)));

    const np = (await api.call('POST', `/clusters/${c}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} })).body.id as string;
    const npRuns = queue('adapter-run.np-configmap');
    await eventually('adapter run for the created nodepool', has(npRuns, new RegExp(`^np-configmap\\.nodepool-${np}\\.gen-1$`)));
    expect((await BullJob.fromId(npRuns, `np-configmap.nodepool-${np}.gen-1`))!.data.data.event.data.owner_references).toEqual({
      id: c,
      kind: 'Cluster',
      href: `/api/hyperfleet/v1/clusters/${c}`,
    });

    expect((await api.call('DELETE', `/clusters/${c}`)).status).toBe(202);
    // The shipped config deletes clusters Foreground: the cascaded nodepool's run now, the cluster's
    // only once the nodepool is hard-deleted.
    await eventually(
      'adapter run for the DELETE (the cascaded nodepool)',
      has(npRuns, new RegExp(`^np-configmap\\.nodepool-${np}\\.gen-2$`)),
    );
    await eventually('hard-delete checks for the DELETE', async () => {
      const ids = await jobIds(hardDelete);
      return ids.some((id) => new RegExp(`^hard-delete\\.cluster-${c}\\.deletion-\\d+$`).test(id)) &&
        ids.some((id) => new RegExp(`^hard-delete\\.nodepool-${np}\\.deletion-\\d+$`).test(id))
        ? true
        : undefined;
    });

    // Held while the nodepool exists (DeletionBlocked=True/DependentsExist).
    expect(await jobIds(validation)).not.toContain(`validation.cluster-${c}.gen-3`);
    // The nodepool's adapter reports Finalized → a hard-delete check → HardDeleted → the parent is re-checked.
    expect((await api.call('PUT', `/clusters/${c}/nodepools/${np}/statuses`, report('np-configmap', 2, FINALIZED))).status).toBe(201);
    await eventually(
      'hard-delete check for the Finalized report',
      has(hardDelete, new RegExp(`^hard-delete\\.nodepool-${np}\\.finalized-\\d+$`)),
    );
    await eventually('the nodepool is hard-deleted', async () => ((await api.get(`/nodepools/${np}`)).status === 404 ? true : undefined));
    await eventually(
      'the parent is re-checked after its child went',
      has(hardDelete, new RegExp(`^hard-delete\\.cluster-${c}\\.child-\\d+$`)),
    );
    await eventually(
      'the cluster adapter is released once its child is gone',
      has(validation, new RegExp(`^validation\\.cluster-${c}\\.gen-3$`)),
    );
    expect((await api.get(`/clusters/${c}`)).status).toBe(200);

    expect((await api.call('PUT', `/clusters/${c}/statuses`, report('validation', 3, FINALIZED))).status).toBe(201);
    await eventually('the cluster is hard-deleted', async () => ((await api.get(`/clusters/${c}`)).status === 404 ? true : undefined));
    // Facts replayed (same ids) enqueue nothing new: one adapter run per generation.
    expect((await jobIds(validation)).filter((id) => id.startsWith(`validation.cluster-${c}.`)).sort()).toEqual(
      [1, 2, 3].map((g) => `validation.cluster-${c}.gen-${g}`),
    );
  });
});

describe('adapters on BullMQ (decom start with REDIS_URL): error taxonomy and recovery', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  const prefix = `decom-e2e-${randomUUID()}`;
  const sweepIntervalMs = 1_500;
  let runs: Queue;

  beforeAll(async () => {
    fixture = await startTestEngine({
      adaptersDir: resolve('config/adapters'),
      env: { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: prefix },
      // A 10-minute debounce keeps rule sweeps out of these tests: only retries and recovery sweeps act.
      sweep: { intervalMs: sweepIntervalMs, debounceMs: 600_000 },
    });
    api = new DemoApi(fixture.engine.url);
    runs = new Queue('adapter-run.validation', { connection: { url: redis.url }, prefix });
  });
  afterAll(async () => {
    await runs?.close();
    await fixture?.stop();
  });

  const provisionedCluster = async (name: string) => {
    const id = (await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: {} })).body.id as string;
    await eventually(`${name} Reconciled=True`, async () =>
      condition((await api.get(`/clusters/${id}`)).body, 'Reconciled')?.status === 'True' ? true : undefined,
    );
    return { id, ns: id.toLowerCase() };
  };
  const gone = (id: string, timeoutMs = 20_000) =>
    eventually(
      `cluster ${id} hard-deleted (GET 404)`,
      async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
      timeoutMs,
      50,
    );

  it('retries a transient failure (Kubernetes 503) with backoff, then completes the deletion', async () => {
    const { id, ns } = await provisionedCluster('transient-1');
    const outage = fixture.engine.localKube!.faults.add({
      method: 'DELETE',
      kind: 'Namespace',
      name: ns,
      status: 503,
      reason: 'ServiceUnavailable',
      times: 2,
    });
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    await gone(id);
    expect(outage.hits).toBe(2);
    // The namespace goes last (Job → ConfigMap → Namespace). The two 503s are retried with a growing delay:
    // by the job's own attempts (0.5 s, 1 s ±20 %) or, when the run already reported, by the adapter's
    // re-run backoff; which one depends on timing, the growing delay and the completion do not.
    const deletes = fixture.engine
      .localKube!.requestsMatching({ method: 'DELETE', kind: 'Namespace', name: ns })
      .map((r) => Date.parse(r.time));
    expect(deletes).toHaveLength(3);
    expect(deletes[1]! - deletes[0]!).toBeGreaterThanOrEqual(200);
    expect(deletes[2]! - deletes[1]!).toBeGreaterThan(deletes[1]! - deletes[0]!);
    expect(await fixture.engine.queue.failed('adapter-run.validation')).toEqual([]);
  });

  it('fails a terminal error (Kubernetes 403) at once: reported on the resource, dead-lettered, retried by an operator', async () => {
    const { id, ns } = await provisionedCluster('terminal-1');
    const forbidden = fixture.engine.localKube!.faults.add({
      method: 'DELETE',
      kind: 'Namespace',
      name: ns,
      status: 403,
      reason: 'Forbidden',
      message: 'RBAC: adapter may not delete',
    });
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    const dead = await eventually('the job in the dead-letter set', async () =>
      (await fixture.engine.queue.failed('adapter-run.validation')).find((f) => f.id.startsWith(`validation.cluster-${id}.gen-2`)),
    );
    const jobId = dead.id;
    expect(dead).toMatchObject({ attempts: 1, error: expect.stringContaining('Forbidden') });
    const statuses = (await api.get(`/clusters/${id}/statuses`)).body.items as {
      adapter: string;
      conditions: { type: string; status: string }[];
    }[];
    const validation = statuses.find((s) => s.adapter === 'validation')!;
    expect(validation.conditions.find((c) => c.type === 'Health')?.status).toBe('False');
    expect(validation.conditions.find((c) => c.type === 'Finalized')?.status).toBe('False');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(forbidden.hits).toBe(1); // no retry
    expect((await api.get(`/clusters/${id}`)).status).toBe(200);

    // The operator fixes RBAC and retries the dead letter (what `decom jobs retry` does).
    forbidden.remove();
    expect(await fixture.engine.queue.retry('adapter-run.validation', jobId)).toBe(true);
    await gone(id);
    expect((await fixture.engine.queue.failed('adapter-run.validation')).some((f) => f.id === jobId)).toBe(false);
  });

  it('recovers a deletion whose jobs Redis lost (FLUSHALL mid-deletion) within one sweep interval', async () => {
    const { id, ns } = await provisionedCluster('flushed-1');
    // Keep the deletion in progress: its adapter run fails and waits for a retry... which FLUSHALL erases.
    const outage = fixture.engine.localKube!.faults.add({
      method: 'DELETE',
      kind: 'Namespace',
      name: ns,
      status: 503,
      reason: 'ServiceUnavailable',
    });
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    await eventually('the deletion run failed and waits for its retry', async () =>
      outage.hits >= 1 && (await runs.getDelayed()).some((j) => j?.id?.startsWith(`validation.cluster-${id}.gen-2`)) ? true : undefined,
    );
    const admin = new Redis(redis.url);
    try {
      await admin.flushall();
    } finally {
      await admin.quit();
    }
    outage.remove();
    const flushedAt = Date.now();
    await gone(id, sweepIntervalMs + 10_000);
    const recoveredWithinMs = Date.now() - flushedAt;
    expect(recoveredWithinMs).toBeLessThan(sweepIntervalMs + 5_000);
    // The epoch changed, so the sweep was a recovery sweep (no rule sweep can fire with a 10-minute debounce).
    expect((await jobIds(runs)).some((jid) => new RegExp(`^validation\\.cluster-${id}\\.gen-2\\.recovery-\\d+$`).test(jid))).toBe(true);
  });
});
