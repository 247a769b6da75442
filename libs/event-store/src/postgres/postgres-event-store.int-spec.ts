import { createHash } from 'node:crypto';
import pg from 'pg';
import { usePostgres, type PostgresForTests } from '../../../../test/support/postgres.js';
import type { RecordedEvent } from '../event-store.port.js';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { PostgresEventStore } from './postgres-event-store.js';

let postgres: PostgresForTests;
beforeAll(async () => void (postgres = await usePostgres()));
afterAll(() => postgres?.stop());

describeEventStoreContract('postgres', async () => {
  const schema = await postgres.newSchema();
  const store = new PostgresEventStore({ connectionString: postgres.connectionString, schema, pollIntervalMs: 50 });
  return { store, cleanup: () => postgres.dropSchema(schema) };
});

describe('PostgresEventStore LISTEN connection', () => {
  it('survives losing it: delivery goes on and it listens again', async () => {
    const schema = await postgres.newSchema();
    const store = new PostgresEventStore({ connectionString: postgres.connectionString, schema, pollIntervalMs: 50 });
    const admin = new pg.Client({ connectionString: postgres.connectionString });
    await admin.connect();
    // Only this store's LISTEN session (its channel digests the schema): other suites share the server.
    const channel = `decom_events_${createHash('sha256').update(schema).digest('hex').slice(0, 24)}`;
    const listeners = async () =>
      (await admin.query(`SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`, [`LISTEN "${channel}"`])).rows;
    const seen: RecordedEvent[] = [];
    const errors: unknown[] = [];
    const subscription = store.subscribeToAll(async (event) => void seen.push(event), {
      afterPosition: 0,
      onError: (error) => errors.push(error),
    });
    try {
      await store.append('cluster-a', [{ type: 'Before', data: {} }]);
      await waitUntil(async () => seen.length === 1);
      const [listener] = await listeners();
      expect(listener).toBeDefined();

      await admin.query('SELECT pg_terminate_backend($1)', [listener!.pid]);
      await store.append('cluster-a', [{ type: 'After', data: {} }]);
      await waitUntil(async () => seen.length === 2);
      await waitUntil(async () => (await listeners()).some((row) => row.pid !== listener!.pid));

      expect(seen.map((event) => event.type)).toEqual(['Before', 'After']);
      expect(errors).toEqual([]);
    } finally {
      await subscription.close();
      await store.close();
      await admin.end();
      await postgres.dropSchema(schema);
    }
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
