/**
 * The engine on the PostgreSQL profile (DECOM_EVENT_STORE=postgres): events and read models in one fresh
 * schema of a real server, the core deletion flow through HTTP (the test plays the adapters), then a
 * restart on the same schema that must resume from the stored checkpoints.
 */
import pg from 'pg';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { usePostgres, type PostgresForTests } from '../support/postgres.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { statusReport, FINALIZED } from '../support/status-reports.js';

const report = statusReport;

describe('PostgreSQL profile (DECOM_EVENT_STORE=postgres)', () => {
  let postgres: PostgresForTests;
  let schema: string;
  let admin: pg.Client;
  let fixture: EngineFixture | undefined;
  const start = async () => {
    fixture = await startTestEngine({
      env: { DECOM_EVENT_STORE: 'postgres', DATABASE_URL: postgres.connectionString, DECOM_PG_SCHEMA: schema },
    });
    return { fixture, api: new DemoApi(fixture.engine.url) };
  };

  beforeAll(async () => {
    postgres = await usePostgres();
    schema = await postgres.newSchema();
    admin = new pg.Client({ connectionString: postgres.connectionString });
    await admin.connect();
  });
  afterAll(async () => {
    await fixture?.stop();
    await admin?.end();
    await postgres?.dropSchema(schema);
    await postgres?.stop();
  });

  it('runs DELETE → cascade → Finalized → bottom-up hard delete with every event and row in the schema; a restart resumes', async () => {
    const { api } = await start();
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'pg-1', spec: { region: 'eu' } })).body;
    const pool = (await api.call('POST', `/clusters/${cluster.id}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} })).body;
    expect(pool.owner_references.id).toBe(cluster.id);

    const deleted = await api.call('DELETE', `/clusters/${cluster.id}`);
    expect(deleted.status).toBe(202);
    expect(deleted.body).toMatchObject({ generation: 2, deleted_by: 'operator@example.com' });
    expect((await api.get(`/clusters/${cluster.id}/nodepools/${pool.id}`)).body).toMatchObject({
      generation: 2,
      deleted_time: deleted.body.deleted_time,
    });
    expect((await api.call('PATCH', `/clusters/${cluster.id}`, { spec: {} })).body.code).toBe('HYPERFLEET-CNF-003');

    expect((await api.call('PUT', `/clusters/${cluster.id}/statuses`, report('validation', 2, FINALIZED))).status).toBe(201);
    await fixture!.engine.settle();
    const waiting = (await api.get(`/clusters/${cluster.id}`)).body;
    expect(waiting.status.conditions[0]).toMatchObject({ type: 'Reconciled', status: 'False', reason: 'ReconciledWaitingForChildren' });
    expect(
      (await api.call('PUT', `/clusters/${cluster.id}/nodepools/${pool.id}/statuses`, report('np-configmap', 2, FINALIZED))).status,
    ).toBe(201);
    await eventually('hard delete', async () => ((await api.get(`/clusters/${cluster.id}`)).status === 404 ? true : undefined));
    expect((await api.get(`/nodepools/${pool.id}`)).status).toBe(404);

    // The events are PostgreSQL rows of this schema, in commit order with dense positions.
    const events = await admin.query(`SELECT position, type, data->>'id' AS id FROM ${schema}.events WHERE stream = $1 ORDER BY revision`, [
      `cluster-${cluster.id}`,
    ]);
    const types = events.rows.map((row) => row.type as string);
    expect(types.slice(0, 4)).toEqual(['ResourceCreated', 'ResourceCreated', 'DeletionRequested', 'DeletionRequested']);
    expect(types.filter((type) => type === 'AdapterFinalized')).toHaveLength(2);
    expect(events.rows.slice(-2).map((row) => [row.type, row.id])).toEqual([
      ['HardDeleted', pool.id],
      ['HardDeleted', cluster.id],
    ]);
    const all = (await admin.query(`SELECT position FROM ${schema}.events ORDER BY position`)).rows.map((row) => Number(row.position));
    expect(all).toEqual(all.map((_, index) => index + 1));
    const tables = await admin.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [
      schema,
    ]);
    expect(tables.rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining([
        'events',
        'resources',
        'adapter_statuses',
        'resource_index',
        'finalizing',
        'projection_checkpoints',
        'reactor_checkpoints',
      ]),
    );
    const head = Number((await admin.query(`SELECT max(position) AS head FROM ${schema}.events`)).rows[0].head);
    const checkpoint = await admin.query(`SELECT position FROM ${schema}.projection_checkpoints WHERE name = 'resource-view'`);
    expect(Number(checkpoint.rows[0].position)).toBe(head);
    const index = await admin.query(`SELECT id, hard_delete_cause FROM ${schema}.resource_index ORDER BY id`);
    expect(index.rows).toEqual(
      expect.arrayContaining([
        { id: cluster.id, hard_delete_cause: 'Reconciled' },
        { id: pool.id, hard_delete_cause: 'Reconciled' },
      ]),
    );
    const history = (await api.get(`/resources/${cluster.id}/events`)).body;
    expect(history.items.map((e: { type: string }) => e.type)).toContain('HardDeleted');

    // Restart on the same schema: nothing is re-applied, new commands work, history is intact.
    const other = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'pg-2', spec: {} })).body;
    await fixture!.stop();
    fixture = undefined;
    const restarted = await start();
    expect((await restarted.api.get(`/clusters/${other.id}`)).body).toMatchObject({ name: 'pg-2', generation: 1 });
    expect((await restarted.api.get(`/clusters/${cluster.id}`)).status).toBe(404);
    const resources = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.resources`);
    expect(resources.rows[0].n).toBe(1);
    expect((await restarted.api.call('DELETE', `/clusters/${other.id}`)).body.generation).toBe(2);
  }, 60_000);

  it('a command the store recorded is answered as done even when the read models cannot apply it in time', async () => {
    const { api } = fixture ? { api: new DemoApi(fixture.engine.url) } : await start();
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'pg-lag', spec: {} })).body;
    await fixture!.engine.settle();
    // Another session holds the read-model table against writes (reads still pass): the DELETE's append
    // commits, the projection cannot apply it, the API's read-your-writes wait runs out (5 s).
    const blocker = new pg.Client({ connectionString: postgres.connectionString });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE ${schema}.resources IN EXCLUSIVE MODE`);
      const deleted = await api.call('DELETE', `/clusters/${cluster.id}`);
      expect(deleted.status).toBe(202);
      expect(deleted.body).toMatchObject({
        id: cluster.id,
        href: `/api/hyperfleet/v1/clusters/${cluster.id}`,
        generation: 2,
        deleted_by: 'operator@example.com',
      });
      expect(deleted.body.deleted_time).toEqual(expect.any(String));
      const recorded = await admin.query(
        `SELECT count(*)::int AS n FROM ${schema}.events WHERE stream = $1 AND type = 'DeletionRequested'`,
        [`cluster-${cluster.id}`],
      );
      expect(recorded.rows[0].n).toBe(1);
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    // Released, the read model catches up with what was answered.
    await eventually('the read model applies the deletion', async () =>
      (await api.get(`/clusters/${cluster.id}`)).body.generation === 2 ? true : undefined,
    );
  }, 60_000);
});
