import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import Database from 'better-sqlite3';
import {
  ConcurrencyConflict,
  ReservationTaken,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port.js';
import { decideAppend, type StoredEventRef, type StreamTip } from '../append-decision.js';
import { CatchUpSubscription } from '../catch-up-subscription.js';
import { DuplicateEventId } from '../duplicate-event-id.error.js';
import { runWhenSqliteIdle } from './run-when-sqlite-idle.js';

export interface SqliteEventStoreOptions {
  /** Subscription re-read interval when no in-process append signal arrives (another process may write), ms. Default 200. */
  readonly pollIntervalMs?: number;
  /** Events read per subscription query. Default 500. */
  readonly batchSize?: number;
  /** Clock for `recorded_time`. Default `() => new Date()`. */
  readonly now?: () => Date;
}

interface EventRow {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_time: string;
}

interface PreparedEvent {
  readonly id: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    stream TEXT NOT NULL,
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    recorded_time TEXT NOT NULL,
    UNIQUE (stream, revision)
  );
  CREATE TABLE IF NOT EXISTS reservations (
    key TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    stream TEXT NOT NULL,
    position INTEGER NOT NULL
  );
`;

/** Larger than any position or revision, for "from the end" reads. */
const END = Number.MAX_SAFE_INTEGER;

/**
 * The embedded event store: one SQLite file (WAL, synchronous=NORMAL) with the `events` table.
 * Positions come from `AUTOINCREMENT` inside write transactions, which SQLite serialises, so they are
 * committed in order (gap-safe by construction). Pass an existing `Database` to share the file with the
 * read models; the store then leaves closing the handle to its owner.
 * Subscriptions wake on in-process appends and poll every `pollIntervalMs` for other processes' appends.
 */
export class SqliteEventStore implements EventStore {
  readonly database: Database.Database;
  private readonly ownsDatabase: boolean;
  private readonly appended = new EventEmitter();
  private readonly subscriptions = new Set<CatchUpSubscription>();
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly now: () => Date;
  private readonly statements;
  private readonly appendTransaction;

  constructor(fileOrDatabase: string | Database.Database, options: SqliteEventStoreOptions = {}) {
    this.ownsDatabase = typeof fileOrDatabase === 'string';
    this.database = typeof fileOrDatabase === 'string' ? new Database(fileOrDatabase) : fileOrDatabase;
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.batchSize = options.batchSize ?? 500;
    this.now = options.now ?? (() => new Date());
    this.appended.setMaxListeners(0);

    this.database.pragma('journal_mode = WAL');
    this.database.pragma('synchronous = NORMAL');
    this.database.pragma('busy_timeout = 5000');
    this.database.exec(SCHEMA);
    const columns = 'position, id, stream, revision, type, data, metadata, recorded_time';
    this.statements = {
      tip: this.database.prepare<[string], StreamTip>(
        'SELECT revision, position FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1',
      ),
      storedByIds: this.database.prepare<[string], StoredEventRef>(
        'SELECT id, stream, revision, position FROM events WHERE id IN (SELECT value FROM json_each(?))',
      ),
      insert: this.database.prepare(
        'INSERT INTO events (id, stream, revision, type, data, metadata, recorded_time) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      streamForwards: this.database.prepare<[string, number, number], EventRow>(
        `SELECT ${columns} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision ASC LIMIT ?`,
      ),
      streamBackwards: this.database.prepare<[string, number, number], EventRow>(
        `SELECT ${columns} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
      ),
      allForwards: this.database.prepare<[number, number], EventRow>(
        `SELECT ${columns} FROM events WHERE position > ? ORDER BY position ASC LIMIT ?`,
      ),
      allBackwards: this.database.prepare<[number, number], EventRow>(
        `SELECT ${columns} FROM events WHERE position < ? ORDER BY position DESC LIMIT ?`,
      ),
      head: this.database.prepare<[], { head: number }>('SELECT coalesce(max(position), 0) AS head FROM events'),
      reservation: this.database.prepare<[string], { holder: string; stream: string }>(
        'SELECT holder, stream FROM reservations WHERE key = ?',
      ),
      reserve: this.database.prepare('INSERT INTO reservations (key, holder, stream, position) VALUES (?, ?, ?, ?)'),
      release: this.database.prepare('DELETE FROM reservations WHERE key = ? AND stream = ?'),
    };
    this.appendTransaction = this.database.transaction((stream: string, events: readonly PreparedEvent[], options: AppendOptions) =>
      this.appendInTransaction(stream, events, options),
    );
  }

  /**
   * Appends atomically in one `BEGIN IMMEDIATE` transaction.
   * @throws ConcurrencyConflict when the expected revision does not hold.
   * @throws DuplicateEventId when event ids are reused other than by an exact retry.
   * @throws ReservationTaken when a key in `options.reserve` is held by another holder (nothing written).
   */
  async append(stream: string, events: readonly NewEvent[], options: AppendOptions = {}): Promise<AppendResult> {
    // Serialised before the transaction: a value JSON cannot encode fails the append with nothing written.
    const prepared = events.map((event) => ({
      id: event.id ?? randomUUID(),
      type: event.type,
      data: JSON.stringify(event.data ?? null),
      metadata: JSON.stringify(event.metadata ?? {}),
    }));
    let outcome: { result: AppendResult; isNew: boolean };
    try {
      outcome = await runWhenSqliteIdle(this.database, () => this.appendTransaction.immediate(stream, prepared, options));
    } catch (error) {
      throw this.translateError(error, stream, prepared, options);
    }
    if (outcome.isNew) this.appended.emit('appended');
    return outcome.result;
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? -1;
    const rows =
      options.direction === 'backwards'
        ? this.statements.streamBackwards.all(stream, options.fromRevision ?? END, limit)
        : this.statements.streamForwards.all(stream, options.fromRevision ?? 0, limit);
    return rows.map(toRecordedEvent);
  }

  /** Backwards reads return events with position < `afterPosition` when it is > 0, else from the head. */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? -1;
    const after = options.afterPosition ?? 0;
    const rows =
      options.direction === 'backwards'
        ? this.statements.allBackwards.all(after > 0 ? after : END, limit)
        : this.statements.allForwards.all(after, limit);
    return rows.map(toRecordedEvent);
  }

  async headPosition(): Promise<number> {
    return (this.statements.head.get() as { head: number }).head;
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions): Subscription {
    const source = {
      readAfter: (afterPosition: number, maxCount: number) => this.readAll({ afterPosition, maxCount }),
      watch: async (onAppended: () => void) => {
        this.appended.on('appended', onAppended);
        return () => void this.appended.off('appended', onAppended);
      },
    };
    const tuning = { pollIntervalMs: this.pollIntervalMs, batchSize: this.batchSize };
    const subscription = new CatchUpSubscription(source, handler, options, tuning, (done) => this.subscriptions.delete(done));
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Closes every subscription, then the database if the store opened it. Idempotent. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    if (this.ownsDatabase && this.database.open) this.database.close();
  }

  private appendInTransaction(
    stream: string,
    events: readonly PreparedEvent[],
    options: AppendOptions,
  ): { result: AppendResult; isNew: boolean } {
    const tip = this.statements.tip.get(stream);
    const eventIds = events.map((event) => event.id);
    const stored = eventIds.length > 0 ? this.statements.storedByIds.all(JSON.stringify(eventIds)) : [];
    const decision = decideAppend({ stream, eventIds, expected: options.expectedRevision ?? 'any', tip, stored });
    if (decision.kind === 'already-appended') return { result: decision.result, isNew: false };
    if (events.length === 0) {
      return { result: { nextExpectedRevision: tip?.revision ?? -1, position: tip?.position ?? 0 }, isNew: false };
    }
    const recordedTime = this.now().toISOString();
    let position = 0;
    events.forEach((event, index) => {
      const info = this.statements.insert.run(
        event.id,
        stream,
        decision.firstRevision + index,
        event.type,
        event.data,
        event.metadata,
        recordedTime,
      );
      position = Number(info.lastInsertRowid);
    });
    // Inside the same write transaction as the events: a taken key throws and rolls all of it back.
    for (const { key, holder } of options.reserve ?? []) {
      const taken = this.statements.reservation.get(key);
      if (!taken) this.statements.reserve.run(key, holder, stream, position);
      else if (taken.holder !== holder || taken.stream !== stream) throw new ReservationTaken(key, taken.holder, taken.stream);
    }
    for (const key of options.release ?? []) this.statements.release.run(key, stream);
    return { result: { nextExpectedRevision: decision.firstRevision + events.length - 1, position }, isNew: true };
  }

  /** Maps unique violations (only reachable if another writer bypasses our checks) to the port's errors. */
  private translateError(error: unknown, stream: string, events: readonly PreparedEvent[], options: AppendOptions): unknown {
    // Duck-typed: better-sqlite3 registers its error class once per process, so `instanceof` can miss it.
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE') return error;
    if (String(message).includes('events.id'))
      return new DuplicateEventId(
        stream,
        events.map((event) => event.id),
      );
    const tip = this.statements.tip.get(stream);
    return new ConcurrencyConflict(stream, options.expectedRevision ?? 'any', tip?.revision ?? 'no_stream');
  }
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    revision: row.revision,
    position: row.position,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    recorded_time: row.recorded_time,
  };
}
