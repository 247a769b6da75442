import { nestsDeeperThan } from './nesting-depth.js';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
};

describe('nestsDeeperThan', () => {
  it.each([
    [0, 0, false],
    [1, 1, false],
    [2, 1, true],
    [500, 500, false],
    [501, 500, true],
  ])('%i levels against a limit of %i: %s', (depth, limit, expected) => {
    expect(nestsDeeperThan(nested(depth), limit)).toBe(expected);
  });

  it('measures 100,000 levels without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(100_000), 500)).toBe(true);
  });

  it('counts the deepest branch, not the number of members', () => {
    expect(nestsDeeperThan({ a: { b: 1 }, c: { d: 2 }, e: [1, 2, 3] }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: { b: { c: 1 } } }, 2)).toBe(true);
  });
});
