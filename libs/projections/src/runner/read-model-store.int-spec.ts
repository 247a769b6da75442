import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { usePostgres, type PostgresForTests } from '../../../../test/support/postgres.js';
import { SqliteEventStore } from '@decom/event-store';
import { PostgresReadModelStore } from './postgres-read-model-store.js';
import type { ReadModelStore } from './read-model-store.port.js';
import { SqliteReadModelStore } from './sqlite-read-model-store.js';

let postgres: PostgresForTests;
beforeAll(async () => void (postgres = await usePostgres()));
afterAll(() => postgres?.stop());

const backends: Array<[string, () => Promise<{ readModels: ReadModelStore; close(): Promise<void> }>]> = [
  [
    'sqlite',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'decom-read-models-'));
      const db = new Database(join(folder, 'read-models.db'));
      return { readModels: new SqliteReadModelStore(db), close: async () => (db.close(), rmSync(folder, { recursive: true })) };
    },
  ],
  [
    'postgres',
    async () => {
      const schema = await postgres.newSchema();
      const readModels = new PostgresReadModelStore({ connectionString: postgres.connectionString, schema });
      return { readModels, close: async () => (await readModels.close(), await postgres.dropSchema(schema)) };
    },
  ],
];

describe.each(backends)('%s read-model store', (_, open) => {
  let readModels: ReadModelStore;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ readModels, close } = await open());
    await readModels.transaction((tx) =>
      tx.execute('CREATE TABLE IF NOT EXISTS items (id TEXT PRIMARY KEY, count BIGINT NOT NULL, flag INTEGER, doc TEXT)'),
    );
  });
  afterEach(() => close());

  it('commits with ? placeholders, reports changes, and returns integers as numbers', async () => {
    const changes = await readModels.transaction(async (tx) => {
      await tx.execute('INSERT INTO items (id, count, flag, doc) VALUES (?, ?, ?, ?)', ['a', 2, true, JSON.stringify({ k: 'v' })]);
      await tx.execute('INSERT INTO items (id, count, flag, doc) VALUES (?, ?, ?, ?)', ['b', 3, false, undefined]);
      return tx.execute('UPDATE items SET count = count + ? WHERE id IN (?, ?)', [10, 'a', 'b']);
    });

    expect(changes).toEqual({ changes: 2 });
    expect(await readModels.query('SELECT id, count, flag, doc FROM items ORDER BY id')).toEqual([
      { id: 'a', count: 12, flag: 1, doc: '{"k":"v"}' },
      { id: 'b', count: 13, flag: 0, doc: null },
    ]);
    expect(await readModels.query('SELECT count(*) AS n, sum(count) AS total FROM items WHERE id > ?', [''])).toEqual([
      { n: 2, total: 25 },
    ]);
  });

  it('rolls everything back when the function throws, and rethrows', async () => {
    const failing = readModels.transaction(async (tx) => {
      await tx.execute('INSERT INTO items (id, count) VALUES (?, ?)', ['a', 1]);
      throw new Error('apply failed');
    });

    await expect(failing).rejects.toThrow('apply failed');
    expect(await readModels.query('SELECT id FROM items')).toEqual([]);
  });

  it('rolls back on a failing statement (unique violation)', async () => {
    const failing = readModels.transaction(async (tx) => {
      await tx.execute('INSERT INTO items (id, count) VALUES (?, ?)', ['a', 1]);
      await tx.execute('INSERT INTO items (id, count) VALUES (?, ?)', ['a', 2]);
    });

    // Matched by message: under jest, a native module's error class may come from another test file's realm.
    await expect(failing).rejects.toMatchObject({ message: expect.stringMatching(/unique/i) });
    expect(await readModels.query('SELECT id FROM items')).toEqual([]);
  });

  it('refuses a transaction handle used after the transaction ended', async () => {
    let leaked: Parameters<Parameters<ReadModelStore['transaction']>[0]>[0] | undefined;
    await readModels.transaction(async (tx) => void (leaked = tx));
    await expect(leaked!.execute('DELETE FROM items')).rejects.toThrow('already finished');
  });

  it('keeps concurrent transactions apart: one failing does not take the other with it', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const failing = readModels.transaction(async (tx) => {
      await tx.execute('INSERT INTO items (id, count) VALUES (?, ?)', ['doomed', 1]);
      await sleep(20);
      throw new Error('apply failed');
    });
    const succeeding = readModels.transaction(async (tx) => {
      await sleep(5);
      await tx.execute('INSERT INTO items (id, count) VALUES (?, ?)', ['kept', 1]);
    });

    await expect(failing).rejects.toThrow('apply failed');
    await succeeding;
    expect(await readModels.query('SELECT id FROM items')).toEqual([{ id: 'kept' }]);
  });
});

describe('sqlite read models sharing the event store handle', () => {
  it('an append made while a read-model transaction is open is not rolled back with it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'decom-shared-'));
    const store = new SqliteEventStore(join(folder, 'decom.db'));
    const readModels = new SqliteReadModelStore(store.database);
    try {
      let append: Promise<unknown> | undefined;
      const failing = readModels.transaction(async (tx) => {
        await tx.execute('CREATE TABLE IF NOT EXISTS items (id TEXT PRIMARY KEY)');
        append = store.append('cluster-a', [{ type: 'Created', data: {} }]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('apply failed');
      });

      await expect(failing).rejects.toThrow('apply failed');
      await append;
      expect((await store.readStream('cluster-a')).map((event) => event.type)).toEqual(['Created']);
      expect(await readModels.query("SELECT name FROM sqlite_master WHERE name = 'items'")).toEqual([]);
    } finally {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
