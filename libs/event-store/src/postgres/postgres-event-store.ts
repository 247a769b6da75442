import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  ConcurrencyConflict,
  ReservationTaken,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port.js';
import { decideAppend, type StoredEventRef, type StreamTip } from '../append-decision.js';
import { RESERVATION_TAKEN_SQLSTATE, appendFunctionSql } from './append-function.sql.js';
import { CatchUpSubscription } from '../catch-up-subscription.js';
import { PostgresNotificationListener } from './postgres-notification-listener.js';

export interface PostgresEventStoreOptions {
  /** A pool to use (left open by `close()`); or give `connectionString` and the store owns its pool. */
  readonly pool?: pg.Pool;
  readonly connectionString?: string;
  /** Schema holding the `events` table, created when missing. Default `public`. */
  readonly schema?: string;
  /** Subscription re-read interval when no NOTIFY arrives, ms. Default 500. */
  readonly pollIntervalMs?: number;
  /** Events read per subscription query. Default 500. */
  readonly batchSize?: number;
}

/** What `decom_append` returns: the append's result, or what it read when it wrote nothing. */
type AppendOutcome =
  | { readonly kind: 'appended'; readonly next: number; readonly position: number | string }
  | {
      readonly kind: 'decide';
      readonly tip: { readonly revision: number; readonly position: number | string } | null;
      readonly stored: StoredEventRef[];
    };

interface EventRow {
  position: string;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_time: Date;
}

/** Arbitrary first key of our advisory locks (two-key form), so they do not collide with other users'. */
const LOCK_CLASS = 0xdec0;
const COLUMNS = 'position, id, stream, revision, type, data, metadata, recorded_time';
const END = Number.MAX_SAFE_INTEGER;

/**
 * The distributed event store: `<schema>.events` in PostgreSQL through a `pg` pool.
 *
 * Gap-safe ordering. A sequence would hand out positions before commit, and concurrent transactions
 * commit out of order: a reader could see position 6, move its checkpoint past it, and never see 5.
 * Instead every append takes a transaction-scoped advisory lock (one per schema) before reading
 * anything, and numbers its events `max(position) + 1 ...` under it. PostgreSQL makes a commit visible
 * before it releases the transaction's locks, so the next appender only gets the lock (and its
 * positions) after the previous append is visible: any reader snapshot sees a prefix of `$all`, and
 * positions are dense. The lock is taken in its own statement because, under READ COMMITTED, a statement's
 * snapshot is fixed when it starts: reading in the same statement could miss the append we waited for.
 * The same lock serialises the expected-revision check and the reservations (`reservations` table: key →
 * holder, stream); UNIQUE(stream, revision) is the backstop. The whole append is one server-side function
 * call (append-function.sql.ts), so it costs one round trip; appends to one schema are still serial.
 *
 * Subscriptions wake on LISTEN/NOTIFY (`pg_notify` in the append transaction, delivered on commit) and
 * poll every `pollIntervalMs` in case a notification is lost with its connection.
 */
export class PostgresEventStore implements EventStore {
  readonly pool: pg.Pool;
  readonly schema: string;
  private readonly ownsPool: boolean;
  private readonly table: string;
  private readonly lockStatement: string;
  private readonly reservations: string;
  private readonly appendStatement: string;
  private readonly channel: string;
  private readonly listener: PostgresNotificationListener;
  private readonly subscriptions = new Set<CatchUpSubscription>();
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private ready: Promise<void> | undefined;
  private isClosed = false;

  constructor(options: PostgresEventStoreOptions) {
    if (!options.pool && !options.connectionString) throw new TypeError('PostgresEventStore needs a pool or a connectionString');
    this.ownsPool = !options.pool;
    this.pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString });
    // An idle pooled connection can die (server restart); the next query reports it. Without a listener
    // the pool's 'error' event would crash the process.
    if (this.ownsPool) this.pool.on('error', () => undefined);
    // A checked-out client's connection can die between two queries too; the next query reports it.
    if (this.ownsPool) this.pool.on('connect', (client) => client.on('error', () => undefined));
    this.schema = options.schema ?? 'public';
    this.table = `${pg.escapeIdentifier(this.schema)}.events`;
    this.reservations = `${pg.escapeIdentifier(this.schema)}.reservations`;
    this.appendStatement = `SELECT ${pg.escapeIdentifier(this.schema)}.decom_append($1, $2, $3::jsonb, $4::jsonb, $5::text[]) AS outcome`;
    this.lockStatement = `SELECT pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${pg.escapeLiteral(`decom.events:${this.schema}`)}))`;
    // A digest keeps the channel a short, plain identifier whatever the schema is called.
    this.channel = `decom_events_${createHash('sha256').update(this.schema).digest('hex').slice(0, 24)}`;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.batchSize = options.batchSize ?? 500;
    this.listener = new PostgresNotificationListener(this.pool, this.channel, this.pollIntervalMs);
  }

  /** Creates the schema and table when missing (idempotent, safe across processes). Called by every method. */
  init(): Promise<void> {
    this.ready ??= this.migrate().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /**
   * Appends atomically in one statement: `decom_append(...)`, a server-side function (created by
   * `init`) that takes the schema's append lock, checks the expected revision, inserts the events, takes
   * and releases reservations and notifies subscribers, all in the statement's own transaction. One round
   * trip instead of four. When the expected revision does not hold it writes nothing and
   * returns what it read; when an id is already stored its INSERT fails on the unique index and we read
   * the tip and the stored ids (a second round trip, for retries only). `decideAppend` then names the
   * outcome (conflict, duplicate id, or an exact retry's original result) exactly as on the other backends.
   * @throws ConcurrencyConflict when the expected revision does not hold.
   * @throws DuplicateEventId when event ids are reused other than by an exact retry.
   * @throws ReservationTaken when a key in `options.reserve` is held by another holder.
   */
  async append(stream: string, events: readonly NewEvent[], options: AppendOptions = {}): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    const prepared = events.map((event) => ({
      id: event.id ?? randomUUID(),
      type: event.type,
      data: event.data ?? null,
      metadata: event.metadata ?? {},
    }));
    const eventIds = prepared.map((event) => event.id);
    // Argument errors (a bad expected revision, an id twice in the batch) before any round trip.
    decideAppend({ stream, eventIds, expected, tip: undefined, stored: [], checkOnly: true });
    // Serialised here: a value JSON cannot encode fails the append with nothing sent.
    const payload = JSON.stringify(prepared);
    const reserve = JSON.stringify(options.reserve ?? []);
    await this.init();
    let outcome: AppendOutcome;
    try {
      const result = await this.pool.query<{ outcome: AppendOutcome }>(this.appendStatement, [
        stream,
        String(expected),
        payload,
        reserve,
        options.release ?? [],
      ]);
      outcome = result.rows[0]!.outcome;
    } catch (error) {
      // An id already stored (the function does not look them up first): decide from what is stored now.
      // Events are never changed or removed, so a later read still shows the rows the INSERT collided with.
      if (isUniqueViolation(error, '_id_key')) outcome = await this.readDecisionInputs(stream, eventIds);
      else throw await this.translateError(error, stream, eventIds, expected);
    }
    if (outcome.kind === 'appended') return { nextExpectedRevision: outcome.next, position: Number(outcome.position) };
    const tip = outcome.tip ? { revision: outcome.tip.revision, position: Number(outcome.tip.position) } : undefined;
    const stored = outcome.stored.map((ref) => ({ ...ref, position: Number(ref.position) }));
    const decision = decideAppend({ stream, eventIds, expected, tip, stored });
    if (decision.kind === 'already-appended') return decision.result;
    if (prepared.length === 0) return { nextExpectedRevision: tip?.revision ?? -1, position: tip?.position ?? 0 };
    // The function appends whenever decideAppend would: reaching this line means the two disagree.
    throw new Error(`decom_append declined an append that decideAppend accepts (stream '${stream}')`);
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    await this.init();
    const isBackwards = options.direction === 'backwards';
    const result = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE stream = $1 AND revision ${isBackwards ? '<=' : '>='} $2::bigint
       ORDER BY revision ${isBackwards ? 'DESC' : 'ASC'} LIMIT $3`,
      [stream, options.fromRevision ?? (isBackwards ? END : 0), options.maxCount ?? null],
    );
    return result.rows.map(toRecordedEvent);
  }

  /** Backwards reads return events with position < `afterPosition` when it is > 0, else from the head. */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    await this.init();
    const isBackwards = options.direction === 'backwards';
    const after = options.afterPosition ?? 0;
    const result = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE position ${isBackwards ? '<' : '>'} $1::bigint
       ORDER BY position ${isBackwards ? 'DESC' : 'ASC'} LIMIT $2`,
      [isBackwards && after <= 0 ? END : after, options.maxCount ?? null],
    );
    return result.rows.map(toRecordedEvent);
  }

  async headPosition(): Promise<number> {
    await this.init();
    const result = await this.pool.query<{ head: string }>(`SELECT coalesce(max(position), 0) AS head FROM ${this.table}`);
    return Number(result.rows[0]!.head);
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions): Subscription {
    const source = {
      readAfter: (afterPosition: number, maxCount: number) => this.readAll({ afterPosition, maxCount }),
      watch: (onAppended: () => void) => this.listener.watch(onAppended),
    };
    const tuning = { pollIntervalMs: this.pollIntervalMs, batchSize: this.batchSize };
    const subscription = new CatchUpSubscription(source, handler, options, tuning, (done) => this.subscriptions.delete(done));
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Closes every subscription, then the pool if the store created it. Idempotent. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    if (this.ownsPool && !this.isClosed) {
      this.isClosed = true;
      await this.pool.end();
    }
  }

  /** The stream's tip and the stored events with these ids, read in one statement (one snapshot). */
  private async readDecisionInputs(stream: string, eventIds: readonly string[]): Promise<AppendOutcome> {
    const result = await this.pool.query<{ tip: { revision: number; position: string } | null; stored: StoredEventRef[] }>(
      `SELECT
         (SELECT jsonb_build_object('revision', revision, 'position', position) FROM ${this.table}
           WHERE stream = $1 ORDER BY revision DESC LIMIT 1) AS tip,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'stream', stream, 'revision', revision, 'position', position)), '[]'::jsonb)
           FROM ${this.table} WHERE id = ANY($2::text[])) AS stored`,
      [stream, eventIds],
    );
    const row = result.rows[0]!;
    return { kind: 'decide', tip: row.tip, stored: row.stored };
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    let isBroken = false;
    try {
      // Under the append lock, so concurrent first starts (and other versions) do not race on the DDL.
      await client.query(`BEGIN; ${this.lockStatement}`);
      await client.query(`
        CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(this.schema)};
        CREATE TABLE IF NOT EXISTS ${this.table} (
          position BIGINT PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          stream TEXT NOT NULL,
          revision INTEGER NOT NULL,
          type TEXT NOT NULL,
          data JSONB NOT NULL,
          metadata JSONB NOT NULL,
          recorded_time TIMESTAMPTZ NOT NULL,
          UNIQUE (stream, revision)
        );
        CREATE TABLE IF NOT EXISTS ${this.reservations} (
          key TEXT PRIMARY KEY,
          holder TEXT NOT NULL,
          stream TEXT NOT NULL,
          position BIGINT NOT NULL
        );
        ${appendFunctionSql(this.schema, this.table, this.reservations, this.lockStatement.replace(/^SELECT /, 'PERFORM '), this.channel)}
        COMMIT;`);
    } catch (error) {
      isBroken = !(await rollback(client));
      throw error;
    } finally {
      client.release(isBroken);
    }
  }

  /**
   * Maps `decom_append`'s reservation refusal, and a (stream, revision) unique violation (only reachable if
   * a writer bypasses the append lock), to the port's errors.
   */
  private async translateError(error: unknown, stream: string, eventIds: readonly string[], expected: ExpectedRevision): Promise<unknown> {
    if (error instanceof pg.DatabaseError && error.code === RESERVATION_TAKEN_SQLSTATE) {
      const taken = JSON.parse(error.detail ?? '{}') as { key: string; holder: string; stream: string };
      return new ReservationTaken(taken.key, taken.holder, taken.stream);
    }
    if (!isUniqueViolation(error, '_stream_revision_key')) return error;
    const [last] = await this.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return new ConcurrencyConflict(stream, expected, last?.revision ?? 'no_stream');
  }
}

/** Whether `error` is PostgreSQL's unique_violation on a constraint whose name ends with `constraintSuffix`. */
function isUniqueViolation(error: unknown, constraintSuffix: string): boolean {
  return error instanceof pg.DatabaseError && error.code === '23505' && (error.constraint?.endsWith(constraintSuffix) ?? false);
}

/** Rolls back if possible; false when the connection itself is unusable (then it must not go back to the pool). */
async function rollback(client: pg.PoolClient): Promise<boolean> {
  try {
    await client.query('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    revision: row.revision,
    position: Number(row.position),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recorded_time: row.recorded_time.toISOString(),
  };
}
