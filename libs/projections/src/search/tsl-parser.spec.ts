import { readFileSync } from 'node:fs';
import { parseSearch } from './parse-search.js';
import { SearchSyntaxError } from './search-errors.js';

describe('TSL grammar (tsl.peggy)', () => {
  it('the committed tsl-parser.generated.ts is what generate-tsl-parser.mjs makes from tsl.peggy (run npm run generate:tsl)', async () => {
    const generator = (await import(new URL('./generate-tsl-parser.mjs', import.meta.url).href)) as { generateTslParser(): string };
    expect(readFileSync(new URL('./tsl-parser.generated.ts', import.meta.url), 'utf8')).toBe(generator.generateTslParser());
  });

  it.each<[string, unknown]>([
    ["a = 'x'", { kind: 'compare', field: 'a', op: '=', value: { type: 'string', value: 'x' } }],
    ['a >= -1.5e2', { kind: 'compare', field: 'a', op: '>=', value: { type: 'number', value: -150, text: '-1.5e2' } }],
    ['a = TRUE', { kind: 'compare', field: 'a', op: '=', value: { type: 'boolean', value: true } }],
    ['a Is Not Null', { kind: 'null', field: 'a', negated: true }],
    ["a NOT IN ['x']", { kind: 'in', field: 'a', values: [{ type: 'string', value: 'x' }], negated: true }],
    [
      "a = 'x' OR b = 'y' AND NOT c = 'z'",
      {
        kind: 'or',
        left: { kind: 'compare', field: 'a', op: '=', value: { type: 'string', value: 'x' } },
        right: {
          kind: 'and',
          left: { kind: 'compare', field: 'b', op: '=', value: { type: 'string', value: 'y' } },
          right: { kind: 'not', expr: { kind: 'compare', field: 'c', op: '=', value: { type: 'string', value: 'z' } } },
        },
      },
    ],
    [
      "'True' = status.conditions.Reconciled",
      { kind: 'compare', field: 'status.conditions.Reconciled', op: '=', value: { type: 'string', value: 'True' } },
    ],
    ['5 < generation', { kind: 'compare', field: 'generation', op: '>', value: { type: 'number', value: 5, text: '5' } }],
    ['5 >= generation', { kind: 'compare', field: 'generation', op: '<=', value: { type: 'number', value: 5, text: '5' } }],
    ['name = `a"b`', { kind: 'compare', field: 'name', op: '=', value: { type: 'string', value: 'a"b' } }],
    ['android = 1', { kind: 'compare', field: 'android', op: '=', value: { type: 'number', value: 1, text: '1' } }],
  ])('parses %s', (search, ast) => {
    expect(parseSearch(search)).toEqual(ast);
  });

  it('reports the column of a syntax error', () => {
    expect(() => parseSearch("name = 'a' and and")).toThrow(SearchSyntaxError);
    try {
      parseSearch("name = 'a' and and");
    } catch (error) {
      expect((error as SearchSyntaxError).column).toBe(16);
    }
  });

  it('refuses nesting deeper than 64 levels (not, parentheses) with a syntax error, never a crash', () => {
    const deep = /search is nested more than 64 levels deep/;
    expect(() => parseSearch(`${'not '.repeat(65)}name = 'a'`)).toThrow(deep);
    expect(() => parseSearch(`${'('.repeat(2000)}name = 'a'${')'.repeat(2000)}`)).toThrow(deep);
    expect(() => parseSearch(`${'('.repeat(70)}name = 'a'${')'.repeat(70)}`)).not.toThrow();
    expect(() => parseSearch(`${'not '.repeat(63)}name = 'a'`)).not.toThrow();
    expect(() =>
      parseSearch(Array.from({ length: 32 }, (_, i) => `(name = '${i}' ${i % 2 ? 'or' : 'and'} `).join('') + `name = 'z'` + ')'.repeat(32)),
    ).not.toThrow();
    expect(() =>
      parseSearch(Array.from({ length: 70 }, (_, i) => `(name = '${i}' ${i % 2 ? 'or' : 'and'} `).join('') + `name = 'z'` + ')'.repeat(70)),
    ).toThrow(deep);
  });

  it('a long chain of one operator is one level: 300 alternatives parse', () => {
    expect(() => parseSearch(Array.from({ length: 300 }, (_, i) => `name='${i}'`).join(' or '))).not.toThrow();
  });
});
