import { buildSchema, parse, validate } from 'graphql';
import { TYPE_DEFS } from './schema.js';
import { MAX_LIST_COST } from './graphql-limits.js';
import { listCostRule } from './list-cost.js';

const schema = buildSchema(TYPE_DEFS);
const errors = (query: string, max = MAX_LIST_COST) => validate(schema, parse(query), [listCostRule(max)]).map((e) => e.message);
/** The cost the rule computes: the message of a rule whose limit is 0. */
const cost = (query: string) => Number(/may answer (\d+) values/.exec(errors(query, 0)[0] ?? '')?.[1]);

describe('listCostRule', () => {
  const entry = 'position type recorded_time caller data';
  it('multiplies a list by its size argument (default, literal, variable = maximum)', () => {
    expect(cost(`{ history(id: "x") { ${entry} } }`)).toBe(100 * (1 + 4 + 10));
    expect(cost(`{ history(id: "x", size: 10) { ${entry} } }`)).toBe(10 * 15);
    expect(cost(`query($n: Int) { history(id: "x", size: $n) { ${entry} } }`)).toBe(1000 * 15);
    expect(cost(`{ a: history(id: "x") { position } b: history(id: "x") { position } }`)).toBe(2 * 100 * 2);
  });

  it('counts nested lists, fragments and a page of resources', () => {
    expect(cost('{ resources(kind: "Cluster", size: 100) { total items { id conditions { type } } } }')).toBe(
      100 * (1 + 1 + (1 + 1 + 10 * 2)),
    );
    expect(cost('fragment F on Resource { id } { resources(kind: "Cluster", size: 5) { items { ...F ... on Resource { name } } } }')).toBe(
      5 * (1 + (1 + 2)),
    );
  });

  it('refuses 15 aliases of a full history page, allows the usual dashboard queries', () => {
    const aliases = Array.from({ length: 15 }, (_, i) => `h${i}: history(id: "x", size: 1000) { ${entry} }`).join(' ');
    expect(errors(`{ ${aliases} }`)).toEqual([expect.stringContaining(`Query cost limit of ${MAX_LIST_COST} exceeded`)]);
    expect(errors(`{ history(id: "x", size: 1000) { ${entry} } }`)).toEqual([]);
    expect(
      errors('{ finalizing { id kind name waiting_on_adapters blockers { type message adapter reported finalized { status reason } } } }'),
    ).toEqual([]);
  });
});
