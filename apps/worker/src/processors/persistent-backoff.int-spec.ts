/**
 * Backoff that persists, through the real processor and executor against a dead target (the
 * local Kubernetes API server stopped: every call is refused) and a recorded-response API over HTTP. The
 * clock is a fixed, stepped clock (a real implementation, not a mock); triggers arrive as the sweeper sends
 * them, one every 30 s of that clock. Without a persistent backoff every trigger would run (each restarting the chain);
 * runs thin out as the backoff grows, and a new generation or a success starts over.
 */
import { InProcessJobQueue, RetryableError, adapterRunJobId, reconcileCloudEvent, type AdapterRunJob, type Job } from '@decom/jobs';
import { ExecutorHarness, reportingTaskConfig } from '@decom/adapter/testing';
import { AdapterRunProcessor } from './adapter-run.processor.js';

const ID = 'c1';
const CONFIG = reportingTaskConfig({
  resources: `  - name: cm
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: 'cm-{{ .clusterId }}', namespace: default}}
    discovery: {by_name: 'cm-{{ .clusterId }}', namespace: default}`,
  conditions: `          - {type: Applied, status: 'False', reason: NotYet, message: not yet}
          - {type: Available, status: 'False', reason: NotYet, message: not yet}
          - type: Health
            status: {expression: 'adapter.errorReason == "" ? "True" : "False"'}
            reason: {expression: 'adapter.errorReason == "" ? "Healthy" : adapter.errorReason'}
            message: {expression: 'adapter.errorMessage == "" ? "ok" : "target unreachable"'}`,
});

describe('persistent backoff against a dead target', () => {
  let h: ExecutorHarness;
  let queue: InProcessJobQueue;
  let nowMs = Date.parse('2026-12-01T10:00:00Z');
  let listening = true;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    queue = new InProcessJobQueue(() => nowMs);
    h.api.on(`GET /api/hyperfleet/v1/clusters/${ID}`, { status: 200, body: { id: ID, kind: 'Cluster', generation: 1 } });
    h.api.on(`PUT /api/hyperfleet/v1/clusters/${ID}/statuses`, { status: 201, body: {} });
    await h.kube.stopListening();
    listening = false;
  });
  afterEach(async () => {
    await queue.close();
    if (!listening) await h.kube.startListening();
    await h.close();
  });

  const processor = async () => {
    const adapter = await h.hostedAdapter(CONFIG, 'validation');
    return new AdapterRunProcessor({
      adapter,
      queue,
      timing: { baseDelayMs: 1_000, maxDelayMs: 15_000, failureCapMs: 10 * 60_000 },
      now: () => new Date(nowMs),
      random: () => 0.5,
    });
  };
  const trigger = (generation: number, n: number): Job<AdapterRunJob> => {
    const data = { id: ID, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${ID}`, generation };
    const id = adapterRunJobId('validation', data, `sweep-${n}`);
    return {
      queue: 'adapter-run.validation',
      id,
      attempt: 1,
      data: { adapter: 'validation', event: reconcileCloudEvent(data, id, new Date(nowMs).toISOString()), rerun: 0 },
    };
  };
  /** Runs one trigger; true when the executor ran (it failed against the dead target), false when deferred. */
  const run = async (p: AdapterRunProcessor, job: Job<AdapterRunJob>): Promise<boolean> => {
    const before = h.api.requests('GET').length;
    await p.handle(job).catch((error: unknown) => {
      if (!(error instanceof RetryableError)) throw error;
    });
    return h.api.requests('GET').length > before;
  };

  it('a sweep every 30 s for 2 hours: runs thin out (first 20 minutes vs last 20), the Health message counts attempts', async () => {
    const p = await processor();
    const ran: number[] = [];
    for (let n = 0; n < 240; n++, nowMs += 30_000) if (await run(p, trigger(1, n))) ran.push(n);
    const first = ran.filter((n) => n < 40).length;
    const last = ran.filter((n) => n >= 200).length;
    // Without the persistent backoff all 240 triggers ran (≈ 120 calls/hour per resource and adapter at a 30 s sweep).
    expect(ran.length).toBeLessThan(40);
    expect(first).toBeGreaterThan(last);
    expect(last).toBeLessThanOrEqual(3);
    const health = (h.api.requests('PUT').at(-1)?.body as { conditions: { type: string; message: string }[] }).conditions.find(
      (c) => c.type === 'Health',
    );
    expect(health?.message).toMatch(new RegExp(`^cannot reach the cluster, will retry: .*ECONNREFUSED.* \\(attempt ${ran.length}\\)$`));
    // The deferred trigger waits in the queue for the backoff's time (one per attempt count, deduplicated).
    expect(
      await queue.enqueue(
        'adapter-run.validation',
        adapterRunJobId('validation', { id: ID, kind: 'Cluster', generation: 1 }, `backoff-${ran.length}`),
        {},
      ),
    ).toBe(false);
  });

  it('a new generation starts over at once; a success clears the backoff', async () => {
    const p = await processor();
    for (let n = 0; n < 6; n++) {
      await run(p, trigger(1, n));
      nowMs += 1_000;
    }
    expect(await run(p, trigger(1, 100))).toBe(false);
    expect(await run(p, trigger(2, 101))).toBe(true);
    expect(await queue.retryBackoff.get('validation.cluster-c1')).toMatchObject({ generation: 2, attempts: 1 });

    // The target comes back: the run succeeds and is done (Available=True stored), the backoff is gone.
    await h.kube.startListening();
    listening = true;
    h.api.on(`GET /api/hyperfleet/v1/clusters/${ID}`, { status: 200, body: { id: ID, kind: 'Cluster', generation: 2 } });
    h.api.on(`GET /api/hyperfleet/v1/clusters/${ID}/statuses`, {
      status: 200,
      body: {
        items: [
          {
            adapter: 'validation',
            observed_generation: 2,
            conditions: [
              { type: 'Available', status: 'True' },
              { type: 'Applied', status: 'True' },
              { type: 'Health', status: 'True' },
            ],
          },
        ],
      },
    });
    nowMs += 60_000;
    expect(await run(p, trigger(2, 102))).toBe(true);
    expect(await queue.retryBackoff.get('validation.cluster-c1')).toBeUndefined();
  });

  it('a watch trigger passes a wait backoff but not a failure backoff; a backoff re-run a later run overtook does not run', async () => {
    const p = await processor();
    const data = { id: ID, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${ID}`, generation: 1 };
    const job = (suffix: string, extra: Partial<AdapterRunJob>): Job<AdapterRunJob> => {
      const id = adapterRunJobId('validation', data, suffix);
      return {
        queue: 'adapter-run.validation',
        id,
        attempt: 1,
        data: { adapter: 'validation', event: reconcileCloudEvent(data, id, new Date(nowMs).toISOString()), rerun: 1, ...extra },
      };
    };
    const watched = { type: 'DELETED' as const, resource_version: '7' };
    await queue.retryBackoff.set('validation.cluster-c1', { generation: 1, attempts: 2, next_at_ms: nowMs + 60_000, reason: 'wait' });
    // Work merely in progress: a watch change runs it now (a sweep would wait for the backoff's time).
    expect(await run(p, { ...trigger(1, 1) })).toBe(false);
    expect(await run(p, job('w-7', { watch: watched }))).toBe(true);
    // That run failed (the target is dead): now the failure backoff holds every trigger, a watch's too.
    expect(await queue.retryBackoff.get('validation.cluster-c1')).toMatchObject({ attempts: 3, reason: 'failure' });
    expect(await run(p, job('w-8', { watch: { ...watched, resource_version: '8' } }))).toBe(false);
    // The backoff re-run scheduled at attempt 2 was overtaken by the watch-triggered run: it ends without running.
    expect(await run(p, job('r-2', { rerun: 2, backoff_attempts: 2 }))).toBe(false);
    expect(await run(p, job('r-3', { rerun: 3, backoff_attempts: 3 }))).toBe(true);
  });
});
