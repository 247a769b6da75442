import { LastSerialized } from './last-serialized.js';

describe("LastSerialized (the watch hub's JSON of the last event object)", () => {
  it('serializes an object once while it is the last one asked for', () => {
    const memo = new LastSerialized<{ n: number }>();
    let calls = 0;
    const serialize = (o: { n: number }) => (calls++, JSON.stringify(o));
    const object = { n: 1 };
    expect(memo.json(object, serialize)).toBe('{"n":1}');
    expect(memo.json(object, serialize)).toBe('{"n":1}');
    expect(calls).toBe(1);
  });

  it('holds one object only: the next one replaces it (no JSON kept per stored snapshot)', () => {
    const memo = new LastSerialized<{ n: number }>();
    const first = { n: 1 };
    const second = { n: 2 };
    memo.json(first, JSON.stringify);
    memo.json(second, JSON.stringify);
    expect(memo.holds(first)).toBe(false);
    expect(memo.holds(second)).toBe(true);
  });

  it('compares by reference: an equal copy is serialized again', () => {
    const memo = new LastSerialized<{ n: number }>();
    let calls = 0;
    const serialize = (o: { n: number }) => (calls++, JSON.stringify(o));
    memo.json({ n: 1 }, serialize);
    memo.json({ n: 1 }, serialize);
    expect(calls).toBe(2);
  });
});
