/**
 * GraphQL transport and document limits: abusive documents are refused before execution
 * with a 400 problem, transport mistakes answer 400/405 problem details instead of `200 {errors}`.
 */
import { MAX_LIST_COST, MAX_TOKENS } from '../../apps/api/src/graphql/graphql-limits.js';
import { AVAILABLE, statusReport } from '../support/status-reports.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

describe('GraphQL hardening', () => {
  let fixture: EngineFixture;
  beforeAll(async () => {
    fixture = await startTestEngine();
  });
  afterAll(async () => fixture?.stop());

  const post = async (body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${fixture.engine.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: (await response.json()) as any,
      allow: response.headers.get('allow'),
    };
  };

  it('refuses a 100-alias query with a 400 problem before running it (500 aliases: past the token limit)', async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: finalizing { id }`).join(' ');
    const answer = await post(JSON.stringify({ query: `{ ${aliases(100)} }` }));
    expect(answer.status).toBe(400);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({
      code: 'HYPERFLEET-VAL-000',
      status: 400,
      errors: [{ field: 'query', message: expect.stringContaining('Aliases limit') }],
    });
    const huge = await post(JSON.stringify({ query: `{ ${aliases(500)} }` }));
    expect(huge.status).toBe(400);
    expect(huge.body).toMatchObject({
      code: 'HYPERFLEET-VAL-000',
      errors: [{ field: 'query', message: expect.stringContaining(`more that ${MAX_TOKENS} tokens`) }],
    });
    // A small aliased query still runs.
    const fine = await post(JSON.stringify({ query: '{ a: finalizing { id } b: finalizing { id } }' }));
    expect(fine.status).toBe(200);
    expect(fine.body.data).toEqual({ a: [], b: [] });
  });

  it('refuses deep and costly documents', async () => {
    const deep = await post(
      JSON.stringify({ query: `{ resources(kind: "Cluster") { items { conditions { type } } } ${'__typename '.repeat(3)}}` }),
    );
    expect(deep.status).toBe(200);
    const nested = 'f { '.repeat(20) + 'id' + ' }'.repeat(20);
    const tooDeep = await post(JSON.stringify({ query: `{ ${nested} }` }));
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.code).toBe('HYPERFLEET-VAL-000');
    // 3,000 nested selections overflowed the parser's stack before the depth rule could run: the lexer's
    // token limit refuses it first, with a message that says so.
    const abyss = 'f { '.repeat(3_000) + 'id' + ' }'.repeat(3_000);
    const refused = await post(JSON.stringify({ query: `{ ${abyss} }` }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'HYPERFLEET-VAL-000',
      errors: [{ field: 'query', message: expect.stringContaining('tokens') }],
    });
    expect(JSON.stringify(refused.body)).not.toContain('call stack');
    // Just under the token limit (~660 levels) the parser copes and the depth rule refuses it.
    const levels = Math.floor((MAX_TOKENS - 4) / 3);
    const deepest = await post(JSON.stringify({ query: `{ ${'f { '.repeat(levels)}id${' }'.repeat(levels)} }` }));
    expect(deepest.status).toBe(400);
    expect(deepest.body.errors[0].message).toContain('Syntax Error: Query depth limit');
  });

  it('transport errors: bad JSON, a non-string query, a syntax error, a mutation over GET', async () => {
    const badJson = await post('{"query": ');
    expect(badJson.status).toBe(400);
    expect(badJson.contentType).toContain('application/problem+json');
    const notString = await post('{"query":123}');
    expect(notString.status).toBe(400);
    expect(notString.body).toMatchObject({ code: 'HYPERFLEET-VAL-006', status: 400 });
    const syntax = await post(JSON.stringify({ query: '{ finalizing { id ' }));
    expect(syntax.status).toBe(400);
    expect(syntax.body).toMatchObject({
      code: 'HYPERFLEET-VAL-000',
      errors: [{ field: 'query', message: expect.stringContaining('Syntax Error') }],
    });
    const get = await fetch(`${fixture.engine.url}/graphql?query=${encodeURIComponent('mutation { pause(id: "x", reason: "y") { id } }')}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(((await get.json()) as any).status).toBe(405);
  });

  it('bounds every list: history pages like REST, aliases of full pages are refused by the list cost', async () => {
    const api = `${fixture.engine.url}/api/hyperfleet/v1`;
    const json = { 'content-type': 'application/json', 'x-hyperfleet-identity': 'gql-bounds@example.com' };
    const created = (await (
      await fetch(`${api}/clusters`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ kind: 'Cluster', name: 'gql-long-history', spec: {} }),
      })
    ).json()) as any;
    // A long history: 240 status reports, each one event.
    for (let batch = 0; batch < 12; batch += 1) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const report = statusReport(`bounds-${batch}-${i}`, 1, AVAILABLE);
          const answer = await fetch(`${api}/clusters/${created.id}/statuses`, {
            method: 'PUT',
            headers: json,
            body: JSON.stringify(report),
          });
          expect(answer.status).toBe(201);
        }),
      );
    }
    const rest = (await (await fetch(`${api}/resources/${created.id}/events?size=1000`, { headers: json })).json()) as any;
    expect(rest.total).toBeGreaterThan(240);
    const entry = 'position type recorded_time caller data';
    // Without `size` each alias answers one page of 100 (the whole history before).
    const aliases = Array.from({ length: 15 }, (_, i) => `h${i}: history(id: "${created.id}") { ${entry} }`).join(' ');
    const paged = await post(JSON.stringify({ query: `{ ${aliases} }` }));
    expect(paged.status).toBe(200);
    for (let i = 0; i < 15; i += 1) expect(paged.body.data[`h${i}`]).toHaveLength(100);
    // Page 3 of 100 is REST's page 3 of 100, position for position.
    const page3 = await post(JSON.stringify({ query: `{ history(id: "${created.id}", page: 3, size: 100) { position } }` }));
    const restPage3 = (await (await fetch(`${api}/resources/${created.id}/events?page=3&size=100`, { headers: json })).json()) as any;
    expect(page3.body.data.history.map((h: any) => h.position)).toEqual(restPage3.items.map((h: any) => h.position));
    expect(restPage3.total).toBe(rest.total);
    // Past the REST maximum: refused, not clamped.
    const tooBig = await post(JSON.stringify({ query: `{ history(id: "${created.id}", size: 1001) { position } }` }));
    expect(tooBig.body).toMatchObject({ errors: [{ message: expect.stringContaining('size must be an integer between 1 and 1000') }] });
    // 15 aliases of a full page (15,000 events with their data) are refused before running.
    const full = Array.from({ length: 15 }, (_, i) => `h${i}: history(id: "${created.id}", size: 1000) { ${entry} }`).join(' ');
    const refused = await post(JSON.stringify({ query: `{ ${full} }` }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'HYPERFLEET-VAL-000',
      errors: [{ field: 'query', message: expect.stringContaining(`Query cost limit of ${MAX_LIST_COST} exceeded`) }],
    });
    // A variable size counts as the maximum.
    const variable = await post(
      JSON.stringify({ query: `query($n: Int) { ${full.replace(/size: 1000/g, 'size: $n')} }`, variables: { n: 1 } }),
    );
    expect(variable.status).toBe(400);
    // Nested lists multiply too: 15 pages of 100 resources with their conditions.
    const pages = Array.from(
      { length: 15 },
      (_, i) => `r${i}: resources(kind: "Cluster", size: 100) { items { id spec conditions { type status reason message } } }`,
    ).join(' ');
    expect((await post(JSON.stringify({ query: `{ ${pages} }` }))).status).toBe(400);
    // finalizing is paged as well.
    const finalizing = await post(JSON.stringify({ query: '{ finalizing(size: 1001) { id } }' }));
    expect(finalizing.body).toMatchObject({ errors: [{ message: expect.stringContaining('size must be an integer between 1 and 1000') }] });
  });
});
