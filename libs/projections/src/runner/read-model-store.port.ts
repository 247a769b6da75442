/**
 * Where projections keep their read models: a SQL database reached through one small portable surface.
 * SQL is written once with `?` placeholders (SQLite style); the PostgreSQL store rewrites them to `$1..$n`,
 * so `?` must not appear inside SQL string literals, identifiers or comments. JSON columns are TEXT in both
 * databases (store `JSON.stringify`, parse on read). Integer results are JS numbers in both.
 * Keep to the common dialect: `CREATE TABLE IF NOT EXISTS`, `INSERT ... ON CONFLICT (...) DO UPDATE/NOTHING`,
 * `TEXT`, `INTEGER`, `BIGINT`. Boolean parameters are bound as 0/1 (store flags as INTEGER).
 */
export interface ReadModelQueries {
  /** The SQL dialect, for the few queries that cannot stay in the common one (JSON in `search`); default sqlite. */
  readonly dialect?: 'sqlite' | 'postgres';
  /** Runs a statement returning rows. */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /**
   * A number that grows with every committed read-model transaction of this store, when the store sees
   * every write to its read models (the embedded SQLite file has one writer: this process); undefined where
   * other processes write too (PostgreSQL). Readers use it to keep derived answers (list totals) until the
   * next write.
   */
  writeVersion?(): number | undefined;
}

/** A read-model transaction: everything done through it commits or rolls back together. */
export interface ReadModelTx extends ReadModelQueries {
  /** Runs one statement returning no rows; `changes` is the number of rows it inserted, updated or deleted. */
  execute(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
}

export interface ReadModelStore extends ReadModelQueries {
  /**
   * Runs `fn` in one transaction: commits when it resolves, rolls back (and rethrows) when it rejects.
   * Do not use the `tx` after `fn` settles.
   */
  transaction<T>(fn: (tx: ReadModelTx) => Promise<T>): Promise<T>;
  /**
   * Like `transaction`, serialised with every other process's set-up of the same read models (PostgreSQL:
   * a transaction-scoped advisory lock per schema; SQLite: its write lock already does it). For schema
   * creation and migrations only.
   */
  setupTransaction?<T>(fn: (tx: ReadModelTx) => Promise<T>): Promise<T>;
}
