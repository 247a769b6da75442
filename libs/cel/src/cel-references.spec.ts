import { selectedFields, unknownVariables } from './cel-references.js';

describe('unknownVariables: free variables not in scope (cel-js checker scoping)', () => {
  it.each<[string, string[], { name: string; offset: number }[]]>([
    ['a.b && clustr == 1', ['a'], [{ name: 'clustr', offset: 7 }]],
    ['[1, 2].all(x, x > limit)', [], [{ name: 'limit', offset: 18 }]],
    ['items.map(s, s.adapter).exists(n, n == name)', ['items', 'name'], []],
    ['cel.bind(v, a + 1, v * b)', ['a'], [{ name: 'b', offset: 23 }]],
    ['has(resources.x.y) && now() != "" && timestamp(now()) > timestamp("2020-01-01T00:00:00Z")', ['resources'], []],
    [
      'p + q + p',
      [],
      [
        { name: 'p', offset: 0 },
        { name: 'q', offset: 4 },
      ],
    ],
  ])('%s', (expression, known, expected) => {
    expect(unknownVariables(expression, known)).toEqual(expected);
  });
});

describe('selectedFields: resources.<name> references', () => {
  it('finds plain, optional, has() and index selections with the field offset', () => {
    expect(selectedFields('resources.?a.hasValue() && has(resources.b.c) && resources["d"] != null && other.e == 1', 'resources')).toEqual([
      { name: 'a', offset: 11 },
      { name: 'b', offset: 41 },
      { name: 'd', offset: 60 },
    ]);
  });
});
