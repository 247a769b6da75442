/**
 * Opens the event store and the read-model store the configuration names (`DECOM_EVENT_STORE`):
 * - `sqlite` (embedded): both in one SQLite file, `<DECOM_DATA_DIR>/decom.sqlite`.
 * - `postgres`: both in one PostgreSQL database and schema (`DATABASE_URL`, `DECOM_PG_SCHEMA`), one pool.
 * - `esdb`: events in EventStoreDB (`EVENTSTORE_CONNECTION_STRING`), read models in PostgreSQL.
 * In every profile a projection's rows and its checkpoint commit in one read-model transaction.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { ConfigError, type AppConfig } from '@decom/config';
import { createEventStore, PostgresEventStore, SqliteEventStore, type EventStore } from '@decom/event-store';
import { PostgresReadModelStore, SqliteReadModelStore, type ReadModelStore } from '@decom/projections';

export interface Storage {
  readonly store: EventStore;
  readonly readModels: ReadModelStore;
  /** One line for the start-up log, e.g. `SQLite at ./data/decom.sqlite`. */
  readonly description: string;
  close(): Promise<void>;
}

/**
 * A server of the store did not answer or refused the set-up (connect, schema migration): `decom start`
 * waits and retries (`@decom/runtime`'s dependency-wait.ts); one-shot commands report it. `cause` is the driver's error.
 */
export class StorageUnavailable extends Error {
  override readonly name = 'StorageUnavailable';
  /** The driver's code (ECONNREFUSED, 57P03), kept visible to `describeError` and `isTransientError`. */
  readonly code: string | undefined;
  constructor(
    /** `postgres` or `eventstoredb`, as `/readyz` names it. */
    readonly dependency: 'postgres' | 'eventstoredb',
    /** How the log names it, without a password: `PostgreSQL postgres://decom:***@db:5432/decom`. */
    readonly label: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    const code = (cause as { code?: unknown } | undefined)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/**
 * @throws StorageUnavailable when a server is unreachable or its set-up fails (PostgreSQL, EventStoreDB).
 * @throws ConfigError for a malformed DATABASE_URL. The configuration itself was validated by
 * `loadAppConfig` (missing URLs name their variable).
 */
export async function openStorage(config: AppConfig): Promise<Storage> {
  switch (config.eventStore) {
    case 'sqlite':
      return openSqlite(config);
    case 'postgres':
      return openPostgres(config, requireSetting(config.databaseUrl, 'DATABASE_URL'));
    case 'esdb':
      return openEsdb(
        config,
        requireSetting(config.eventStoreConnectionString, 'EVENTSTORE_CONNECTION_STRING'),
        requireSetting(config.databaseUrl, 'DATABASE_URL'),
      );
  }
}

/** Owner-only: the event log names every caller and every force-delete reason. */
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;

async function openSqlite(config: AppConfig): Promise<Storage> {
  await mkdir(config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = join(config.dataDir, 'decom.sqlite');
  // SQLite gives its -wal and -shm files the database file's mode: creating it owner-only covers all three.
  // A file that exists keeps the mode its owner gave it.
  if (!existsSync(file)) closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  // The embedded profile has one writer process: a second engine on the same folder would double-dispatch
  // and race the projection checkpoints. The lock (proper-lockfile, stale after 10 s) refuses it up front;
  // its holder's pid sits next to it, so a lock left by a killed engine (kill -9) is taken over at once.
  const lockfilePath = join(config.dataDir, 'decom.lock');
  const pidFile = join(config.dataDir, 'decom.lock.pid');
  const lock = () => lockfile.lock(config.dataDir, { lockfilePath, stale: 10_000, update: 2_000 });
  let release: () => Promise<void>;
  try {
    try {
      release = await lock();
    } catch (error) {
      if ((error as { code?: string }).code !== 'ELOCKED' || isHolderAlive(pidFile)) throw error;
      rmSync(lockfilePath, { recursive: true, force: true });
      release = await lock();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new Error(
        `DECOM_DATA_DIR: ${config.dataDir} is in use by another running Decom engine (embedded profile allows one process per data folder)`,
      );
    }
    throw error;
  }
  writeFileSync(pidFile, String(process.pid), { mode: PRIVATE_FILE_MODE });
  let store: SqliteEventStore;
  try {
    store = new SqliteEventStore(file);
  } catch (error) {
    await release();
    // better-sqlite3 says only "file is not a database": name the file and the way out.
    throw new Error(
      `SQLite file ${file}: ${error instanceof Error ? error.message : String(error)} (DECOM_DATA_DIR=${config.dataDir}; move the file away to start with an empty store)`,
    );
  }
  return {
    store,
    readModels: new SqliteReadModelStore(store.database),
    description: `SQLite at ${file}`,
    close: async () => {
      await store.close();
      await release();
    },
  };
}

async function openPostgres(config: AppConfig, databaseUrl: string): Promise<Storage> {
  // One pool for events and read models: the append lock's transactions and the read side share its budget.
  const pool = newPool(databaseUrl);
  const store = new PostgresEventStore({ pool, schema: config.pgSchema });
  const readModels = new PostgresReadModelStore({ pool, schema: config.pgSchema });
  try {
    await store.init();
  } catch (error) {
    await pool.end();
    throw new StorageUnavailable('postgres', `PostgreSQL ${redact(databaseUrl)}`, error);
  }
  return {
    store,
    readModels,
    description: `PostgreSQL ${redact(databaseUrl)}, schema ${config.pgSchema} (events and read models)`,
    close: async () => {
      await store.close();
      await pool.end();
    },
  };
}

async function openEsdb(config: AppConfig, connectionString: string, databaseUrl: string): Promise<Storage> {
  let store: EventStore;
  try {
    store = await createEventStore({ kind: 'esdb', connectionString });
  } catch (error) {
    throw new StorageUnavailable('eventstoredb', `EventStoreDB ${redact(connectionString)}`, error);
  }
  let pool: pg.Pool;
  try {
    pool = newPool(databaseUrl);
  } catch (error) {
    await store.close();
    throw error;
  }
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    await store.close();
    throw new StorageUnavailable('postgres', `PostgreSQL ${redact(databaseUrl)}`, error);
  }
  const readModels = new PostgresReadModelStore({ pool, schema: config.pgSchema });
  return {
    store,
    readModels,
    description: `EventStoreDB ${redact(connectionString)} (events), PostgreSQL ${redact(databaseUrl)}, schema ${config.pgSchema} (read models)`,
    close: async () => {
      await store.close();
      await pool.end();
    },
  };
}

/**
 * A pool that survives its server: an idle connection's death is reported on the pool, a
 * checked-out one's on the client (57P01 between two queries of a transaction), and either without a
 * listener would crash the process; the next query reports the loss to its caller (→ 503, supervisor).
 * Connecting gives up after 5 s instead of waiting for a server that is down.
 * @throws ConfigError naming DATABASE_URL (never echoing it: it may hold a password) when it cannot be parsed.
 */
function newPool(connectionString: string): pg.Pool {
  try {
    // pg parses lazily; parse now so a malformed URL fails the start with a clean message.
    new URL(connectionString);
  } catch {
    throw new ConfigError(
      'DATABASE_URL',
      'is not a valid URL (postgres://user:password@host:port/database); value not shown, it may hold a password',
    );
  }
  const pool = new pg.Pool({ connectionString, connectionTimeoutMillis: 5_000, keepAlive: true });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** Whether the engine that wrote `pidFile` still runs (no file, or an unreadable one: assume it does). */
function isHolderAlive(pidFile: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    return true;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function requireSetting(value: string | undefined, variable: string): string {
  if (!value) throw new Error(`${variable} is required for this DECOM_EVENT_STORE`);
  return value;
}

/** Connection strings go to the log without their password. */
function redact(connectionString: string): string {
  return connectionString.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
