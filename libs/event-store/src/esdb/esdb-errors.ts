/**
 * EventStoreDB client errors → the port's errors.
 */
import { StreamNotFoundError, WrongExpectedVersionError } from '@eventstore/db-client';
import { ConcurrencyConflict, type ExpectedRevision } from '../event-store.port.js';
import { fromEsdbCurrentRevision } from './esdb-revisions.js';

/**
 * A refused write → the typed conflict. `expected` is what the caller asked for (the backend may have sent
 * a stricter guard, see `guardRevision`); `actual` is the stream's revision the server reported.
 */
export function toConcurrencyConflict(error: WrongExpectedVersionError, stream: string, expected: ExpectedRevision): ConcurrencyConflict {
  return new ConcurrencyConflict(stream, expected, fromEsdbCurrentRevision(error.actualVersion));
}

export function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return error instanceof WrongExpectedVersionError;
}

/** Reading a stream that was never written: the port reads it as empty. */
export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError;
}
