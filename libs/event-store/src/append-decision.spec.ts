import { decideAppend, type StoredEventRef } from './append-decision.js';
import { DuplicateEventId } from './duplicate-event-id.error.js';
import { ConcurrencyConflict, type ExpectedRevision } from './event-store.port.js';

const stored = (id: string, revision: number, stream = 's'): StoredEventRef => ({ id, stream, revision, position: 10 + revision });

describe('decideAppend', () => {
  describe('new events', () => {
    it.each<[ExpectedRevision, { revision: number; position: number } | undefined, number]>([
      ['any', undefined, 0],
      ['any', { revision: 4, position: 9 }, 5],
      ['no_stream', undefined, 0],
      [-1, undefined, 0],
      ['stream_exists', { revision: 0, position: 1 }, 1],
      [4, { revision: 4, position: 9 }, 5],
    ])('expected %p with tip %p appends at revision %p', (expected, tip, firstRevision) => {
      expect(decideAppend({ stream: 's', eventIds: ['a'], expected, tip, stored: [] })).toEqual({ kind: 'append', firstRevision });
    });

    it.each<[ExpectedRevision, { revision: number; position: number } | undefined, number | 'no_stream']>([
      ['no_stream', { revision: 2, position: 3 }, 2],
      [-1, { revision: 0, position: 3 }, 0],
      ['stream_exists', undefined, 'no_stream'],
      [3, { revision: 2, position: 3 }, 2],
      [0, undefined, 'no_stream'],
    ])('expected %p with tip %p conflicts (actual %p)', (expected, tip, actual) => {
      const decide = () => decideAppend({ stream: 's', eventIds: ['a'], expected, tip, stored: [] });
      expect(decide).toThrow(ConcurrencyConflict);
      expect(decide).toThrow(expect.objectContaining({ stream: 's', expected, actual }));
    });

    it.each([-2, 1.5, Number.NaN])('rejects the expected revision %p', (expected) => {
      expect(() => decideAppend({ stream: 's', eventIds: [], expected, tip: undefined, stored: [] })).toThrow(RangeError);
    });
  });

  describe('retries (ids already stored)', () => {
    const tip = { revision: 5, position: 15 };
    const original = [stored('a', 2), stored('b', 3)];

    it.each<ExpectedRevision>(['any', 1, 'stream_exists'])('expected %p at the original place returns the original result', (expected) => {
      expect(decideAppend({ stream: 's', eventIds: ['a', 'b'], expected, tip, stored: original })).toEqual({
        kind: 'already-appended',
        result: { nextExpectedRevision: 3, position: 13 },
      });
    });

    it('a retry of a first append with no_stream succeeds although the stream now exists', () => {
      const first = [stored('a', 0), stored('b', 1)];
      expect(decideAppend({ stream: 's', eventIds: ['a', 'b'], expected: 'no_stream', tip, stored: first })).toMatchObject({
        kind: 'already-appended',
      });
    });

    it.each<ExpectedRevision>([0, 2, 'no_stream'])('expected %p at another place conflicts', (expected) => {
      expect(() => decideAppend({ stream: 's', eventIds: ['a', 'b'], expected, tip, stored: original })).toThrow(
        expect.objectContaining({ name: 'ConcurrencyConflict', actual: 5 }),
      );
    });

    it.each<[string, string[], StoredEventRef[]]>([
      ['a partial overlap', ['b', 'c'], [stored('b', 3)]],
      ['another stream', ['a'], [stored('a', 2, 'other')]],
      ['another order', ['b', 'a'], original],
      ['revisions that are not consecutive', ['a', 'b'], [stored('a', 2), stored('b', 4)]],
      ['an id twice in the batch', ['c', 'c'], []],
    ])('rejects %s', (_, eventIds, storedEvents) => {
      expect(() => decideAppend({ stream: 's', eventIds, expected: 'any', tip, stored: storedEvents })).toThrow(DuplicateEventId);
    });
  });
});
