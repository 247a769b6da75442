import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { usePostgres, type PostgresForTests } from '../../../test/support/postgres.js';
import { createEventStore } from './create-event-store.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';
import { SqliteEventStore } from './sqlite/sqlite-event-store.js';

let postgres: PostgresForTests;
beforeAll(async () => void (postgres = await usePostgres()));
afterAll(() => postgres?.stop());

describe('createEventStore', () => {
  it('opens a SQLite file that keeps its events across reopening', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'decom-factory-'));
    const file = join(folder, 'decom.db');
    try {
      const first = await createEventStore({ kind: 'sqlite', file });
      expect(first).toBeInstanceOf(SqliteEventStore);
      await first.append('cluster-a', [{ type: 'Created', data: { n: 1 } }]);
      await first.close();

      const second = await createEventStore({ kind: 'sqlite', file });
      expect((await second.readStream('cluster-a')).map((event) => event.data)).toEqual([{ n: 1 }]);
      await second.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('opens PostgreSQL with the events table created in the given schema', async () => {
    const schema = `factory_${Date.now()}`;
    const store = await createEventStore({ kind: 'postgres', connectionString: postgres.connectionString, schema });
    try {
      expect(store).toBeInstanceOf(PostgresEventStore);
      expect(await store.headPosition()).toBe(0);
      const { position } = await store.append('cluster-a', [{ type: 'Created', data: {} }]);
      expect(await store.headPosition()).toBe(position);
    } finally {
      await store.close();
      await postgres.dropSchema(schema);
    }
  });

  it('fails fast on an unreachable EventStoreDB (the client is real; no server listens on port 1)', async () => {
    const startedAt = Date.now();
    await expect(createEventStore({ kind: 'esdb', connectionString: 'esdb://127.0.0.1:1?tls=false' })).rejects.toThrow(
      /UNAVAILABLE|ECONNREFUSED/,
    );
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it('fails fast on an unreachable PostgreSQL', async () => {
    const unreachable = 'postgres://postgres@127.0.0.1:1/none?connect_timeout=2';
    await expect(createEventStore({ kind: 'postgres', connectionString: unreachable })).rejects.toThrow();
  });
});
