import { START } from '@eventstore/db-client';
import type { RecordedEvent } from '../event-store.port.js';
import { lastAppendedPosition, toEsdbPosition, toPortPosition } from './esdb-positions.js';

describe('EventStoreDB positions', () => {
  it('a self-committed event maps to its commit position', () => {
    expect(toPortPosition({ commit: 1234n, prepare: 1234n })).toBe(1234);
    expect(toPortPosition({ commit: 0n, prepare: 0n })).toBe(0);
  });

  it('no position (absent, or the 2^64 - 1 "unknown" sentinel) maps to undefined', () => {
    expect(toPortPosition(undefined)).toBeUndefined();
    expect(toPortPosition({ commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n })).toBeUndefined();
    expect(toPortPosition({ commit: -1n, prepare: -1n })).toBeUndefined();
  });

  it('refuses an explicit-transaction position (shared commit) rather than misorder events', () => {
    expect(() => toPortPosition({ commit: 500n, prepare: 420n })).toThrow('explicit transaction');
  });

  it('refuses a position beyond 2^53 instead of rounding it', () => {
    expect(() => toPortPosition({ commit: 2n ** 54n, prepare: 2n ** 54n })).toThrow('does not fit');
  });

  it('resumes from a port position: 0 is the start, n is {n, n}; round-trips', () => {
    expect(toEsdbPosition(0)).toBe(START);
    expect(toEsdbPosition(9876)).toEqual({ commit: 9876n, prepare: 9876n });
    const back = toEsdbPosition(9876);
    expect(back !== START && back !== 'end' ? toPortPosition(back) : undefined).toBe(9876);
    expect(() => toEsdbPosition(-1)).toThrow(RangeError);
    expect(() => toEsdbPosition(1.5)).toThrow(RangeError);
  });

  it('finds the last appended event among the events read around the reported position', () => {
    const event = (id: string, position: number) => ({ id, position }) as RecordedEvent;
    const around = [event('other-1', 100), event('a', 180), event('b', 260), event('other-2', 340)];
    expect(lastAppendedPosition(['a', 'b'], around)).toBe(260);
    expect(lastAppendedPosition(['b'], around)).toBe(260);
    expect(lastAppendedPosition(['zzz'], around)).toBeUndefined();
  });
});
