import { createHash } from 'node:crypto';
import pg from 'pg';
import type { ReadModelStore, ReadModelTx } from './read-model-store.port.js';
import { toPositionalPlaceholders } from './positional-placeholders.js';

export interface PostgresReadModelStoreOptions {
  /** A pool to use (left open by `close()`); or give `connectionString` and the store owns its pool. */
  readonly pool?: pg.Pool;
  readonly connectionString?: string;
  /** Schema the read models live in (unqualified table names resolve there); created when missing. */
  readonly schema: string;
}

/** Distinct statement texts a store prepares by name; past it they run unnamed (parsed each time). */
const MAX_PREPARED_STATEMENTS = 500;

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * int8 (BIGINT, COUNT) and numeric (SUM of integers) come back as JS numbers, like SQLite's, instead of pg's
 * strings. Values beyond 2^53 lose precision; read-model counters and positions stay far below.
 */
const numericTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * Read models in one PostgreSQL schema. Each transaction (and each plain `query`, run in a transaction of
 * its own) sets `search_path` with `SET LOCAL`, so unqualified table names resolve to the schema and a
 * shared pool's other users are unaffected. `?` placeholders become `$1..$n` (see `ReadModelStore`);
 * booleans are bound as 0/1 and `undefined` as NULL, as in SQLite. Data statements are prepared by name
 * (see `statement`): the projections' and queries' few texts are parsed and planned once per connection.
 */
export class PostgresReadModelStore implements ReadModelStore {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;
  readonly schema: string;
  private readonly ownsPool: boolean;
  private readonly begin: string;
  private readonly beginSetup: string;
  private ready: Promise<void> | undefined;
  private isClosed = false;
  /** `?` SQL → its `$n` text and, for data statements, the name it is prepared under on each connection. */
  private readonly statements = new Map<string, { readonly text: string; readonly name?: string }>();

  constructor(options: PostgresReadModelStoreOptions) {
    if (!options.pool && !options.connectionString) throw new TypeError('PostgresReadModelStore needs a pool or a connectionString');
    this.ownsPool = !options.pool;
    this.pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString });
    // See PostgresEventStore: an idle connection's death must not crash the process.
    if (this.ownsPool) this.pool.on('error', () => undefined);
    // A checked-out client's connection can die between two queries too; the next query reports it.
    if (this.ownsPool) this.pool.on('connect', (client) => client.on('error', () => undefined));
    this.schema = options.schema;
    this.begin = `BEGIN; SET LOCAL search_path TO ${pg.escapeIdentifier(this.schema)}`;
    // Same first key as the event store's locks (0xdec0), another second key: set-up never waits on appends.
    this.beginSetup = `${this.begin}; SELECT pg_advisory_xact_lock(${0xdec0}, hashtext(${pg.escapeLiteral(`decom.read-models:${this.schema}`)}))`;
  }

  transaction<T>(fn: (tx: ReadModelTx) => Promise<T>): Promise<T> {
    return this.run(this.begin, fn);
  }

  /** A transaction under the schema's set-up advisory lock: concurrent first starts create tables one at a time. */
  setupTransaction<T>(fn: (tx: ReadModelTx) => Promise<T>): Promise<T> {
    return this.run(this.beginSetup, fn);
  }

  private async run<T>(begin: string, fn: (tx: ReadModelTx) => Promise<T>): Promise<T> {
    await this.ensureSchema();
    const client = await this.pool.connect();
    let isOpen = true;
    let isBroken = false;
    const run = async (sql: string, params: readonly unknown[]) => {
      if (!isOpen) throw new Error('read-model transaction already finished');
      return client.query({ ...this.statement(sql), values: params.map(bind), types: numericTypes });
    };
    const tx: ReadModelTx = {
      dialect: this.dialect,
      query: async <R>(sql: string, params: readonly unknown[] = []) => (await run(sql, params)).rows as R[],
      execute: async (sql, params = []) => ({ changes: (await run(sql, params)).rowCount ?? 0 }),
    };
    try {
      await client.query(begin);
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      isBroken = !(await rollback(client));
      throw error;
    } finally {
      isOpen = false;
      client.release(isBroken);
    }
  }

  query<R = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return this.transaction((tx) => tx.query<R>(sql, params));
  }

  /**
   * The statement for `sql`: data statements (SELECT, INSERT, UPDATE, DELETE) are prepared once per
   * connection under a name derived from the schema and text, so a repeated one is neither parsed nor
   * planned again; DDL and texts beyond the first `MAX_PREPARED_STATEMENTS` run unnamed.
   */
  private statement(sql: string): { readonly text: string; readonly name?: string } {
    let statement = this.statements.get(sql);
    if (!statement) {
      const text = toPositionalPlaceholders(sql);
      const isData = /^\s*(SELECT|INSERT|UPDATE|DELETE)\b/i.test(text);
      if (!isData || this.statements.size >= MAX_PREPARED_STATEMENTS) return { text };
      statement = { text, name: `decom_rm_${createHash('sha1').update(`${this.schema}\u0000${text}`).digest('hex').slice(0, 24)}` };
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Ends the pool if the store created it. Idempotent. */
  async close(): Promise<void> {
    if (this.ownsPool && !this.isClosed) {
      this.isClosed = true;
      await this.pool.end();
    }
  }

  /** Creates the schema when missing; looks first, so a role without CREATE on the database works once it exists. */
  private ensureSchema(): Promise<void> {
    this.ready ??= this.createSchema().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async createSchema(): Promise<void> {
    const found = await this.pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [this.schema]);
    if (found.rowCount) return;
    try {
      await this.pool.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(this.schema)}`);
    } catch (error) {
      // Another process created it at the same moment: the loser sees a unique violation.
      if (!(error instanceof pg.DatabaseError && (error.code === '23505' || error.code === '42P06'))) throw error;
    }
  }
}

/** Booleans go in as 0/1, as in SQLite (PostgreSQL also reads '1'/'0' into a BOOLEAN column). */
function bind(value: unknown): unknown {
  return typeof value === 'boolean' ? Number(value) : value === undefined ? null : value;
}

async function rollback(client: pg.PoolClient): Promise<boolean> {
  try {
    await client.query('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}
