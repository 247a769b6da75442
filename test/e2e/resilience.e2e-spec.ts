/**
 * Surviving the database on the PostgreSQL profile, with a private throw-away server this test stops and starts:
 * - 50 concurrent creates of one top-level name → exactly one 201, on one API process and across two
 *   (the second started on the same schema while the first takes writes: no set-up deadlock); every
 *   409 `HYPERFLEET-CNF-001` names the winner's `id` and `href`.
 * - PostgreSQL stopped under a running engine: the process lives, commands answer 503
 *   `HYPERFLEET-SVC-001` with `Retry-After`, `/readyz` is 503; once the server is back `/readyz` is green
 *   again within 15 s, the loops restarted from their checkpoints, and writes work.
 * - After a 4 s outage the leak-inventory loop (supervised like projections and dispatch) runs again and
 *   is listed in `/readyz`: a force delete after the outage still records its `LeakInventoryRecorded`.
 */
import { resolve } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { freePort } from '../support/free-port.js';
import { useThrowAwayPostgres, type RestartablePostgres } from '../support/postgres.js';
import { spawnDecom } from './support/decom-process.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

describe('distributed profile survives its database', () => {
  let postgres: RestartablePostgres;
  const fixtures: EngineFixture[] = [];
  const start = async (schema: string) => {
    const fixture = await startTestEngine({
      env: { DECOM_EVENT_STORE: 'postgres', DATABASE_URL: postgres.connectionString, DECOM_PG_SCHEMA: schema },
    });
    fixtures.push(fixture);
    return { fixture, api: new DemoApi(fixture.engine.url) };
  };
  const cluster = (name: string) => ({ kind: 'Cluster', name, spec: { region: 'eu' } });

  beforeAll(async () => {
    postgres = await useThrowAwayPostgres();
  });
  afterAll(async () => {
    for (const fixture of fixtures.reverse()) await fixture.stop().catch(() => undefined);
    await postgres?.stop();
  });

  const expectOneWinner = (answers: { status: number; body: any }[]) => {
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(created).toHaveLength(1);
    const winner = created[0]!.body;
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: 'HYPERFLEET-CNF-001', id: winner.id, href: winner.href });
    }
    return winner;
  };

  it('50 concurrent same-name creates on one process: exactly one 201, every 409 names it', async () => {
    const { api } = await start(await postgres.newSchema());
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.call('POST', '/clusters', cluster('same-name'))));
    const winner = expectOneWinner(answers);
    expect((await api.get(`/clusters?search=${encodeURIComponent("name='same-name'")}`)).body.total ?? 1).toBe(1);
    // The name is free again only once the holder is hard-deleted; meanwhile a retry learns the id.
    expect((await api.call('POST', '/clusters', cluster('same-name'))).body).toMatchObject({ id: winner.id });
  });

  it('across two API processes on one schema, the second started under write load: exactly one 201', async () => {
    const schema = await postgres.newSchema();
    const first = await start(schema);
    let writing = true;
    const load = (async () => {
      let n = 0;
      while (writing) await first.api.call('POST', '/clusters', cluster(`load-${n++}`));
      return n;
    })();
    const second = await start(schema);
    const writes = [first.api, second.api];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => writes[i % 2]!.call('POST', '/clusters', cluster('shared-name'))),
    );
    writing = false;
    const loadCreated = await load;
    expectOneWinner(answers);
    expect(loadCreated).toBeGreaterThan(0);
    // Both processes' projections kept running (no deadlock between the second's set-up and the first).
    for (const { api } of [first, second]) {
      await eventually('ready', async () => ((await fetch(`${api.baseUrl}/readyz`)).status === 200 ? true : undefined), 15_000);
    }
  });

  it('PostgreSQL stop/start: no crash, 503 SVC-001 with Retry-After while down, ready again within 15 s of the restart', async () => {
    const { fixture, api } = await start(await postgres.newSchema());
    const before = await api.call('POST', '/clusters', cluster('before-outage'));
    expect(before.status).toBe(201);

    await postgres.stopServer();
    const during = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hyperfleet-identity': 'operator@example.com' },
      body: JSON.stringify(cluster('during-outage')),
    });
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('2');
    expect(await during.json()).toMatchObject({ code: 'HYPERFLEET-SVC-001', status: 503 });
    // /readyz answers from probes cached in the background (every second): the store shows down within about two seconds.
    const notReady = await eventually(
      '/readyz 503',
      async () => {
        const answer = await fetch(`${fixture.engine.url}/readyz`);
        const body = (await answer.json()) as { checks: { event_store: { status: string } } };
        return answer.status === 503 && body.checks.event_store.status === 'down' ? body : undefined;
      },
      5_000,
      100,
    );
    expect(notReady).toMatchObject({ status: 'not_ready', checks: { event_store: { status: 'down' } } });
    expect((await fetch(`${fixture.engine.url}/healthz`)).status).toBe(200);

    await postgres.startServer();
    const restartedAt = Date.now();
    const ready = await eventually(
      'ready after restart',
      async () => {
        const answer = await fetch(`${fixture.engine.url}/readyz`);
        return answer.status === 200 ? ((await answer.json()) as any) : undefined;
      },
      15_000,
      100,
    );
    expect(Date.now() - restartedAt).toBeLessThan(15_000);
    expect(ready.checks.loops.map((loop: any) => [loop.name, loop.state])).toEqual([
      ['projections', 'running'],
      ['dispatch', 'running'],
      ['leak-inventory', 'running'],
    ]);
    const after = await api.call('POST', '/clusters', cluster('after-outage'));
    expect(after.status).toBe(201);
    expect((await api.get(`/clusters/${after.body.id}`)).status).toBe(200);
    expect((await api.get(`/clusters/${before.body.id}`)).status).toBe(200);
  });

  it('PostgreSQL stopped 4 s: the leak-inventory loop restarts from its checkpoint, /readyz lists it, a later force delete records its inventory', async () => {
    const fixture = await startTestEngine({
      adaptersDir: resolve('config/adapters'),
      admins: 'admin@example.com',
      env: { DECOM_EVENT_STORE: 'postgres', DATABASE_URL: postgres.connectionString, DECOM_PG_SCHEMA: await postgres.newSchema() },
    });
    fixtures.push(fixture);
    const api = new DemoApi(fixture.engine.url);
    const admin = new DemoApi(fixture.engine.url, 'admin@example.com');
    const readyz = async () => (await (await fetch(`${fixture.engine.url}/readyz`)).json()) as any;
    const leakLoop = (report: any) => report.checks.loops.find((loop: any) => loop.name === 'leak-inventory');
    expect(leakLoop(await readyz())).toMatchObject({ state: 'running', ready: true });

    await postgres.stopServer();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await postgres.startServer();
    const ready = await eventually(
      'ready after restart',
      async () => {
        const answer = await fetch(`${fixture.engine.url}/readyz`);
        return answer.status === 200 ? ((await answer.json()) as any) : undefined;
      },
      15_000,
      100,
    );
    expect(leakLoop(ready)).toMatchObject({ state: 'running', ready: true });

    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'leaky-after-outage', spec: {} })).body.id;
    await eventually(
      'the cluster is Reconciled',
      async () => {
        const body = (await api.get(`/clusters/${id}`)).body;
        return body.status?.conditions?.find((c: any) => c.type === 'Reconciled')?.status === 'True' ? true : undefined;
      },
      30_000,
    );
    expect((await admin.call('POST', `/clusters/${id}/pause`, { reason: 'INC-9 hold' })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    expect((await admin.call('POST', `/clusters/${id}/force-delete`, { reason: 'INC-9 give up' })).status).toBe(204);
    const inventory = await eventually(
      'the leak inventory is recorded after the outage',
      async () => {
        const items = (await api.get(`/resources/${id}/events`)).body.items as { type: string; data: any }[];
        return items.find((event) => event.type === 'LeakInventoryRecorded');
      },
      15_000,
    );
    expect(inventory.data).toMatchObject({ id, kind: 'Cluster', adapter: 'validation', trigger: 'ForceDeleted' });
  }, 80_000);

  it('PostgreSQL stopped: open event streams end (none stays silent for good); a reconnect with Last-Event-ID gets what it missed', async () => {
    const { fixture, api } = await start(await postgres.newSchema());
    const stream = `${fixture.engine.url}/api/decom/v1/events/stream`;
    const open = async (lastEventId?: string) => {
      const response = await fetch(stream, { headers: lastEventId ? { 'last-event-id': lastEventId } : {} });
      expect(response.status).toBe(200);
      return response.body!.pipeThrough(new TextDecoderStream()).getReader();
    };
    const first = await open();
    const firstText: string[] = [];
    const firstEnded = (async () => {
      for (;;) {
        const { value, done } = await first.read();
        if (done) return true;
        firstText.push(value);
      }
    })();
    const before = (await api.call('POST', '/clusters', cluster('sse-before'))).body.id as string;
    await eventually(
      'the first stream announces the create',
      async () => (firstText.join('').includes(before) ? true : undefined),
      10_000,
      50,
    );
    const lastId = /id: (\d+)\n/.exec(firstText.join(''))![1]!;

    await postgres.stopServer();
    try {
      await expect(Promise.race([firstEnded, new Promise((resolve) => setTimeout(() => resolve('still open'), 15_000))])).resolves.toBe(
        true,
      );
    } finally {
      await postgres.startServer();
    }
    await eventually(
      'ready after restart',
      async () => ((await fetch(`${fixture.engine.url}/readyz`)).status === 200 ? true : undefined),
      15_000,
      100,
    );
    const after = (await api.call('POST', '/clusters', cluster('sse-after'))).body.id as string;
    const again = await open(lastId);
    let text = '';
    await eventually(
      'the reconnected stream has the event it missed',
      async () => {
        const { value } = await again.read();
        text += value ?? '';
        return text.includes(after) ? true : undefined;
      },
      15_000,
      0,
    );
    await again.cancel();
  }, 80_000);

  it('decom jobs failed gives up with a clear message when Redis is unreachable, never echoing a password', async () => {
    const port = await freePort();
    const run = spawnDecom(['jobs', 'failed', '--redis'], { REDIS_URL: `redis://user:s3cret@127.0.0.1:${port}`, LOG_LEVEL: 'silent' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/decom jobs: cannot reach Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+/);
    expect(run.output()).not.toContain('s3cret');
  });

  it('a malformed DATABASE_URL fails the start naming the variable, without its password', async () => {
    const run = spawnDecom(['api'], {
      DECOM_EVENT_STORE: 'postgres',
      DATABASE_URL: 'postgres://decom:s3cret@db:notaport/decom',
      PORT: '0',
      DECOM_ENTITIES_FILE: 'config/entities.yaml',
      LOG_LEVEL: 'silent',
    });
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toContain('DATABASE_URL');
    expect(run.output()).not.toContain('s3cret');
  });
});
