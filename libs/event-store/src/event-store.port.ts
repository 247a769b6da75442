/**
 * The event-store port: the one contract every backend (SQLite, PostgreSQL, EventStoreDB) implements.
 * Streams are named `<kind>-<id>`; revisions are 0-based per stream; positions are the
 * global, gap-free-for-readers order of `$all` (1-based, strictly increasing in commit-visibility order).
 */

/** An event to append. `id` (UUID) makes the append idempotent: re-appending the same ids is a no-op. */
export interface NewEvent<T = unknown> {
  readonly id?: string;
  readonly type: string;
  readonly data: T;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** An event as stored. `revision` is its 0-based index in its stream; `position` its place in `$all`. */
export interface RecordedEvent<T = unknown> {
  readonly id: string;
  readonly stream: string;
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly data: T;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** RFC 3339 UTC time the store committed the event. */
  readonly recorded_time: string;
}

/**
 * What the caller believes the stream's last revision is.
 * - `'any'`: no check. - `'no_stream'`: the stream must not exist. - `'stream_exists'`: it must exist.
 * - a number: the revision of the stream's last event must equal it.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

/**
 * A unique key taken by an append (e.g. a resource name: `reservation-keys.ts` in the domain). The store
 * decides it in the same atomic append as the events: of two appends reserving one key, one wins and the
 * other fails with `ReservationTaken` naming the holder, and nothing of the loser is written.
 */
export interface Reservation {
  readonly key: string;
  /** Who holds the key (a resource id): what the loser is told. */
  readonly holder: string;
}

export interface AppendOptions {
  readonly expectedRevision?: ExpectedRevision;
  /** Keys to take with the events. Taking a key this stream already holds for the same holder is a no-op. */
  readonly reserve?: readonly Reservation[];
  /** Keys held by this stream to give back with the events (others' keys are left alone). */
  readonly release?: readonly string[];
}

export interface AppendResult {
  /** Revision of the last event now in the stream (pass it back as `expectedRevision`). */
  readonly nextExpectedRevision: number;
  /** `$all` position of the last appended event (a reader caught up to it has seen the append). */
  readonly position: number;
}

/** Thrown when `expectedRevision` does not hold. `actual` is the stream's last revision, or `'no_stream'`. */
export class ConcurrencyConflict extends Error {
  override readonly name = 'ConcurrencyConflict';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream '${stream}': expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

/** Thrown when a key in `reserve` is held by another holder (or stream). Nothing was appended. */
export class ReservationTaken extends Error {
  override readonly name = 'ReservationTaken';
  constructor(
    readonly key: string,
    /** The current holder (a resource id). */
    readonly holder: string,
    /** The stream whose append took the key. */
    readonly stream: string,
  ) {
    super(`'${key}' is already held by ${holder} (stream '${stream}')`);
  }
}

export interface ReadStreamOptions {
  readonly direction?: 'forwards' | 'backwards';
  /** Inclusive start revision (forwards default 0; backwards default the end). */
  readonly fromRevision?: number;
  readonly maxCount?: number;
}

export interface ReadAllOptions {
  readonly direction?: 'forwards' | 'backwards';
  /** Exclusive: forwards returns events with position > afterPosition (default 0 = from the start). */
  readonly afterPosition?: number;
  readonly maxCount?: number;
}

/** A live subscription; `close()` stops delivery and resolves once the handler is idle. */
export interface Subscription {
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /** Exclusive checkpoint: deliver events with position > afterPosition, first the backlog, then live. */
  readonly afterPosition: number;
  /** Called on a handler or store error; the subscription stops after it. */
  readonly onError?: (error: unknown) => void;
}

export interface EventStore {
  /** Appends atomically (all events, reservations and releases, or none). @throws ConcurrencyConflict, ReservationTaken */
  append(stream: string, events: readonly NewEvent[], options?: AppendOptions): Promise<AppendResult>;
  /** Reads one stream; a missing stream reads as `[]`. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Reads `$all` in commit-visibility order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the last event visible to readers (0 when empty). */
  headPosition(): Promise<number>;
  /**
   * Catch-up then live subscription to `$all`. The handler is awaited: events are delivered one at a time,
   * in order, never skipped and never twice within one subscription.
   */
  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions): Subscription;
  close(): Promise<void>;
}
