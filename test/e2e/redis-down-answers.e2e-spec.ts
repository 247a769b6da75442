/**
 * docs/operations.md "During an outage": with Redis stopped, the operator's endpoints answer at once with
 * what they know instead of waiting for a reconnect. The stuck list comes from the read model and says its
 * dead-letter blockers are unknown (`dead_letters.status: unavailable`), `/jobs/failed` is 503 with
 * `Retry-After`, `/metrics` still answers. A private Redis this test stops (never REDIS_URL); no adapters
 * run here, so the deletion stays pending.
 */
import { randomUUID } from 'node:crypto';
import { DemoApi } from '../../apps/cli/src/demo/api-client.js';
import { useThrowAwayRedis, type RedisForTests } from '../support/redis.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

/** An answer within the 3 s a client would wait, and how long it took. */
async function answerWithin3s(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; text: string; ms: number }> {
  const started = Date.now();
  const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(3_000) });
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, text, ms: Date.now() - started };
}

describe('Redis down: the operator endpoints answer with what they know (docs/operations.md "During an outage")', () => {
  let redis: RedisForTests;
  let fixture: EngineFixture;
  let api: DemoApi;
  let pendingId: string;

  beforeAll(async () => {
    redis = await useThrowAwayRedis();
    fixture = await startTestEngine({ env: { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: `decom-e2e-${randomUUID()}` } });
    api = new DemoApi(fixture.engine.url);
    pendingId = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'pending-during-outage', spec: {} })).body.id as string;
    expect((await api.call('DELETE', `/clusters/${pendingId}`)).status).toBe(202);
  }, 30_000);
  afterAll(async () => {
    await fixture?.stop();
    await redis?.stop();
  });

  const finalizing = () => answerWithin3s(`${fixture.engine.url}/api/decom/v1/finalizing`);
  const graphql = (query: string) =>
    answerWithin3s(`${fixture.engine.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });

  it('while Redis answers, dead_letters is available', async () => {
    const answer = await finalizing();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).dead_letters).toEqual({ status: 'available' });
  });

  it('with Redis stopped: /finalizing lists the pending deletion and marks dead letters unavailable; /jobs/failed 503; /metrics and GraphQL answer', async () => {
    await redis.stop();
    const stoppedAt = Date.now();

    const list = await finalizing();
    expect(list.status).toBe(200);
    const body = JSON.parse(list.text);
    expect(body.items.map((item: { id: string }) => item.id)).toContain(pendingId);
    expect(body.dead_letters).toEqual({ status: 'unavailable', reason: expect.any(String), since: expect.any(String) });
    expect(Date.parse(body.dead_letters.since)).toBeGreaterThanOrEqual(stoppedAt - 1_000);
    // The deletion waits on the queue first (nothing is dispatched without it): never an empty blocker list.
    const pending = body.items.find((item: { id: string }) => item.id === pendingId);
    expect(pending.blockers[0]).toEqual({
      type: 'JobQueueUnavailable',
      reason: body.dead_letters.reason,
      since: body.dead_letters.since,
      message: expect.stringContaining('the job queue is unreachable since'),
    });

    const failed = await answerWithin3s(`${fixture.engine.url}/api/decom/v1/jobs/failed`);
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toEqual(expect.stringMatching(/^\d+$/));
    expect(JSON.parse(failed.text)).toMatchObject({
      status: 503,
      code: 'HYPERFLEET-SVC-001',
      detail: expect.stringContaining('job queue is unreachable'),
    });

    const gql = await graphql('{ finalizing { id blockers { type since } } finalizingDeadLetters { status reason since } }');
    expect(gql.status).toBe(200);
    const data = JSON.parse(gql.text).data;
    expect(data.finalizing.map((item: { id: string }) => item.id)).toContain(pendingId);
    expect(data.finalizing.find((item: { id: string }) => item.id === pendingId).blockers[0]).toEqual({
      type: 'JobQueueUnavailable',
      since: body.dead_letters.since,
    });
    expect(data.finalizingDeadLetters).toMatchObject({ status: 'unavailable', reason: expect.any(String), since: body.dead_letters.since });

    const metrics = await answerWithin3s(fixture.engine.metricsUrl);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^decom_resources_finalizing\{kind="Cluster"\} 1$/m);
    // Counters are read while the gauges collect, so a failed collect shows in the next scrape's count.
    const next = await answerWithin3s(fixture.engine.metricsUrl);
    expect(next.status).toBe(200);
    expect(next.text).toMatch(/^decom_scrape_collector_errors_total\{collector="decom_queue_depth"\} [1-9]/m);

    // The time bound, reported rather than asserted finely: every answer above came before a 3 s client timeout.
    for (const answer of [list, failed, gql, metrics]) expect(answer.ms).toBeLessThan(3_000);
  }, 30_000);
});
