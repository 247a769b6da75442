/**
 * Reservations on EventStoreDB, which has no multi-stream transaction: one stream per key,
 * `reservation-<sha256(key)>`, whose last event says who holds it (`ReservationTaken` / `ReservationReleased`).
 * Taking a key appends `ReservationTaken` guarded by the revision just read, so of two concurrent takers
 * one wins (EventStoreDB refuses the other's write; it re-reads and sees the holder).
 *
 * Not one atomic append with the events (documented in docs/event-stores.md): the key is taken first,
 * then the events are appended; a failed append gives the key back; a crash in between leaves a key whose
 * holder's stream stays empty, which the next taker takes over once it is older than `ORPHAN_AFTER_MS`.
 * A release after a crash between the events and the release is redone by nothing: the key then stays
 * held by a removed resource (visible in the reservation stream).
 */
import { createHash } from 'node:crypto';
import { ReservationTaken, type RecordedEvent, type Reservation } from '../event-store.port.js';

/** A reservation whose holder's stream is still empty after this long is orphaned (its taker crashed). */
export const ORPHAN_AFTER_MS = 60_000;

interface ReservationData {
  readonly key: string;
  readonly holder: string;
  readonly stream: string;
}

/** What the reservations need from the store: plain reads and a guarded single-stream write. */
export interface ReservationStreams {
  readLast(stream: string): Promise<RecordedEvent | undefined>;
  /** Appends one event expecting `revision` (-1: no stream); false when the stream moved meanwhile. */
  writeGuarded(stream: string, type: string, data: ReservationData, revision: number): Promise<boolean>;
  isEmpty(stream: string): Promise<boolean>;
}

export function reservationStream(key: string): string {
  return `reservation-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

/** Takes every key for `stream` or none (keys taken before a refusal are given back). @throws ReservationTaken */
export async function takeReservations(
  io: ReservationStreams,
  stream: string,
  reservations: readonly Reservation[],
  now = Date.now,
): Promise<void> {
  const taken: string[] = [];
  try {
    for (const { key, holder } of reservations) {
      for (let attempt = 1; ; attempt += 1) {
        const last = await io.readLast(reservationStream(key));
        const held = last?.type === 'ReservationTaken' ? (last.data as ReservationData) : undefined;
        if (held && held.holder === holder && held.stream === stream) break;
        if (held) {
          const isOrphaned = now() - Date.parse(last!.recorded_time) > ORPHAN_AFTER_MS && (await io.isEmpty(held.stream));
          if (!isOrphaned) throw new ReservationTaken(key, held.holder, held.stream);
        }
        if (await io.writeGuarded(reservationStream(key), 'ReservationTaken', { key, holder, stream }, last?.revision ?? -1)) {
          taken.push(key);
          break;
        }
        if (attempt >= 20) throw new Error(`reservation ${key}: the key kept changing`);
      }
    }
  } catch (error) {
    await releaseReservations(io, stream, taken).catch(() => undefined);
    throw error;
  }
}

/** Gives back the keys `stream` holds (others' are left alone). */
export async function releaseReservations(io: ReservationStreams, stream: string, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      const last = await io.readLast(reservationStream(key));
      const held = last?.type === 'ReservationTaken' ? (last.data as ReservationData) : undefined;
      if (!held || held.stream !== stream) break;
      if (await io.writeGuarded(reservationStream(key), 'ReservationReleased', held, last!.revision)) break;
    }
  }
}
