/**
 * The served OpenAPI document: `.json` and `.yaml` say the same; every operation it declares
 * is called on a real embedded engine, and each answer's status is one the operation declares (problem
 * details under `default`) and its body validates (ajv) against the declared schema. A coverage check
 * fails when the document gains an operation this test does not call, and the route table check when the
 * engine registers a route the document does not describe.
 */
import AjvModule from 'ajv';
import { parse } from 'yaml';
import { registeredRoutes } from '../../apps/api/src/auth/public-routes.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (options: object) => {
  addSchema(schema: object, key: string): void;
  addFormat(name: string, validate: (value: string) => boolean): void;
  validate(schema: object, data: unknown): boolean;
  errors?: unknown;
};

interface Call {
  readonly method: string;
  /** The document's path template, e.g. `/clusters/{cluster_id}`. */
  readonly template: string;
  readonly path: string;
  readonly body?: unknown;
  /** Expected status (the test's scenario), checked besides the document's. */
  readonly expect: number;
}

describe('OpenAPI document: served, and every route answers in the declared shapes', () => {
  let fixture: EngineFixture;
  let doc: any;
  const ajv = new Ajv({ strict: false, allErrors: true });
  const called = new Set<string>();
  // RFC 3339 date-time (the only format the document uses), so timestamps are checked, not ignored.
  ajv.addFormat(
    'date-time',
    (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)),
  );

  beforeAll(async () => {
    fixture = await startTestEngine();
    doc = await (await fetch(`${fixture.engine.url}/api/hyperfleet/v1/openapi.json`)).json();
    ajv.addSchema(doc, 'openapi');
  });
  afterAll(async () => fixture?.stop());

  const url = (template: string, path: string) => {
    const server = doc.paths[template]?.servers?.[0]?.url ?? doc.servers[0].url;
    return `${fixture.engine.url}${server === '/' ? '' : server}${path}`;
  };

  const call = async ({ method, template, path, body, expect: expected }: Call): Promise<any> => {
    const operation = doc.paths[template]?.[method.toLowerCase()];
    expect({ template, method, declared: operation !== undefined }).toEqual({ template, method, declared: true });
    called.add(`${method} ${template}`);
    const response = await fetch(url(template, path), {
      method,
      headers: { 'x-hyperfleet-identity': 'openapi@example.com', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    expect({ method, path, status: response.status, text: response.status === expected ? '' : text }).toEqual({
      method,
      path,
      status: expected,
      text: '',
    });
    const declared = operation.responses[String(response.status)] ?? operation.responses.default;
    expect({ method, template, status: response.status, declared: declared !== undefined }).toEqual({
      method,
      template,
      status: response.status,
      declared: true,
    });
    const media = declared.content ? Object.keys(declared.content)[0]! : undefined;
    if (!media) {
      expect(text).toBe('');
      return undefined;
    }
    expect(response.headers.get('content-type')).toContain(media);
    const value = JSON.parse(text);
    const schema = declared.content[media].schema;
    const valid = ajv.validate(schema.$ref ? { $ref: `openapi${schema.$ref}` } : schema, value);
    expect({ method, path, errors: valid ? null : ajv.errors }).toEqual({ method, path, errors: null });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    return value;
  };

  it("serves the same document as JSON and YAML, with every kind's paths", async () => {
    const yaml = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toContain('application/yaml');
    expect(parse(await yaml.text())).toEqual(doc);
    expect(doc.openapi).toBe('3.0.3');
    // The schemas have teeth: a body missing required fields or with a wrong type is refused.
    expect(ajv.validate({ $ref: 'openapi#/components/schemas/Resource' }, { id: 'x', kind: 'Cluster' })).toBe(false);
    expect(ajv.validate({ $ref: 'openapi#/components/schemas/Problem' }, { type: 't', title: 't', status: '400' })).toBe(false);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/clusters',
        '/clusters/{cluster_id}',
        '/clusters/{cluster_id}/nodepools',
        '/nodepools/{nodepool_id}',
        '/clusters/{cluster_id}/nodepools/{nodepool_id}',
        '/resources/{id}/events',
        '/finalizing',
        '/graphql',
      ]),
    );
  });

  it("names HyperFleet's operations as HyperFleet's spec does, with its 4xx answers; Decom's own are tagged Decom", () => {
    // HyperFleet's operationIds (openshift-hyperfleet/hyperfleet-api openapi/openapi.yaml and the clients generated
    // from it) and the 4xx statuses its spec names for each, at the paths the API serves.
    const hyperfleet: [method: string, template: string, operationId: string, statuses: number[]][] = [
      ['get', '/clusters', 'getClusters', [400]],
      ['post', '/clusters', 'postCluster', [400]],
      ['get', '/clusters/{cluster_id}', 'getClusterById', [400]],
      ['patch', '/clusters/{cluster_id}', 'patchClusterById', [400, 404, 409]],
      ['delete', '/clusters/{cluster_id}', 'deleteClusterById', [400, 404]],
      ['post', '/clusters/{cluster_id}/force-delete', 'forceDeleteCluster', [404, 409]],
      ['get', '/clusters/{cluster_id}/statuses', 'getClusterStatuses', [400, 404]],
      ['put', '/clusters/{cluster_id}/statuses', 'putClusterStatuses', [400, 404, 409]],
      ['get', '/clusters/{cluster_id}/nodepools', 'getNodePoolsByClusterId', [400]],
      ['post', '/clusters/{cluster_id}/nodepools', 'createNodePool', [400]],
      ['get', '/clusters/{cluster_id}/nodepools/{nodepool_id}', 'getNodePoolById', [400]],
      ['patch', '/clusters/{cluster_id}/nodepools/{nodepool_id}', 'patchNodePoolById', [400, 404, 409]],
      ['delete', '/clusters/{cluster_id}/nodepools/{nodepool_id}', 'deleteNodePoolById', [400, 404]],
      ['post', '/clusters/{cluster_id}/nodepools/{nodepool_id}/force-delete', 'forceDeleteNodePool', [404, 409]],
      ['get', '/clusters/{cluster_id}/nodepools/{nodepool_id}/statuses', 'getNodePoolsStatuses', [400]],
      ['put', '/clusters/{cluster_id}/nodepools/{nodepool_id}/statuses', 'putNodePoolStatuses', [400, 404, 409]],
      ['get', '/nodepools', 'getNodePools', [400]],
      ['get', '/resources', 'getResources', [400]],
      ['post', '/resources', 'postResource', [400]],
      ['get', '/resources/{id}', 'getResourceById', [400, 404]],
      ['patch', '/resources/{id}', 'patchResourceById', [400, 404, 409]],
      ['delete', '/resources/{id}', 'deleteResourceById', [400, 404]],
      ['post', '/resources/{id}/force-delete', 'forceDeleteResource', [404, 409]],
      ['get', '/resources/{id}/statuses', 'getResourceStatuses', [400, 404]],
      ['put', '/resources/{id}/statuses', 'putResourceStatuses', [400, 404, 409]],
    ];
    for (const [method, template, operationId, statuses] of hyperfleet) {
      const operation = doc.paths[template]?.[method];
      expect({ method, template, operationId: operation?.operationId, tags: operation?.tags?.includes('Decom') }).toEqual({
        method,
        template,
        operationId,
        tags: false,
      });
      const problem = {
        description: expect.any(String),
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      };
      for (const status of statuses)
        expect({ operationId, status, answer: operation.responses[String(status)] }).toEqual({ operationId, status, answer: problem });
    }
    const operations = Object.entries(doc.paths).flatMap(([template, item]: [string, any]) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).map((m) => ({ template, item, method: m, operation: item[m] })),
    );
    const ids = operations.map((o) => o.operation.operationId);
    expect(ids.filter((id) => typeof id !== 'string')).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    // Decom's own operations: the operator actions, the history, and everything outside HyperFleet's base path.
    const decomOwn = ({ template, item }: { template: string; item: any }) =>
      /\/(pause|unpause|force-orphan|abandon|events)$/.test(template) || item.servers !== undefined;
    expect(operations.filter((o) => o.operation.tags.includes('Decom') !== decomOwn(o)).map((o) => `${o.method} ${o.template}`)).toEqual(
      [],
    );
  });

  it('documents the list parameters the API takes (order, size default 20), and the API honours each as documented', async () => {
    const listOps = ['/clusters', '/nodepools', '/resources', '/clusters/{cluster_id}/nodepools'].map((t) => doc.paths[t].get);
    for (const op of listOps) {
      const params = op.parameters.map((p: any) => p.name);
      expect(params).toEqual(expect.arrayContaining(['search', 'page', 'size', 'order', 'fields', 'ref_type', 'ref_target_id']));
      expect(op.parameters.find((p: any) => p.name === 'size').schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    }
    expect(JSON.stringify(doc)).not.toContain('orderBy');
    expect(doc.paths['/resources'].get.parameters.map((p: any) => p.name)).toContain('kind');
    const statusSize = doc.paths['/clusters/{cluster_id}/statuses'].get.parameters.find((p: any) => p.name === 'size').schema;

    const base = `${fixture.engine.url}/api/hyperfleet/v1`;
    const headers = { 'x-hyperfleet-identity': 'openapi@example.com', 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) =>
      (await (await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as {
        id: string;
        generation: number;
      };
    const cluster = await post('/clusters', { kind: 'Cluster', name: 'openapi-paging', spec: {} });
    for (let i = 0; i <= 20; i++) await post(`/clusters/${cluster.id}/nodepools`, { kind: 'NodePool', name: `page-np-${i}`, spec: {} });
    const observed_time = new Date().toISOString();
    for (let i = 0; i <= 20; i++) {
      const report = {
        adapter: `paging-${String(i).padStart(2, '0')}`,
        observed_generation: cluster.generation,
        observed_time,
        conditions: ['Applied', 'Available', 'Health'].map((type) => ({ type, status: 'True' })),
      };
      expect(
        (await fetch(`${base}/clusters/${cluster.id}/statuses`, { method: 'PUT', headers, body: JSON.stringify(report) })).status,
      ).toBe(201);
    }
    const get = async (path: string) => {
      const response = await fetch(`${base}${path}`);
      return { status: response.status, body: (await response.json()) as any };
    };
    // Without `size`, a page holds the documented default; each documented parameter is taken as documented.
    const pools = `/clusters/${cluster.id}/nodepools`;
    const first = await get(pools);
    expect([first.status, first.body.items.length, first.body.total]).toEqual([
      200,
      doc.paths['/clusters/{cluster_id}/nodepools'].get.parameters.find((p: any) => p.name === 'size').schema.default,
      21,
    ]);
    const statuses = await get(`/clusters/${cluster.id}/statuses`);
    expect([statuses.status, statuses.body.items.length, statuses.body.total]).toEqual([200, statusSize.default, 21]);
    const ordered = await get(`${pools}?order=name%20desc&size=2&page=1`);
    expect(ordered.body.items.map((i: any) => i.name)).toEqual(['page-np-9', 'page-np-8']);
    const fields = await get(`${pools}?fields=name&size=1&search=${encodeURIComponent("name='page-np-3'")}`);
    expect(fields.body.items).toEqual([{ id: expect.any(String), name: 'page-np-3' }]);
    const byKind = await get('/resources?kind=NodePool&size=100');
    expect(new Set(byKind.body.items.map((i: any) => i.kind))).toEqual(new Set(['NodePool']));
    // Out of the documented bounds: refused, not clamped.
    expect((await get(`${pools}?size=${statusSize.maximum + 1}`)).status).toBe(400);
    expect((await get(`${pools}?size=0`)).status).toBe(400);
    expect((await get(`${pools}?order=bogus`)).status).toBe(400);
  });

  it('documents every route the engine registers (the route table), and nothing it does not serve', () => {
    const documented = Object.entries(doc.paths).flatMap(([template, item]: [string, any]) => {
      const server = item.servers?.[0]?.url ?? doc.servers[0].url;
      return ['get', 'post', 'put', 'patch', 'delete']
        .filter((m) => item[m])
        .map((m) => `${m.toUpperCase()} ${server === '/' ? '' : server}${template}`);
    });
    // Not API operations: HEAD twins of GETs, CORS/Allow answers, the UI's files, and the document itself.
    const undocumented = new Set(['/ui', '/ui/*', '/api/hyperfleet/v1/openapi.json', '/api/hyperfleet/v1/openapi.yaml']);
    const routes = registeredRoutes(fixture.engine.app.getHttpAdapter().getInstance() as never).filter(
      (r) => !['HEAD', 'OPTIONS'].includes(r.method) && !undocumented.has(r.url),
    );
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/hyperfleet/v1/:plural', 'POST /graphql', 'GET /api/decom/v1/finalizing']),
    );
    const pattern = (route: { method: string; url: string }) =>
      new RegExp(`^${route.method} ${route.url.replace(/:[A-Za-z_]+/g, '[^/]+')}$`);
    expect(routes.filter((route) => !documented.some((op) => pattern(route).test(op))).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(documented.filter((op) => !routes.some((route) => pattern(route).test(op)))).toEqual([]);
  });

  it('each declared operation answers with a declared status and a body of the declared schema', async () => {
    const cluster = await call({
      method: 'POST',
      template: '/clusters',
      path: '/clusters',
      body: { kind: 'Cluster', name: 'openapi-c1', spec: { region: 'eu' } },
      expect: 201,
    });
    const c = cluster.id as string;
    const pools: string[] = [];
    for (const name of ['np-one', 'np-two', 'np-three']) {
      pools.push(
        (
          await call({
            method: 'POST',
            template: '/clusters/{cluster_id}/nodepools',
            path: `/clusters/${c}/nodepools`,
            body: { kind: 'NodePool', name, spec: {} },
            expect: 201,
          })
        ).id,
      );
    }
    const [n1, n2, n3] = pools as [string, string, string];
    const c2 = (
      await call({
        method: 'POST',
        template: '/clusters',
        path: '/clusters',
        body: { kind: 'Cluster', name: 'openapi-c2', spec: {} },
        expect: 201,
      })
    ).id as string;
    const c3 = (
      await call({
        method: 'POST',
        template: '/resources',
        path: '/resources',
        body: { kind: 'Cluster', name: 'openapi-c3', spec: {} },
        expect: 201,
      })
    ).id as string;

    const addresses = [
      { template: '/clusters/{cluster_id}', path: `/clusters/${c}` },
      { template: '/nodepools/{nodepool_id}', path: `/nodepools/${n1}` },
      { template: '/clusters/{cluster_id}/nodepools/{nodepool_id}', path: `/clusters/${c}/nodepools/${n1}` },
      { template: '/resources/{id}', path: `/resources/${n1}` },
    ];
    // Reads.
    await call({ method: 'GET', template: '/clusters', path: '/clusters?page=1&size=10', expect: 200 });
    await call({ method: 'GET', template: '/clusters/{cluster_id}/nodepools', path: `/clusters/${c}/nodepools`, expect: 200 });
    await call({ method: 'GET', template: '/nodepools', path: '/nodepools', expect: 200 });
    await call({ method: 'GET', template: '/resources', path: '/resources', expect: 200 });
    await call({ method: 'GET', template: '/finalizing', path: '/finalizing', expect: 200 });
    await call({ method: 'GET', template: '/finalizing', path: '/finalizing?blocker=Stuck', expect: 400 });
    await call({ method: 'GET', template: '/audit', path: '/audit?type=ForceDeleted', expect: 200 });
    await call({ method: 'GET', template: '/kinds', path: '/kinds', expect: 200 });
    const gql = await call({
      method: 'POST',
      template: '/graphql',
      path: '/graphql',
      body: { query: `{ resource(id: "${c}") { id } }` },
      expect: 200,
    });
    expect(gql.data.resource.id).toBe(c);
    const gqlGet = await call({
      method: 'GET',
      template: '/graphql',
      path: `/graphql?query=${encodeURIComponent(`{ resource(id: "${c}") { id } }`)}`,
      expect: 200,
    });
    expect(gqlGet.data.resource.id).toBe(c);
    for (const a of addresses) {
      await call({ method: 'GET', template: a.template, path: a.path, expect: 200 });
      await call({ method: 'GET', template: `${a.template}/statuses`, path: `${a.path}/statuses`, expect: 200 });
      await call({ method: 'PATCH', template: a.template, path: a.path, body: { labels: { team: 'docs' } }, expect: 200 });
      const generation = ((await (await fetch(url(a.template, a.path))).json()) as { generation: number }).generation;
      const report = {
        adapter: 'openapi-test',
        observed_generation: generation,
        observed_time: new Date().toISOString(),
        conditions: ['Applied', 'Available', 'Health'].map((type) => ({ type, status: 'True', reason: 'Fine', message: 'fine' })),
      };
      await call({ method: 'PUT', template: `${a.template}/statuses`, path: `${a.path}/statuses`, body: report, expect: 201 });
      await call({
        method: 'PUT',
        template: `${a.template}/statuses`,
        path: `${a.path}/statuses`,
        body: { ...report, observed_generation: generation + 5 },
        expect: 204,
      });
      await call({ method: 'POST', template: `${a.template}/pause`, path: `${a.path}/pause`, body: { reason: 'openapi' }, expect: 200 });
      await call({
        method: 'POST',
        template: `${a.template}/unpause`,
        path: `${a.path}/unpause`,
        body: { reason: 'openapi' },
        expect: 200,
      });
    }
    // Deletion, force orphan and force delete on each address (their own resources: C2, N2 flat, N3 nested).
    const doomed = [
      { template: '/clusters/{cluster_id}', path: `/clusters/${c2}`, adapter: 'validation' },
      { template: '/nodepools/{nodepool_id}', path: `/nodepools/${n2}`, adapter: 'np-configmap' },
      { template: '/clusters/{cluster_id}/nodepools/{nodepool_id}', path: `/clusters/${c}/nodepools/${n3}`, adapter: 'np-configmap' },
      { template: '/resources/{id}', path: `/resources/${c3}`, adapter: 'validation' },
    ];
    for (const a of doomed) {
      await call({
        method: 'POST',
        template: `${a.template}/force-delete`,
        path: `${a.path}/force-delete`,
        body: { reason: 'not deleting yet' },
        expect: 409,
      });
      const preview = await call({ method: 'DELETE', template: a.template, path: `${a.path}?dryRun=All`, expect: 200 });
      expect(preview.outcome).toBe('WouldDelete');
      await call({ method: 'DELETE', template: a.template, path: `${a.path}?dryRun=all`, expect: 400 });
      // Abandoning the resource's only adapter would finish its deletion before the force actions below.
      await call({
        method: 'POST',
        template: `${a.template}/adapters/{adapter}/abandon`,
        path: `${a.path}/adapters/${a.adapter}/abandon`,
        body: { reason: 'not deleting yet' },
        expect: 409,
      });
      await call({ method: 'DELETE', template: a.template, path: a.path, expect: 202 });
      await call({
        method: 'POST',
        template: `${a.template}/force-orphan`,
        path: `${a.path}/force-orphan`,
        body: { reason: 'openapi' },
        expect: 200,
      });
      await call({
        method: 'POST',
        template: `${a.template}/force-delete`,
        path: `${a.path}/force-delete`,
        body: { reason: 'openapi' },
        expect: 204,
      });
      await call({ method: 'GET', template: a.template, path: a.path, expect: 404 });
    }
    await call({ method: 'GET', template: '/resources/{id}/events', path: `/resources/${c2}/events`, expect: 200 });
    // Decom's operator endpoints and the probes.
    await call({ method: 'GET', template: '/kinds', path: '/kinds', expect: 200 });
    await call({ method: 'GET', template: '/audit', path: '/audit?limit=5', expect: 200 });
    await call({ method: 'GET', template: '/leaks', path: '/leaks', expect: 200 });
    // It takes no parameters: one a client believes it applied is refused, as on the other lists.
    await call({ method: 'GET', template: '/leaks', path: '/leaks?bogus=1', expect: 400 });
    await call({ method: 'POST', template: '/leaks/delete', path: '/leaks/delete', body: {}, expect: 400 });
    await call({ method: 'POST', template: '/leaks/delete', path: '/leaks/delete', body: { reason: 'openapi' }, expect: 200 });
    await call({ method: 'GET', template: '/jobs/failed', path: '/jobs/failed', expect: 200 });
    await call({ method: 'GET', template: '/jobs/failed', path: '/jobs/failed?queue=hard-delete', expect: 200 });
    await call({
      method: 'POST',
      template: '/jobs/retry',
      path: '/jobs/retry',
      body: { queue: 'hard-delete', id: 'no-such-job' },
      expect: 404,
    });
    // The two-person rule is off here (approvals 0): the queue is empty and an unknown request is a 404.
    await call({ method: 'GET', template: '/break-glass-requests', path: '/break-glass-requests?status=Pending&limit=5', expect: 200 });
    await call({ method: 'GET', template: '/break-glass-requests', path: '/break-glass-requests?status=Bogus', expect: 400 });
    const unknownRequest = '/break-glass-requests/0190b2b4-0000-7000-8000-00000000dead';
    await call({ method: 'GET', template: '/break-glass-requests/{request_id}', path: unknownRequest, expect: 404 });
    await call({
      method: 'POST',
      template: '/break-glass-requests/{request_id}/approve',
      path: `${unknownRequest}/approve`,
      body: {},
      expect: 404,
    });
    await call({
      method: 'POST',
      template: '/break-glass-requests/{request_id}/reject',
      path: `${unknownRequest}/reject`,
      body: { reason: 'openapi' },
      expect: 404,
    });
    await call({ method: 'POST', template: '/jobs/retry', path: '/jobs/retry', body: { queue: 'hard-delete' }, expect: 400 });
    await call({ method: 'GET', template: '/whoami', path: '/whoami', expect: 200 });
    await call({ method: 'GET', template: '/healthz', path: '/healthz', expect: 200 });
    await call({ method: 'GET', template: '/readyz', path: '/readyz', expect: 200 });
    {
      // A stream never ends: check the status and media type, then hang up.
      const abort = new AbortController();
      const stream = await fetch(url('/events/stream', '/events/stream'), { signal: abort.signal });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toContain(Object.keys(doc.paths['/events/stream'].get.responses['200'].content)[0]);
      abort.abort();
      called.add('GET /events/stream');
    }
    await call({ method: 'POST', template: '/clusters', path: '/clusters', body: { kind: 'Cluster', name: 'x' }, expect: 400 });

    const declared = Object.entries(doc.paths).flatMap(([template, item]: [string, any]) =>
      Object.keys(item)
        .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
        .map((m) => `${m.toUpperCase()} ${template}`),
    );
    expect(declared.filter((op) => !called.has(op))).toEqual([]);
  }, 60_000);
});
