/**
 * Kubernetes back after an outage (docs/operations.md "Kubernetes unreachable"): the shipped adapters, the
 * bundled Kubernetes server made unreachable (it stops listening: ECONNREFUSED) while a cluster's DELETE
 * runs. Its adapter run fails and backs off until its next try is seconds away; once the server listens
 * again the process's Kubernetes probe sees it (down → up) and the backed-off run goes at once: the cluster
 * is gone (404) within a few seconds of the recovery, well before the slot it was backing off to. On the
 * in-process queue (embedded) and on BullMQ (a Redis of its own test prefix).
 *
 * The persistent backoff's base is raised to 60 s (`adapterRerun`), so no other trigger (a sweep, a watch)
 * can run the deletion earlier either: only the queue's retry slot or the recovery can.
 */
import { resolve } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { useRedis, type RedisForTests } from '../support/redis.js';
import { loggerInto } from './support/json-log-lines.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { REALISTIC_CONTROLLER_DELAY_MS } from '@decom/kube-local';

/** Failed tries of the DELETE's run before Kubernetes comes back: the next queue retry is then 16 s ±20% away. */
const FAILED_TRIES = 6;
/** The queue's retry slot after FAILED_TRIES failures is at least this far after the last one (0.5 s · 2^5 · 0.8). */
const SLOT_AFTER_LAST_FAILURE_MS = 12_800;

describe.each(['in-process', 'BullMQ'] as const)('Kubernetes back: backed-off adapter runs re-run at once (%s queue)', (backend) => {
  let fixture: EngineFixture;
  let api: DemoApi;
  let redis: RedisForTests | undefined;
  const lines: { msg?: string; requeued?: number }[] = [];
  /** Failed runs per resource id, with when they ended. */
  const failures = new Map<string, number[]>();

  beforeAll(async () => {
    if (backend === 'BullMQ') redis = await useRedis();
    fixture = await startTestEngine({
      localKube: { controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS },
      adaptersDir: resolve('config/adapters'),
      logger: loggerInto(lines),
      ...(redis && { env: { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: redis.prefix('kube-recovery') } }),
      // Failure backoff from 60 s (capped at 10 min as in production); work in progress re-runs within 1 s.
      adapterRerun: { baseDelayMs: 60_000, maxDelayMs: 1_000 },
      // No rule sweeps: only retries, the recovery and the adapters' own progress move the deletion.
      sweep: { intervalMs: 1_000, debounceMs: 600_000 },
      onAdapterRun: (run) => {
        if (!run.failure) return;
        const id = run.job.event.data.id;
        failures.set(id, [...(failures.get(id) ?? []), Date.now()]);
      },
    });
    api = new DemoApi(fixture.engine.url);
  }, 60_000);
  afterAll(async () => {
    await fixture?.stop();
    await redis?.stop();
  });

  it('a DELETE failing while the API server is unreachable finishes within seconds of its return, not at its backoff slot', async () => {
    const kube = fixture.engine.localKube!;
    const id = (await api.call('POST', '/clusters', { kind: 'Cluster', name: `back-${backend.toLowerCase()}`, spec: {} })).body
      .id as string;
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
    await eventually(
      'kubernetes probed up',
      async () =>
        /^decom_dependency_up\{dependency="kubernetes"\} 1$/m.test(await (await fetch(fixture.engine.metricsUrl)).text())
          ? true
          : undefined,
      10_000,
      100,
    );

    await kube.stopListening();
    try {
      expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
      await eventually(
        `${FAILED_TRIES} failed tries of the DELETE's run`,
        async () => ((failures.get(id)?.length ?? 0) >= FAILED_TRIES ? true : undefined),
        40_000,
        50,
      );
    } finally {
      await kube.startListening();
    }
    const slot = failures.get(id)![FAILED_TRIES - 1]! + SLOT_AFTER_LAST_FAILURE_MS;
    expect((await api.get(`/clusters/${id}`)).status).toBe(200);

    await eventually(
      'cluster hard-deleted (404)',
      async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
      20_000,
      100,
    );
    const gone = Date.now();
    expect(gone).toBeLessThan(slot);
    // The run that finished it was the backed-off one made due, not a new chain: one line per recovery says so.
    const recoveries = lines.filter((line) => line.msg?.startsWith('kubernetes reachable again:'));
    expect(recoveries).toHaveLength(1);
    expect(recoveries[0]).toMatchObject({ msg: 'kubernetes reachable again: 1 backed-off adapter runs re-queued', requeued: 1 });
  }, 90_000);
});
