/**
 * `$all` position mapping between EventStoreDB and the port.
 *
 * EventStoreDB orders `$all` by `{ commit, prepare }`, byte offsets in its transaction log. Events written
 * by an append over gRPC are self-committed prepares: each has its own log offset and `commit === prepare`
 * (explicit multi-append transactions of the old TCP API, where events share a commit record, are not
 * supported: Decom never writes them). The port's `position` is therefore the commit position as a number:
 * unique, strictly increasing in `$all` order, exact to resume from, and far below 2^53 (8 PiB of log).
 * Positions are sparse (offsets, not counts): only their order means anything, so progress computed from
 * them (rebuild) is proportional to bytes of log, not to events.
 */
import { START, type Position, type ReadPosition } from '@eventstore/db-client';
import type { RecordedEvent } from '../event-store.port.js';
import { toSafeNumber } from './esdb-revisions.js';

/** 2^64 - 1: what a server puts in a position field it does not know (older servers' stream reads). */
const NO_POSITION = 2n ** 64n - 1n;

/**
 * EventStoreDB position → port position; `undefined` when the server sent none.
 * @throws RangeError when commit and prepare differ (an event of an explicit transaction, not supported).
 */
export function toPortPosition(position: Position | undefined): number | undefined {
  if (!position || position.commit < 0n || position.commit >= NO_POSITION) return undefined;
  if (position.commit !== position.prepare) {
    throw new RangeError(
      `EventStoreDB position {commit: ${position.commit}, prepare: ${position.prepare}} belongs to an explicit transaction; Decom supports self-committed appends only`,
    );
  }
  return toSafeNumber(position.commit, 'position');
}

/** Port position → where EventStoreDB resumes (`0` is the start of `$all`). Reads from it are inclusive, subscriptions exclusive. */
export function toEsdbPosition(position: number): ReadPosition {
  if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`position must be a non-negative integer, got ${position}`);
  return position === 0 ? START : { commit: BigInt(position), prepare: BigInt(position) };
}

/**
 * The position of the last of `ids` among `events` (a read of `$all` around an append's reported position),
 * `undefined` when none is there.
 */
export function lastAppendedPosition(ids: readonly string[], events: readonly RecordedEvent[]): number | undefined {
  const wanted = new Set(ids);
  const positions = events.filter((event) => wanted.has(event.id)).map((event) => event.position);
  return positions.length > 0 ? Math.max(...positions) : undefined;
}
