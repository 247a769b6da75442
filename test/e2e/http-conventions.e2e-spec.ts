/**
 * HTTP conventions through HTTP against a real embedded engine: 405 with `Allow`, CORS (off by
 * default, configured origins only), `Location` on 201, 414 for long ids and URLs with bounded problem
 * details, validation messages that state the real rule (page/size, the kind's name limits, label
 * syntax), and bodies that are refused rather than silently altered (`__proto__`, invalid UTF-8).
 */
import { request as httpRequest } from 'node:http';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: Record<string, unknown>;
}

describe('HTTP conventions', () => {
  let fixture: EngineFixture;
  let api: string;

  beforeAll(async () => {
    fixture = await startTestEngine({ env: { DECOM_CORS_ORIGINS: 'http://ui.example.com,http://localhost:5173' } });
    api = `${fixture.engine.url}/api/hyperfleet/v1`;
  });
  afterAll(async () => fixture?.stop());

  async function call(
    method: string,
    path: string,
    init: { body?: string | Buffer; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const response = await fetch(path.startsWith('http') ? path : `${api}${path}`, {
      method,
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON (204, preflight)
    }
    return { status: response.status, headers: response.headers, text, body };
  }

  const createCluster = (name: string, extra: Record<string, unknown> = {}) =>
    call('POST', '/clusters', { body: JSON.stringify({ kind: 'Cluster', name, spec: {}, ...extra }) });

  describe('methods', () => {
    it.each([
      ['PUT', '/clusters', 'GET, HEAD, POST, OPTIONS'],
      ['DELETE', '/clusters', 'GET, HEAD, POST, OPTIONS'],
      ['POST', '/clusters/0190b2b4-0000-7000-8000-000000000000', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
      ['DELETE', '/clusters/0190b2b4-0000-7000-8000-000000000000/statuses', 'GET, HEAD, PUT, OPTIONS'],
      // Paths a parameter route (`POST /:plural/:id/:childPlural`) would otherwise swallow as an unknown kind.
      ['POST', '/clusters/0190b2b4-0000-7000-8000-000000000000/statuses', 'GET, HEAD, PUT, OPTIONS'],
      ['POST', '/resources/0190b2b4-0000-7000-8000-000000000000/events', 'GET, HEAD, OPTIONS'],
    ])('%s %s → 405 problem with Allow: %s', async (method, path, allow) => {
      const answer = await call(method, path);
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe(allow);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({
        status: 405,
        title: 'Method Not Allowed',
        detail: expect.stringContaining(`${method} is not allowed here`),
        instance: `/api/hyperfleet/v1${path}`,
      });
    });

    it('the UI files answer GET and HEAD only: another method is 405 with Allow, not 404', async () => {
      for (const [method, path] of [
        ['DELETE', '/ui/'],
        ['POST', '/ui/index.html'],
        ['PUT', '/ui'],
      ] as const) {
        const answer = await fetch(`${fixture.engine.url}${path}`, { method });
        expect([method, path, answer.status, answer.headers.get('allow')]).toEqual([method, path, 405, 'GET, HEAD, OPTIONS']);
      }
    });

    it('an unknown path stays 404 for every method', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const answer = await call(method, '/bogus');
        expect([answer.status, answer.body['code']]).toEqual([404, 'HYPERFLEET-NTF-000']);
      }
      // A child collection of no configured kind stays 404 too (the parameter route's own answer).
      expect((await call('POST', '/clusters/0190b2b4-0000-7000-8000-000000000000/bogus', { body: '{}' })).status).toBe(404);
    });

    it('a path with an empty segment (`/clusters/`) is 404 for every method, not a 405 allowing the method it refused', async () => {
      for (const method of ['GET', 'POST', 'DELETE']) {
        for (const path of ['/clusters/', '/clusters/0190b2b4-0000-7000-8000-000000000000/nodepools/']) {
          const answer = await call(method, path, method === 'POST' ? { body: '{}' } : {});
          expect([method, path, answer.status, answer.body['code']]).toEqual([method, path, 404, 'HYPERFLEET-NTF-000']);
        }
      }
    });
  });

  describe('CORS (DECOM_CORS_ORIGINS)', () => {
    it('answers a preflight from a configured origin with the allowed methods and headers', async () => {
      const answer = await call('OPTIONS', '/clusters', {
        headers: {
          origin: 'http://ui.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-hyperfleet-identity',
        },
      });
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe('http://ui.example.com');
      expect(answer.headers.get('access-control-allow-methods')).toContain('POST');
      expect(answer.headers.get('access-control-allow-headers')).toContain('x-hyperfleet-identity');
    });

    it('gives a configured origin its header on real requests, and exposes Location', async () => {
      const answer = await call('GET', '/clusters', { headers: { origin: 'http://localhost:5173' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(answer.headers.get('access-control-expose-headers')).toContain('location');
    });

    it('gives any other origin no CORS header', async () => {
      const answer = await call('GET', '/clusters', { headers: { origin: 'http://evil.example.org' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('is off by default: no CORS headers, OPTIONS answered 204 with Allow', async () => {
      const plain = await startTestEngine();
      try {
        const base = `${plain.engine.url}/api/hyperfleet/v1`;
        const preflight = await call('OPTIONS', `${base}/clusters`, {
          headers: { origin: 'http://ui.example.com', 'access-control-request-method': 'POST' },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
        expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
        const get = await call('GET', `${base}/clusters`, { headers: { origin: 'http://ui.example.com' } });
        expect(get.headers.get('access-control-allow-origin')).toBeNull();
      } finally {
        await plain.stop();
      }
    });
  });

  describe('201 Created', () => {
    it('carries a Location naming the new resource, also for nested creates', async () => {
      const cluster = await createCluster('loc-cluster');
      expect(cluster.status).toBe(201);
      expect(cluster.headers.get('location')).toBe(`/api/hyperfleet/v1/clusters/${cluster.body['id']}`);
      expect((await call('GET', `${fixture.engine.url}${cluster.headers.get('location')}`)).body['name']).toBe('loc-cluster');
      const nodepool = await call('POST', `/clusters/${cluster.body['id']}/nodepools`, {
        body: JSON.stringify({ kind: 'NodePool', name: 'np-1', spec: {} }),
      });
      expect(nodepool.status).toBe(201);
      expect(nodepool.headers.get('location')).toBe(nodepool.body['href']);
      expect(nodepool.headers.get('location')).toContain(`/nodepools/${nodepool.body['id']}`);
    });
  });

  describe('long input is never echoed', () => {
    it('a 5,000-character id → 414 whose problem stays small', async () => {
      const answer = await call('GET', `/clusters/${'a'.repeat(5_000)}`);
      expect(answer.status).toBe(414);
      expect(answer.body).toMatchObject({ title: 'URI Too Long', detail: expect.stringContaining('longer than 100 characters') });
      expect(answer.text.length).toBeLessThan(1_000);
      expect(answer.text).not.toContain('a'.repeat(300));
    });

    it('a 100 KB URL → 414 (not 431), no echo', async () => {
      const answer = await rawGet(fixture.engine.url, `/api/hyperfleet/v1/clusters?search=${'x'.repeat(100_000)}`);
      expect(answer.status).toBe(414);
      expect(JSON.parse(answer.text)).toMatchObject({ status: 414, title: 'URI Too Long' });
      expect(answer.text.length).toBeLessThan(1_000);
    });

    it('oversized headers are still 431', async () => {
      const answer = await rawGet(fixture.engine.url, '/api/hyperfleet/v1/clusters', { 'x-big': 'y'.repeat(20_000) });
      expect(answer.status).toBe(431);
    });

    it('a long unknown path and long query values come back bounded', async () => {
      const path = `/${'segment-'.repeat(40)}/`.repeat(10);
      const notFound = await call('GET', `${fixture.engine.url}${path}`);
      expect(notFound.status).toBe(404);
      expect(String(notFound.body['detail']).length).toBeLessThanOrEqual(1_024);
      expect(String(notFound.body['instance']).length).toBeLessThanOrEqual(256);
      const order = await call('GET', `/clusters?order=${'name,'.repeat(1_000)}bogus`);
      expect(order.status).toBe(400);
      expect(order.text.length).toBeLessThan(3_000);
    });
  });

  describe('validation messages say the real rule', () => {
    it.each([
      ['page=abc', 'page must be a whole number from 1 to 100000, got "abc"'],
      ['page=2&page=3', 'page must be given once, got 2 values'],
      ['page=0', 'page must be at least 1, got 0'],
      ['size=500', 'size must be at most 100, got 500'],
      ['size=1.5', 'size must be a whole number from 1 to 100, got "1.5"'],
    ])('?%s → one message: %s', async (query, message) => {
      const answer = await call('GET', `/clusters?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body['detail']).toBe(message);
      expect(answer.body['errors']).toHaveLength(1);
    });

    it('valid page and size still work', async () => {
      expect((await call('GET', '/clusters?page=1&size=100')).status).toBe(200);
    });

    it("an empty create body names every missing field with the kind's own name limits", async () => {
      const cluster = await call('POST', '/clusters', { body: '{}' });
      expect(cluster.status).toBe(400);
      expect((cluster.body['errors'] as { field: string }[]).map((e) => e.field)).toEqual(['kind', 'name', 'spec']);
      expect(cluster.body['detail']).toContain('Cluster name must be 3..53 characters');
      expect(cluster.body['detail']).not.toContain('253');
      const owner = await createCluster('np-owner');
      const nodepool = await call('POST', `/clusters/${owner.body['id']}/nodepools`, {
        body: JSON.stringify({ kind: 'NodePool', name: 'a-very-long-nodepool', spec: {} }),
      });
      expect(nodepool.status).toBe(400);
      expect(nodepool.body['errors']).toEqual([
        expect.objectContaining({
          field: 'name',
          constraint: 'max_length',
          message: expect.stringContaining('NodePool name must be 3..15 characters'),
        }),
      ]);
      expect((await createCluster('ab')).body['detail']).toContain(
        'Cluster name must be 3..53 characters of a-z, 0-9 and "-" (starting and ending with a letter or digit), got 2 characters',
      );
    });

    it.each([
      [
        'a missing kind is only required',
        '{"name":"abc","spec":{}}',
        [{ field: 'kind', constraint: 'required', message: 'kind is required' }],
      ],
      [
        'a kind of the wrong type says what was sent',
        '{"kind":7,"name":"abc","spec":{}}',
        [{ field: 'kind', value: 7, constraint: 'format', message: 'kind must be a string, got 7' }],
      ],
      [
        'a name of the wrong type is a format error, not "required"',
        '{"kind":"Cluster","name":123,"spec":{}}',
        [expect.objectContaining({ field: 'name', constraint: 'format', message: expect.stringMatching(/got a number$/) })],
      ],
    ])('create body: %s', async (_, body, errors) => {
      const answer = await call('POST', '/clusters', { body });
      expect([answer.status, answer.body['errors']]).toEqual([400, errors]);
    });

    it.each([
      ['"x"', 'conditions must be an array, got "x"'],
      ['{}', 'conditions must be an array, got an object'],
    ])('a status report with conditions %s says they must be an array', async (conditions, message) => {
      const owner = await createCluster(`conditions-${conditions === '{}' ? 'object' : 'string'}`);
      const body = `{"adapter":"a","observed_generation":1,"observed_time":"2026-12-06T10:00:00Z","conditions":${conditions}}`;
      const answer = await call('PUT', `/clusters/${owner.body['id']}/statuses`, { body });
      expect([answer.status, answer.body['errors']]).toEqual([400, [expect.objectContaining({ field: 'conditions', message })]]);
    });

    it('a body that is not a JSON object is one problem', async () => {
      const answer = await call('POST', '/clusters', { body: '[]' });
      expect([answer.status, answer.body['detail']]).toEqual([400, 'body must be a JSON object, got an array']);
    });

    it('an unknown field on a strict route names the fields allowed', async () => {
      const owner = await createCluster('strict-patch');
      const answer = await call('PATCH', `/clusters/${owner.body['id']}`, { body: '{"bogus":1}' });
      expect([answer.status, answer.body['detail']]).toEqual([
        400,
        "field 'bogus' is not allowed; allowed: deletion_policy, deletion_protection, deletion_protection_reason, labels, references, spec",
      ]);
    });

    it('audit ?limit=abc → one message', async () => {
      const answer = await call('GET', `${fixture.engine.url}/api/decom/v1/audit?limit=abc`);
      expect([answer.status, answer.body['detail'], answer.body['errors']]).toEqual([
        400,
        'limit must be a whole number from 1 to 1000, got "abc"',
        [expect.objectContaining({ field: 'limit' })],
      ]);
    });

    it('unknown and read-only body fields are ignored as HyperFleet does; POST /resources checks the name of the body kind', async () => {
      const answer = await createCluster('extra-field', { colour: 'red', id: 'mine' });
      expect(answer.status).toBe(201);
      expect(answer.body['id']).not.toBe('mine');
      const viaResources = await call('POST', '/resources', { body: JSON.stringify({ kind: 'Cluster', name: 'x', spec: {} }) });
      expect(viaResources.status).toBe(400);
      expect(viaResources.body['detail']).toContain('Cluster name must be 3..53 characters');
      const created = await call('POST', '/resources', { body: JSON.stringify({ kind: 'Cluster', name: 'via-resources', spec: {} }) });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`/api/hyperfleet/v1/clusters/${created.body['id']}`);
      const unknownKind = await call('POST', '/resources', { body: JSON.stringify({ kind: 'Bogus', name: 'x', spec: {} }) });
      expect(unknownKind.status).toBe(400);
      expect(unknownKind.body['detail']).toContain('kind must be one of');
    });
  });

  describe('nothing is silently altered', () => {
    it('refuses a __proto__ key with 400 naming the field; nothing is created', async () => {
      const answer = await call('POST', '/clusters', {
        body: '{"kind":"Cluster","name":"proto-poison","spec":{"__proto__":{"admin":true}}}',
      });
      expect(answer.status).toBe(400);
      expect(answer.body['errors']).toEqual([expect.objectContaining({ field: 'spec.__proto__' })]);
      const list = await call('GET', '/clusters?size=100');
      expect((list.body['items'] as { name: string }[]).map((c) => c.name)).not.toContain('proto-poison');
    });

    it('refuses duplicate JSON keys with 400 naming the key; nothing is created', async () => {
      const answer = await call('POST', '/clusters', { body: '{"kind":"Cluster","name":"dup-a","spec":{},"name":"dup-b"}' });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'HYPERFLEET-VAL-000',
        detail: expect.stringContaining('body field name appears more than once'),
      });
      expect(answer.body['errors']).toEqual([expect.objectContaining({ field: 'name' })]);
      const list = await call('GET', '/clusters?size=100');
      expect((list.body['items'] as { name: string }[]).map((c) => c.name)).not.toContain('dup-b');
    });

    it('refuses a body that is not valid UTF-8 instead of storing U+FFFD', async () => {
      const bytes = Buffer.concat([
        Buffer.from('{"kind":"Cluster","name":"bad-bytes","spec":{"a":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}}'),
      ]);
      const answer = await call('POST', '/clusters', { body: bytes });
      expect(answer.status).toBe(400);
      expect(answer.body['detail']).toBe('body is not valid UTF-8');
      const ok = await call('POST', '/clusters', {
        body: JSON.stringify({ kind: 'Cluster', name: 'good-bytes', spec: { city: 'Zürich ✓' } }),
      });
      expect(ok.status).toBe(201);
      expect((ok.body['spec'] as { city: string }).city).toBe('Zürich ✓');
    });

    it.each([
      [{ 'a b/c!': 'x' }, 'labels.a b/c!'],
      [{ 'team!': 'x' }, 'labels.team!'],
      [{ ['k'.repeat(64)]: 'x' }, `labels.${'k'.repeat(64)}`],
      [{ 'Example.com/team': 'x' }, 'labels.Example.com/team'],
      [{ team: 'has space' }, 'labels.team'],
      [{ team: 'v'.repeat(64) }, 'labels.team'],
    ])('refuses labels %j (Kubernetes label syntax)', async (labels, field) => {
      const answer = await createCluster('bad-labels', { labels });
      expect(answer.status).toBe(400);
      expect(answer.body['errors']).toEqual([expect.objectContaining({ field })]);
    });

    it('accepts Kubernetes-valid labels, on create and PATCH', async () => {
      const labels = { 'example.com/team': 'platform', 'app.kubernetes.io/name': 'my_app.v1', env: '' };
      const created = await createCluster('good-labels', { labels });
      expect(created.status).toBe(201);
      expect(created.body['labels']).toEqual(labels);
      const patched = await call('PATCH', `/clusters/${created.body['id']}`, { body: JSON.stringify({ labels: { 'bad key': 'x' } }) });
      expect(patched.status).toBe(400);
    });
  });
});

/** A raw GET over node:http (fetch refuses some of these requests itself). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers, maxHeaderSize: 1_000_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}
