/**
 * Opens the event store and the read-model store the configuration names. The embedded profile keeps both
 * in one SQLite file (`<DECOM_DATA_DIR>/decom.sqlite`), so projections commit with their checkpoint.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppConfig } from '@decom/config';
import { SqliteEventStore, type EventStore } from '@decom/event-store';
import { SqliteReadModelStore, type ReadModelStore } from '@decom/projections';

export interface Storage {
  readonly store: EventStore;
  readonly readModels: ReadModelStore;
  /** One line for the start-up log, e.g. `SQLite at ./data/decom.sqlite`. */
  readonly description: string;
  close(): Promise<void>;
}

export async function openStorage(config: AppConfig): Promise<Storage> {
  await mkdir(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'decom.sqlite');
  const store = new SqliteEventStore(file);
  return {
    store,
    readModels: new SqliteReadModelStore(store.database),
    description: `SQLite at ${file}`,
    close: () => store.close(),
  };
}
