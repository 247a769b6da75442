/**
 * The two read-model stores a projection spec runs against, for `describe.each`: SQLite in memory, and a fresh
 * schema of the tests' PostgreSQL (dropped on close). The PostgreSQL server comes from `usePostgres` in the
 * spec's own `beforeAll`, so it is read when a backend opens, not when the list is built.
 */
import Database from 'better-sqlite3';
import type { PostgresForTests } from '../../../../test/support/postgres.js';
import { PostgresReadModelStore } from '../runner/postgres-read-model-store.js';
import type { ReadModelStore } from '../runner/read-model-store.port.js';
import { SqliteReadModelStore } from '../runner/sqlite-read-model-store.js';

export interface OpenedReadModels {
  readonly readModels: ReadModelStore;
  close(): Promise<void>;
}

export function readModelBackends(postgres: () => PostgresForTests): Array<[string, () => Promise<OpenedReadModels>]> {
  return [
    [
      'sqlite',
      async () => {
        const db = new Database(':memory:');
        return { readModels: new SqliteReadModelStore(db), close: async () => void db.close() };
      },
    ],
    [
      'postgres',
      async () => {
        const server = postgres();
        const schema = await server.newSchema();
        const readModels = new PostgresReadModelStore({ connectionString: server.connectionString, schema });
        return { readModels, close: async () => (await readModels.close(), await server.dropSchema(schema)) };
      },
    ],
  ];
}
