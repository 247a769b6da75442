/**
 * Expected-revision mapping between the port and EventStoreDB. Both count revisions from 0 and name the
 * same four expectations; EventStoreDB uses bigint revisions and has no `-1` ("no stream" as a number).
 */
import { ANY, NO_STREAM, STREAM_EXISTS, type AppendExpectedRevision, type CurrentRevision } from '@eventstore/db-client';
import type { ExpectedRevision } from '../event-store.port.js';

/**
 * Port → EventStoreDB: `'any'` → ANY, `'no_stream'` and `-1` → NO_STREAM, `'stream_exists'` → STREAM_EXISTS,
 * `n` → `BigInt(n)`.
 * @throws RangeError when `expected` is a number that is not an integer >= -1.
 */
export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (!Number.isInteger(expected) || expected < -1) throw new RangeError(`expectedRevision must be an integer >= -1, got ${expected}`);
      return expected === -1 ? NO_STREAM : BigInt(expected);
  }
}

/** EventStoreDB → port (revisions in `WrongExpectedVersionError`, `AppendResult`). */
export function fromEsdbRevision(revision: AppendExpectedRevision | CurrentRevision): ExpectedRevision {
  return typeof revision === 'bigint' ? toSafeNumber(revision, 'revision') : revision;
}

/** The stream's current revision as the port reports it in a conflict: a number, or `'no_stream'`. */
export function fromEsdbCurrentRevision(revision: CurrentRevision): number | 'no_stream' {
  return typeof revision === 'bigint' ? toSafeNumber(revision, 'revision') : 'no_stream';
}

/**
 * What the backend sends with a write: the stream exactly as it read it before deciding (`tip`: last
 * revision, `undefined` for no stream). EventStoreDB then refuses the write if anything was appended in
 * between, which makes "read, check ids and expectation, write" atomic per stream.
 */
export function guardRevision(tip: number | undefined): AppendExpectedRevision {
  return tip === undefined ? NO_STREAM : BigInt(tip);
}

/** @throws RangeError beyond 2^53 - 1 (never reached by a revision or a log position in practice). */
export function toSafeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`EventStoreDB ${what} ${value} does not fit a JavaScript number`);
  }
  return Number(value);
}
