/**
 * GraphQL transport and document limits (issue 9 item 7): abusive documents are refused before execution
 * with a 400 problem, transport mistakes answer 400/405 problem details instead of `200 {errors}`.
 */
import { MAX_TOKENS } from '../../apps/api/src/graphql/graphql-limits.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

describe('GraphQL hardening', () => {
  let fixture: EngineFixture;
  beforeAll(async () => {
    fixture = await startTestEngine();
  });
  afterAll(async () => fixture?.stop());

  const post = async (body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${fixture.engine.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as any, allow: response.headers.get('allow') };
  };

  it('refuses a 100-alias query with a 400 problem before running it (500 aliases: past the token limit)', async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: finalizing { id }`).join(' ');
    const answer = await post(JSON.stringify({ query: `{ ${aliases(100)} }` }));
    expect(answer.status).toBe(400);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ code: 'HYPERFLEET-VAL-000', status: 400, errors: [{ field: 'query', message: expect.stringContaining('Aliases limit') }] });
    const huge = await post(JSON.stringify({ query: `{ ${aliases(500)} }` }));
    expect(huge.status).toBe(400);
    expect(huge.body).toMatchObject({ code: 'HYPERFLEET-VAL-000', errors: [{ field: 'query', message: expect.stringContaining(`more that ${MAX_TOKENS} tokens`) }] });
    // A small aliased query still runs.
    const fine = await post(JSON.stringify({ query: '{ a: finalizing { id } b: finalizing { id } }' }));
    expect(fine.status).toBe(200);
    expect(fine.body.data).toEqual({ a: [], b: [] });
  });

  it('refuses deep and costly documents', async () => {
    const deep = await post(JSON.stringify({ query: `{ resources(kind: "Cluster") { items { conditions { type } } } ${'__typename '.repeat(3)}}` }));
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
    expect(refused.body).toMatchObject({ code: 'HYPERFLEET-VAL-000', errors: [{ field: 'query', message: expect.stringContaining('tokens') }] });
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
    expect(syntax.body).toMatchObject({ code: 'HYPERFLEET-VAL-000', errors: [{ field: 'query', message: expect.stringContaining('Syntax Error') }] });
    const get = await fetch(`${fixture.engine.url}/graphql?query=${encodeURIComponent('mutation { pause(id: "x", reason: "y") { id } }')}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(((await get.json()) as any).status).toBe(405);
  });
});
