import type Database from 'better-sqlite3';
import { runWhenSqliteIdle } from '@decom/event-store';
import type { ReadModelStore, ReadModelTx } from './read-model-store.port.js';

/** Prepared statements kept per SQL text; read-model SQL is a small fixed set, the cap only guards misuse. */
const MAX_CACHED_STATEMENTS = 500;

/**
 * Read models in SQLite, on the same better-sqlite3 handle as the `SqliteEventStore` so both live in one
 * file. A transaction is `BEGIN IMMEDIATE` ... `COMMIT` around the async `fn`: safe because better-sqlite3
 * runs each statement synchronously and every user of the handle (this store, the event store) first
 * starts only when no other transaction is open on it (`runWhenSqliteIdle`), so nothing joins ours by accident.
 * Booleans are bound as 0/1 and `undefined` as NULL, as in PostgreSQL.
 */
export class SqliteReadModelStore implements ReadModelStore {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Database.Statement>();
  /** Committed transactions so far (see `writeVersion`). */
  private commits = 0;

  constructor(private readonly db: Database.Database) {}

  async transaction<T>(fn: (tx: ReadModelTx) => Promise<T>): Promise<T> {
    await runWhenSqliteIdle(this.db, () => this.db.exec('BEGIN IMMEDIATE'));
    let isOpen = true;
    const guard = () => {
      if (!isOpen) throw new Error('read-model transaction already finished');
    };
    const tx: ReadModelTx = {
      dialect: this.dialect,
      query: async <R>(sql: string, params: readonly unknown[] = []) => (guard(), this.all<R>(sql, params)),
      execute: async (sql, params = []) => {
        guard();
        return { changes: this.statement(sql).run(...bind(params)).changes };
      },
    };
    try {
      const result = await fn(tx);
      this.db.exec('COMMIT');
      this.commits += 1;
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      isOpen = false;
    }
  }

  /**
   * Grows with every committed read-model transaction. The data folder's lock (one engine per folder) makes
   * this process the only writer of its read models while it runs.
   */
  writeVersion(): number {
    return this.commits;
  }

  /** Reads committed rows only: waits for an open transaction (the runner's) to finish first. */
  async query<R = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return runWhenSqliteIdle(this.db, () => this.all<R>(sql, params));
  }

  private all<R>(sql: string, params: readonly unknown[]): R[] {
    return this.statement(sql).all(...bind(params)) as R[];
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

function bind(params: readonly unknown[]): unknown[] {
  return params.map((value) => (typeof value === 'boolean' ? Number(value) : value === undefined ? null : value));
}
