/**
 * Deny by default, checked against the route table rather than a list someone has to keep up to date:
 * every route the full engine registers (Fastify's `onRoute`, recorded by public-routes.ts) is called
 * without a token, on its plain path and on mutated spellings of it (percent-encoded letters in lower and
 * upper hex, doubled and trailing slashes, `;` parameters, `/./`, `..`, mixed case, `%2F`, an encoded
 * `?`). A non-public route must answer 401 on its plain path, and no spelling may reach a handler: only
 * 400, 401, 404 or 405 are acceptable, and the event log must not grow. The same for GraphQL operations over
 * encoded spellings of `/graphql`. Requests are sent with node:http so the paths reach the server exactly as
 * written (fetch would normalise `/./`, `..` and case of percent-escapes).
 */
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUBLIC_ROUTES, registeredRoutes } from '../../apps/api/src/auth/public-routes.js';
import { TestIssuer } from '../support/test-issuer.js';
import { writeServerConfig } from '../support/server-config.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const ID = '0190b2b4-0000-7000-8000-000000000000';
/** Sample values for route parameters, so a path names real kinds (a wrong `:plural` is a 404 anyway). */
const PARAMS: Record<string, string> = { plural: 'clusters', childPlural: 'nodepools', id: ID, childId: ID, '*': 'index.html' };

/** `path` with each `:param` (and `*`) replaced by a sample value. */
function concrete(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, (_m, name: string) => PARAMS[name] ?? 'x').replace(/\*$/, PARAMS['*']!);
}

const hex = (c: string, upper: boolean) => `%${c.charCodeAt(0).toString(16)[upper ? 'toUpperCase' : 'toLowerCase']()}`;

/** Mutated spellings of `path` a router might take for the same route while a string test would not. */
export function mutations(path: string): string[] {
  const segments = path.split('/').slice(1);
  const join = (parts: string[]) => `/${parts.join('/')}`;
  const out = new Set<string>();
  segments.forEach((segment, i) => {
    const replace = (value: string) => join(segments.map((s, j) => (j === i ? value : s)));
    const letters = [...segment].map((c, k) => [c, k] as const).filter(([c]) => /[A-Za-z]/.test(c));
    for (const upper of [false, true]) {
      // First and last letter encoded, then the whole segment.
      for (const [c, k] of [letters[0], letters[letters.length - 1]].filter((x) => x !== undefined)) {
        out.add(replace(segment.slice(0, k) + hex(c, upper) + segment.slice(k + 1)));
      }
      out.add(replace([...segment].map((c) => hex(c, upper)).join('')));
    }
    out.add(replace(segment.toUpperCase()));
    out.add(replace(segment.slice(0, 1).toUpperCase() + segment.slice(1)));
    out.add(replace(`${segment};x=1`));
    out.add(replace(`${segment};`));
    out.add(join([...segments.slice(0, i), '.', ...segments.slice(i)]));
    out.add(join([...segments.slice(0, i), '%2e', ...segments.slice(i)]));
    out.add(join([...segments.slice(0, i), 'zz', '..', ...segments.slice(i)]));
    out.add(join([...segments.slice(0, i), 'zz', '%2e%2e', ...segments.slice(i)]));
    out.add(join([...segments.slice(0, i), '', ...segments.slice(i)]));
    if (i > 0) out.add(`/${segments.slice(0, i).join('/')}%2F${segments.slice(i).join('/')}`);
    if (i > 0) out.add(`/${segments.slice(0, i).join('/')}%2f${segments.slice(i).join('/')}`);
  });
  out.add(`${path}/`);
  out.add(`${path}//`);
  out.add(`/${path}`);
  out.add(path.replace(/\//g, '//'));
  out.add(`${path}%3F`);
  out.add(`${path}%3Fx=1`);
  out.add(`${path}%3f/`);
  out.add(`${path}?`);
  out.add(`${path}#x`);
  out.add(`${path}%23`);
  out.add(`${path}%00`);
  out.add(`${path}%20`);
  out.add(path.replace(/\//g, '\\'));
  out.delete(path);
  return [...out];
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

function send(base: URL, method: string, path: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: {
          connection: 'keep-alive',
          ...(options.body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(options.body) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        // An event stream never ends: the status and first bytes decide.
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if ((res.headers['content-type'] ?? '').includes('text/event-stream')) res.destroy();
        });
        res.on('close', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.end(options.body);
  });
}

/** Answers that prove no handler ran: refused (401), unknown (404), malformed (400), wrong method (405). */
const REFUSALS = new Set([400, 401, 404, 405]);

describe('deny by default: every registered route, every spelling', () => {
  let issuer: TestIssuer;
  let fixture: EngineFixture;
  let dir: string;
  let base: URL;

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    dir = await mkdtemp(join(tmpdir(), 'decom-route-table-'));
    const file = await writeServerConfig(join(dir, 'server.yaml'), issuer, {
      identityClaim: 'email',
      // Tenants and the rate limit on: both must follow the same decision as authentication.
      tenant: { enabled: true, system_header: 'X-HyperFleet-System', dimensions: [{ header: 'X-Tenant-Org', key: 'org', required: true }] },
      rateLimit: { enabled: true, max: 1_000_000, time_window_ms: 60_000 },
      authorization: { admins: ['admin@example.com'] },
    });
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: file } });
    base = new URL(fixture.engine.url);
  });
  afterAll(async () => {
    await fixture?.stop();
    await issuer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const routes = () => registeredRoutes(fixture.engine.app.getHttpAdapter().getInstance() as never);

  it('records the whole route table, and only the declared routes are public', () => {
    const table = routes();
    const keys = table.map((r) => `${r.method} ${r.url}`);
    // The table is the app's, not a stub: REST (Nest and plain Fastify), GraphQL, SSE, the UI are all in it.
    for (const expected of [
      'GET /api/hyperfleet/v1/:plural',
      'POST /graphql',
      'GET /graphql',
      'GET /api/decom/v1/events/stream',
      'GET /api/decom/v1/whoami',
      'GET /ui/*',
      'DELETE /api/hyperfleet/v1/:plural/:id',
    ]) {
      expect(keys).toContain(expected);
    }
    expect(table.length).toBeGreaterThan(40);
    const publicOnes = table.filter((r) => r.public).map((r) => `${r.method} ${r.url}`);
    expect(publicOnes.length).toBeGreaterThan(0);
    for (const key of publicOnes) expect(PUBLIC_ROUTES).toContain(key);
  });

  it('every non-public route answers 401 without a token, on every spelling; no spelling reaches a handler', async () => {
    const head = await fixture.engine.store.headPosition();
    const failures: string[] = [];
    const nonPublic = routes().filter((r) => !r.public);
    let sent = 0;
    for (const route of nonPublic) {
      const path = concrete(route.url);
      const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)
        ? JSON.stringify({ kind: 'Cluster', name: 'x', spec: {}, reason: 'x', adapter: 'x' })
        : undefined;
      const opts = {
        ...(body !== undefined ? { body } : {}),
        headers: { 'x-tenant-org': 'acme', 'x-hyperfleet-identity': 'admin@example.com', 'x-hyperfleet-system': 'true' },
      };
      const plain = await send(base, route.method, path, opts);
      sent += 1;
      if (plain.status !== 401) failures.push(`${route.method} ${path} (${route.url}): ${plain.status} ${plain.body.slice(0, 120)}`);
      for (const mutated of mutations(path)) {
        const answer = await send(base, route.method, mutated, opts).catch((error: Error) => ({ status: -1, body: error.message }));
        sent += 1;
        if (!REFUSALS.has(answer.status))
          failures.push(`${route.method} ${mutated} (${route.url}): ${answer.status} ${answer.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1_000);
    // Nothing was written by any of them.
    expect(await fixture.engine.store.headPosition()).toBe(head);
  });

  it('an unmatched path or a wrong method tells an unauthenticated caller nothing (401, no Allow)', async () => {
    for (const [method, path] of [
      ['GET', '/nothing-here'],
      ['GET', '/api/hyperfleet/v1/bogus'],
      ['PUT', '/api/hyperfleet/v1/clusters'],
      ['OPTIONS', '/api/hyperfleet/v1/clusters'],
    ] as const) {
      const answer = await new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
        const req = httpRequest({ host: base.hostname, port: base.port, method, path }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow as string | undefined }));
        });
        req.on('error', reject);
        req.end();
      });
      expect({ method, path, ...answer }).toEqual({ method, path, status: 401, allow: undefined });
    }
  });

  it('public routes answer without a token', async () => {
    expect((await send(base, 'GET', '/healthz')).status).toBe(200);
    expect((await send(base, 'GET', '/readyz')).status).not.toBe(401);
    const doc = await send(base, 'GET', '/api/hyperfleet/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(JSON.parse(doc.body).openapi).toBe('3.0.3');
  });

  it('GraphQL operations over encoded spellings of /graphql are refused before they run', async () => {
    const head = await fixture.engine.store.headPosition();
    const operations = [
      '{ resources(kind: "Cluster") { total items { id name } } }',
      '{ finalizing { id } }',
      `{ history(id: "${ID}") { position type } }`,
      `mutation { deleteResource(kind: "Cluster", id: "${ID}") { id } }`,
      `mutation { createResource(kind: "Cluster", input: { name: "gql-bypass", spec: {} }) { id } }`,
    ];
    const failures: string[] = [];
    for (const path of ['/graphql', ...mutations('/graphql')]) {
      for (const query of operations) {
        const post = await send(base, 'POST', path, { body: JSON.stringify({ query }), headers: { 'x-tenant-org': 'acme' } });
        if (!REFUSALS.has(post.status) || post.body.includes('"data"'))
          failures.push(`POST ${path} ${query.slice(0, 30)}: ${post.status} ${post.body.slice(0, 120)}`);
        if (path === '/graphql' && post.status !== 401) failures.push(`POST ${path} ${query.slice(0, 30)}: ${post.status}, not 401`);
        const get = await send(base, 'GET', `${path}?query=${encodeURIComponent(query)}`);
        if (!REFUSALS.has(get.status) || get.body.includes('"data"'))
          failures.push(`GET ${path} ${query.slice(0, 30)}: ${get.status} ${get.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await fixture.engine.store.headPosition()).toBe(head);
  });
});
