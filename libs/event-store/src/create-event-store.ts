import type { EventStore } from './event-store.port.js';
import { EsdbEventStore } from './esdb/esdb-event-store.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';
import { SqliteEventStore } from './sqlite/sqlite-event-store.js';

/**
 * Which backend to open: an embedded SQLite file, a PostgreSQL database (schema default `public`), or an
 * EventStoreDB server (`esdb://...`; `namespace` isolates the store's streams on a shared server).
 */
export type EventStoreConfig =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly schema?: string }
  | { readonly kind: 'esdb'; readonly connectionString: string; readonly namespace?: string };

/**
 * Opens the configured backend, ready to use (PostgreSQL: schema and table created when missing;
 * EventStoreDB: reached once).
 * The caller owns it and must `close()` it. SQLite read models get the handle from `SqliteEventStore.database`.
 */
export async function createEventStore(config: EventStoreConfig): Promise<EventStore> {
  switch (config.kind) {
    case 'sqlite':
      return new SqliteEventStore(config.file);
    case 'postgres': {
      const store = new PostgresEventStore({ connectionString: config.connectionString, schema: config.schema });
      try {
        await store.init();
      } catch (error) {
        await store.close();
        throw error;
      }
      return store;
    }
    case 'esdb': {
      const store = new EsdbEventStore({ connectionString: config.connectionString, namespace: config.namespace });
      try {
        // Fails fast on an unreachable server or bad credentials instead of at the first command.
        await store.headPosition();
      } catch (error) {
        await store.close();
        throw error;
      }
      return store;
    }
  }
}
