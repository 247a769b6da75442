import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  excludeSystemEvents,
  streamNameFilter,
  type AppendResult as EsdbAppendResult,
} from '@eventstore/db-client';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../event-store.port.js';
import { decideAppend } from '../append-decision.js';
import { EsdbAllSubscription } from './esdb-all-subscription.js';
import { isStreamNotFound, isWrongExpectedVersion, toConcurrencyConflict } from './esdb-errors.js';
import { lastAppendedPosition, toEsdbPosition, toPortPosition } from './esdb-positions.js';
import { EsdbStreamNames, toEventData, toRecordedEvent } from './esdb-recorded-event.js';
import { guardRevision, toSafeNumber } from './esdb-revisions.js';
import { releaseReservations, takeReservations, type ReservationStreams } from './esdb-reservations.js';

export interface EsdbEventStoreOptions {
  /** A client to use (left open by `close()`); or give `connectionString` and the store owns its client. */
  readonly client?: EventStoreDBClient;
  /** `esdb://host:2113?tls=false` (EventStoreDB's connection-string format). */
  readonly connectionString?: string;
  /**
   * Isolates the store on a shared server: streams become `<namespace>.<stream>` and `$all` shows only
   * them (tests use one namespace each). Default `''`: the store owns `$all` (minus system events).
   * With a namespace, `readAll`/`headPosition` filter on the client and may scan other streams' events.
   */
  readonly namespace?: string;
  /** Read-decide-write rounds when the stream moves between the read and the write. Default 20. */
  readonly maxAttempts?: number;
}

/**
 * The EventStoreDB backend (design card; `@eventstore/db-client` over gRPC).
 *
 * - Streams, revisions and `$all` are EventStoreDB's own; `position` is the commit position (see
 *   esdb-positions.ts), sparse but strictly increasing.
 * - Append = read the stream, `decideAppend` (expected revision, idempotency by event id, shared with the
 *   other backends), then write guarded by the revision just read (`guardRevision`). If the stream moved in
 *   between, EventStoreDB refuses the write and the round starts again, so the checks and the write are
 *   atomic per stream. An exact retry (same ids, same place) returns the original result without writing.
 *   Reading the stream costs O(stream length): fine for resource trees (tens of events, ADR 0001).
 * - Event ids are unique per stream here, not per store: EventStoreDB keeps no index by id, so the same id
 *   appended to another stream is not detected (Decom's ids are fresh UUIDv7 per decision; see
 *   docs/event-stores.md).
 * - One append is atomic on one stream only. Decom never needs more: a cascade DELETE or a subtree force
 *   delete is one append to the tree's stream (ADR 0001).
 * - `subscribeToAll` is EventStoreDB's catch-up subscription filtered server-side (system events out, or
 *   the namespace's prefix); the consumer stores its checkpoint (a port position) where it stores its
 *   effects, e.g. in the PostgreSQL read models' transaction.
 */
export class EsdbEventStore implements EventStore {
  readonly client: EventStoreDBClient;
  private readonly ownsClient: boolean;
  private readonly names: EsdbStreamNames;
  private readonly maxAttempts: number;
  private readonly subscriptions = new Set<EsdbAllSubscription>();
  private isClosed = false;

  constructor(options: EsdbEventStoreOptions) {
    if (!options.client && !options.connectionString) throw new TypeError('EsdbEventStore needs a client or a connectionString');
    this.ownsClient = !options.client;
    this.client = options.client ?? EventStoreDBClient.connectionString(options.connectionString!);
    this.names = new EsdbStreamNames(options.namespace ?? '');
    this.maxAttempts = options.maxAttempts ?? 20;
  }

  /**
   * Appends atomically to one stream.
   * @throws ConcurrencyConflict when the expected revision does not hold (or, for `'any'`, the stream kept
   *   moving for `maxAttempts` rounds).
   * @throws DuplicateEventId when event ids are reused in the stream other than by an exact retry.
   */
  async append(stream: string, events: readonly NewEvent[], options: AppendOptions = {}): Promise<AppendResult> {
    if (!options.reserve?.length && !options.release?.length) return this.appendToOneStream(stream, events, options);
    // Keys first, then the events, then releases (esdb-reservations.ts: not one atomic write here).
    if (options.reserve?.length) await takeReservations(this.reservationStreams, stream, options.reserve);
    let result: AppendResult;
    try {
      result = await this.appendToOneStream(stream, events, options);
    } catch (error) {
      if (options.reserve?.length)
        await releaseReservations(
          this.reservationStreams,
          stream,
          options.reserve.map((r) => r.key),
        ).catch(() => undefined);
      throw error;
    }
    if (options.release?.length) await releaseReservations(this.reservationStreams, stream, options.release);
    return result;
  }

  private readonly reservationStreams: ReservationStreams = {
    readLast: async (stream) => (await this.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0],
    isEmpty: async (stream) => (await this.readStream(stream, { maxCount: 1 })).length === 0,
    writeGuarded: async (stream, type, data, revision) => {
      try {
        await this.client.appendToStream(this.names.toEsdb(stream), [toEventData({ id: randomUUID(), type, data })], {
          expectedRevision: guardRevision(revision < 0 ? undefined : revision),
        });
        return true;
      } catch (error) {
        if (isWrongExpectedVersion(error)) return false;
        throw error;
      }
    },
  };

  private async appendToOneStream(stream: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    const prepared = events.map((event) => ({ ...event, id: event.id ?? randomUUID() }));
    const eventIds = prepared.map((event) => event.id);
    const wanted = new Set(eventIds);
    let lastRefusal: unknown;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt += 1) {
      const existing = await this.readStream(stream);
      const last = existing[existing.length - 1];
      const tip = last ? { revision: last.revision, position: last.position } : undefined;
      const stored = existing.filter((event) => wanted.has(event.id));
      const decision = decideAppend({ stream, eventIds, expected, tip, stored });
      if (decision.kind === 'already-appended') return decision.result;
      if (prepared.length === 0) return { nextExpectedRevision: tip?.revision ?? -1, position: tip?.position ?? 0 };
      try {
        const result = await this.client.appendToStream(this.names.toEsdb(stream), prepared.map(toEventData), {
          expectedRevision: guardRevision(tip?.revision),
        });
        return {
          nextExpectedRevision: toSafeNumber(result.nextExpectedRevision, 'revision'),
          position: await this.locateAppended(eventIds, result),
        };
      } catch (error) {
        if (!isWrongExpectedVersion(error)) throw error;
        // The stream moved since our read: decide again on the new tip (which may now conflict for real).
        lastRefusal = error;
      }
    }
    throw isWrongExpectedVersion(lastRefusal) ? toConcurrencyConflict(lastRefusal, stream, expected) : lastRefusal;
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const isBackwards = options.direction === 'backwards';
    if (options.maxCount === 0) return [];
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(this.names.toEsdb(stream), {
        direction: isBackwards ? BACKWARDS : FORWARDS,
        fromRevision: options.fromRevision !== undefined ? BigInt(options.fromRevision) : isBackwards ? END : START,
        ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
      });
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved, this.names);
        if (event) events.push(event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  /** Forwards: position > `afterPosition`. Backwards: position < `afterPosition` when > 0, else from the head. */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const isBackwards = options.direction === 'backwards';
    const after = options.afterPosition ?? 0;
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    if (maxCount <= 0) return [];
    const read = this.client.readAll({
      direction: isBackwards ? BACKWARDS : FORWARDS,
      fromPosition: isBackwards ? (after > 0 ? toEsdbPosition(after) : END) : toEsdbPosition(after),
    });
    const events: RecordedEvent[] = [];
    // Streaming read, stopped as soon as we have enough: system and foreign events are skipped on the way.
    for await (const resolved of read) {
      const event = toRecordedEvent(resolved, this.names);
      if (!event) continue;
      if (isBackwards ? after > 0 && event.position >= after : event.position <= after) continue;
      events.push(event);
      if (events.length >= maxCount) break;
    }
    return events;
  }

  async headPosition(): Promise<number> {
    const [last] = await this.readAll({ direction: 'backwards', maxCount: 1 });
    return last?.position ?? 0;
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions): Subscription {
    const prefix = this.names.filterPrefix;
    const source = this.client.subscribeToAll({
      fromPosition: toEsdbPosition(options.afterPosition),
      filter: prefix === undefined ? excludeSystemEvents() : streamNameFilter({ prefixes: [prefix] }),
    });
    const subscription = new EsdbAllSubscription(source, this.names, handler, options, (done) => this.subscriptions.delete(done));
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Closes every subscription, then the client if the store created it. Idempotent. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    if (this.ownsClient && !this.isClosed) {
      this.isClosed = true;
      await this.client.dispose();
    }
  }

  /**
   * The `$all` position of the last appended event. Servers report one position per append (the first or
   * the last event's, depending on the version), so the events around it are read and ours picked out.
   */
  private async locateAppended(eventIds: readonly string[], result: EsdbAppendResult): Promise<number> {
    if (!result.position) return this.headPosition();
    const reported = result.position;
    for (const direction of [FORWARDS, BACKWARDS] as const) {
      const around: RecordedEvent[] = [];
      for await (const resolved of this.client.readAll({ direction, fromPosition: reported, maxCount: eventIds.length })) {
        const event = toRecordedEvent(resolved, this.names);
        if (event) around.push(event);
      }
      const position = lastAppendedPosition(eventIds, around);
      if (position !== undefined) return position;
    }
    return toPortPosition({ commit: reported.commit, prepare: reported.commit }) ?? this.headPosition();
  }
}
