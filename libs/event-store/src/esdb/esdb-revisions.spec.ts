import { ANY, NO_STREAM, STREAM_EXISTS, WrongExpectedVersionError } from '@eventstore/db-client';
import { ConcurrencyConflict } from '../event-store.port.js';
import { toConcurrencyConflict } from './esdb-errors.js';
import { fromEsdbCurrentRevision, fromEsdbRevision, guardRevision, toEsdbExpectedRevision } from './esdb-revisions.js';

describe('EventStoreDB expected revisions', () => {
  it.each([
    ['any', ANY],
    ['no_stream', NO_STREAM],
    [-1, NO_STREAM],
    ['stream_exists', STREAM_EXISTS],
    [0, 0n],
    [41, 41n],
  ] as const)('port %j → EventStoreDB %j', (port, esdb) => {
    expect(toEsdbExpectedRevision(port)).toBe(esdb);
  });

  it.each([1.5, -2, Number.NaN])('refuses the invalid revision %p', (revision) => {
    expect(() => toEsdbExpectedRevision(revision)).toThrow(RangeError);
  });

  it('maps server revisions back to the port', () => {
    expect(fromEsdbRevision(7n)).toBe(7);
    expect(fromEsdbRevision(NO_STREAM)).toBe('no_stream');
    expect(fromEsdbRevision(STREAM_EXISTS)).toBe('stream_exists');
    expect(fromEsdbRevision(ANY)).toBe('any');
    expect(fromEsdbCurrentRevision(3n)).toBe(3);
    expect(fromEsdbCurrentRevision(NO_STREAM)).toBe('no_stream');
    expect(() => fromEsdbRevision(2n ** 60n)).toThrow('does not fit');
  });

  it('guards a write with the revision read before deciding (no stream → NO_STREAM)', () => {
    expect(guardRevision(undefined)).toBe(NO_STREAM);
    expect(guardRevision(0)).toBe(0n);
    expect(guardRevision(12)).toBe(12n);
  });
});

describe('EventStoreDB WrongExpectedVersion → ConcurrencyConflict', () => {
  const refusal = (current: bigint | typeof NO_STREAM, expected: bigint | typeof NO_STREAM) =>
    new WrongExpectedVersionError(undefined, { streamName: 'ns.cluster-a', current, expected });

  it("keeps the caller's expectation and the server's actual revision, on the port's stream name", () => {
    const conflict = toConcurrencyConflict(refusal(4n, 2n), 'cluster-a', 2);
    expect(conflict).toBeInstanceOf(ConcurrencyConflict);
    expect({ ...conflict, message: conflict.message }).toEqual({
      name: 'ConcurrencyConflict',
      stream: 'cluster-a',
      expected: 2,
      actual: 4,
      message: "stream 'cluster-a': expected revision 2, actual 4",
    });
  });

  it('reports a missing stream as no_stream, and the expectation the caller gave (not the guard sent)', () => {
    const conflict = toConcurrencyConflict(refusal(NO_STREAM, 0n), 'cluster-b', 'stream_exists');
    expect([conflict.expected, conflict.actual]).toEqual(['stream_exists', 'no_stream']);
  });
});
