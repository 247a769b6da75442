/**
 * A restart behind the log accepts writes while its read models apply the backlog (docs/operations.md
 * "Health"), on the PostgreSQL profile: an engine starts on an empty schema (the read-model tables exist) and
 * stops; 1,500 `ResourceCreated` are recorded while no engine runs (the create decision and append the API
 * makes, straight into the store); the engine starts again while the test holds the `resources` table against
 * writes (`LOCK TABLE … IN EXCLUSIVE MODE`: reads go on, the projections' first batch waits). The marker: a POST
 * and a PATCH of a cluster from the backlog are answered while the projections provably have not applied the
 * backlog (the patched cluster still answers 404 on a read, `/readyz` says `writes.accepted`); once the lock is released the read side shows
 * both. The lock, not the backlog's size, keeps the read models behind, so a small backlog proves the order; how
 * fast a 20,000-event backlog is applied is the bench's business (restart.bench.ts, P9).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry } from '@decom/domain';
import { PostgresEventStore } from '@decom/event-store';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { seedClustersInto } from '../bench/support/seed-store.js';
import { usePostgres, type PostgresForTests } from '../support/postgres.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

// More than /readyz tolerates (1,000 events of lag), so it says not_ready while writes are accepted.
const BACKLOG = 1_500;

interface Readiness {
  readonly status: string;
  readonly writes: unknown;
}

describe('a restart behind the log (PostgreSQL)', () => {
  let postgres: PostgresForTests;
  let schema: string;
  let dataDir: string;
  let env: Record<string, string>;
  let backlogCluster: string;
  let fixture: EngineFixture | undefined;
  let holder: pg.Client | undefined;

  beforeAll(async () => {
    postgres = await usePostgres();
    schema = await postgres.newSchema();
    dataDir = await mkdtemp(join(tmpdir(), 'decom-restart-behind-'));
    env = { DECOM_EVENT_STORE: 'postgres', DATABASE_URL: postgres.connectionString, DECOM_PG_SCHEMA: schema };
    // A first start creates the read-model tables (the ones the second start's projections will wait on).
    await (await startTestEngine({ dataDir, env, role: 'api' })).stop();
    const store = new PostgresEventStore({ connectionString: postgres.connectionString, schema });
    try {
      await store.init();
      const kinds = new KindRegistry(await loadEntitiesConfig(resolve('config/entities.yaml')));
      await seedClustersInto(store, kinds, BACKLOG, (i) => ({ name: `backlog-${i}`, spec: {}, labels: {} }));
      const [last] = await store.readAll({ afterPosition: (await store.headPosition()) - 1, maxCount: 1 });
      backlogCluster = (last!.data as { id: string }).id;
    } finally {
      await store.close();
    }
  }, 600_000);

  afterAll(async () => {
    await holder?.end().catch(() => undefined);
    await fixture?.stop();
    await postgres.dropSchema(schema);
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers writes before the read models applied the backlog, and shows them once they have', async () => {
    holder = new pg.Client({ connectionString: postgres.connectionString });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`LOCK TABLE ${pg.escapeIdentifier(schema)}.resources IN EXCLUSIVE MODE`);

    fixture = await startTestEngine({ dataDir, env, role: 'api' });
    const api = new DemoApi(fixture.engine.url);
    const readiness = async () => (await (await fetch(`${fixture!.engine.url}/readyz`)).json()) as Readiness;

    const created = await api.call('POST', '/clusters', { kind: 'Cluster', name: 'after-restart', spec: { region: 'eu' } });
    const patched = await api.call('PATCH', `/clusters/${backlogCluster}`, { spec: { region: 'us' } });
    const held = await readiness();

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'after-restart', generation: 1, spec: { region: 'eu' } });
    // The backlog's last cluster, decided from its stream while the read model has not applied its creation.
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: backlogCluster, generation: 2, spec: { region: 'us' } });
    expect(held.writes).toEqual({ accepted: true });
    expect(held.status).toBe('not_ready');
    // The read side has not applied the backlog: the cluster just patched is not in it yet.
    expect((await api.get(`/clusters/${backlogCluster}`)).status).toBe(404);

    await holder.query('COMMIT');
    // The patch is the log's last event: once the read side shows it, the backlog and the create are applied too.
    const caughtUp = await eventually(
      'the read models to apply the backlog',
      async () => {
        const answer = await api.get(`/clusters/${backlogCluster}`);
        return answer.status === 200 && answer.body.generation === 2 ? answer.body : undefined;
      },
      180_000,
      200,
    );
    expect(caughtUp).toMatchObject({ generation: 2, spec: { region: 'us' } });
    expect((await api.get(`/clusters/${created.body.id}`)).body).toMatchObject({ name: 'after-restart', generation: 1 });
    expect((await api.get('/clusters?size=1')).body.total).toBe(BACKLOG + 1);
  }, 300_000);
});
