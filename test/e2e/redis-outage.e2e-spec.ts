/**
 * README "Health, readiness and outages": while Redis is down, commands are accepted and recorded (the
 * event log is the source of truth) and `/readyz` is 503 with `job_queue` down; once Redis is back the
 * recovery sweep dispatches their jobs and the work completes. A private Redis this test kills and starts
 * again on the same port (never REDIS_URL); the shipped adapters against the bundled Kubernetes server.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { useRestartableRedis, type RestartableRedis } from '../support/redis.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const condition = (resource: { status: { conditions: { type: string; status: string }[] } }, type: string) =>
  resource.status.conditions.find((c) => c.type === type);
describe('Redis down: commands are accepted and recorded, their jobs run once Redis is back (README "Health, readiness and outages")', () => {
  let restartable: RestartableRedis;
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    restartable = await useRestartableRedis();
    fixture = await startTestEngine({
      adaptersDir: resolve('config/adapters'),
      env: { REDIS_URL: restartable.url, DECOM_QUEUE_PREFIX: `decom-e2e-${randomUUID()}` },
      sweep: { intervalMs: 2_000, debounceMs: 600_000 },
    });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => {
    await fixture?.stop();
    await restartable?.stop();
  });

  const reconciled = (id: string) =>
    eventually(
      `${id} Reconciled=True`,
      async () => (condition((await api.get(`/clusters/${id}`)).body, 'Reconciled')?.status === 'True' ? true : undefined),
      30_000,
    );

  it('a create answers 201 and a DELETE 202 while /readyz is 503 with job_queue down; both complete after the restart', async () => {
    const existing = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'before-redis-outage', spec: {} })).body.id as string;
    await reconciled(existing);

    const restarted = restartable.restart(4_000);
    await eventually(
      '/readyz 503 with job_queue down',
      async () => {
        const answer = await fetch(`${fixture.engine.url}/readyz`);
        const body = (await answer.json()) as any;
        return answer.status === 503 && body.checks.job_queue?.status === 'down' ? true : undefined;
      },
      3_500,
      50,
    );
    const created = await api.call('POST', '/clusters', { kind: 'Cluster', name: 'during-redis-outage', spec: {} });
    expect(created.status).toBe(201);
    expect((await api.call('DELETE', `/clusters/${existing}`)).status).toBe(202);
    // Recorded in the event log at once, whatever the queue does.
    expect((await api.get(`/clusters/${created.body.id}`)).status).toBe(200);
    expect((await api.get(`/clusters/${existing}`)).body.deleted_time).toEqual(expect.any(String));
    await restarted;

    await reconciled(created.body.id);
    await eventually(
      `cluster ${existing} hard-deleted (GET 404)`,
      async () => ((await api.get(`/clusters/${existing}`)).status === 404 ? true : undefined),
      30_000,
    );
    await eventually('ready again', async () => ((await fetch(`${fixture.engine.url}/readyz`)).status === 200 ? true : undefined), 15_000);
  }, 80_000);
});
