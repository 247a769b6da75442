/**
 * The served OpenAPI document (issue 13 §5): `.json` and `.yaml` say the same; every operation it declares
 * is called on a real embedded engine, and each answer's status is one the operation declares (problem
 * details under `default`) and its body validates (ajv) against the declared schema. A coverage check
 * fails when the document gains an operation this test does not call.
 */
import AjvModule from 'ajv';
import { parse } from 'yaml';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (options: object) => {
  addSchema(schema: object, key: string): void;
  addFormat(name: string, validate: (value: string) => boolean): void;
  validate(schema: object, data: unknown): boolean;
  errors?: unknown;
};

interface Call {
  readonly method: string;
  /** The document's path template, e.g. `/clusters/{id}`. */
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
  ajv.addFormat('date-time', (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)));

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
    expect({ method, path, status: response.status, text: response.status === expected ? '' : text }).toEqual({ method, path, status: expected, text: '' });
    const declared = operation.responses[String(response.status)] ?? operation.responses.default;
    expect({ method, template, status: response.status, declared: declared !== undefined }).toEqual({ method, template, status: response.status, declared: true });
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

  it('serves the same document as JSON and YAML, with every kind\'s paths', async () => {
    const yaml = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toContain('application/yaml');
    expect(parse(await yaml.text())).toEqual(doc);
    expect(doc.openapi).toBe('3.0.3');
    // The schemas have teeth: a body missing required fields or with a wrong type is refused.
    expect(ajv.validate({ $ref: 'openapi#/components/schemas/Resource' }, { id: 'x', kind: 'Cluster' })).toBe(false);
    expect(ajv.validate({ $ref: 'openapi#/components/schemas/Problem' }, { type: 't', title: 't', status: '400' })).toBe(false);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/clusters', '/clusters/{id}', '/clusters/{id}/nodepools', '/nodepools/{id}', '/clusters/{cluster_id}/nodepools/{id}', '/resources/{id}/events', '/finalizing', '/graphql']));
  });

  it('each declared operation answers with a declared status and a body of the declared schema', async () => {
    const cluster = await call({ method: 'POST', template: '/clusters', path: '/clusters', body: { kind: 'Cluster', name: 'openapi-c1', spec: { region: 'eu' } }, expect: 201 });
    const c = cluster.id as string;
    const pools: string[] = [];
    for (const name of ['np-one', 'np-two', 'np-three']) {
      pools.push((await call({ method: 'POST', template: '/clusters/{id}/nodepools', path: `/clusters/${c}/nodepools`, body: { kind: 'NodePool', name, spec: {} }, expect: 201 })).id);
    }
    const [n1, n2, n3] = pools as [string, string, string];
    const c2 = (await call({ method: 'POST', template: '/clusters', path: '/clusters', body: { kind: 'Cluster', name: 'openapi-c2', spec: {} }, expect: 201 })).id as string;

    const addresses = [
      { template: '/clusters/{id}', path: `/clusters/${c}` },
      { template: '/nodepools/{id}', path: `/nodepools/${n1}` },
      { template: '/clusters/{cluster_id}/nodepools/{id}', path: `/clusters/${c}/nodepools/${n1}` },
    ];
    // Reads.
    await call({ method: 'GET', template: '/clusters', path: '/clusters?page=1&size=10', expect: 200 });
    await call({ method: 'GET', template: '/clusters/{id}/nodepools', path: `/clusters/${c}/nodepools`, expect: 200 });
    await call({ method: 'GET', template: '/nodepools', path: '/nodepools', expect: 200 });
    await call({ method: 'GET', template: '/resources', path: '/resources', expect: 200 });
    await call({ method: 'GET', template: '/resources/{id}', path: `/resources/${c}`, expect: 200 });
    await call({ method: 'GET', template: '/finalizing', path: '/finalizing', expect: 200 });
    await call({ method: 'GET', template: '/finalizing', path: '/finalizing?blocker=Stuck', expect: 400 });
    await call({ method: 'GET', template: '/audit', path: '/audit?type=ForceDeleted', expect: 200 });
    await call({ method: 'GET', template: '/kinds', path: '/kinds', expect: 200 });
    const gql = await call({ method: 'POST', template: '/graphql', path: '/graphql', body: { query: `{ resource(id: "${c}") { id } }` }, expect: 200 });
    expect(gql.data.resource.id).toBe(c);
    for (const a of addresses) {
      await call({ method: 'GET', template: a.template, path: a.path, expect: 200 });
      await call({ method: 'GET', template: `${a.template}/statuses`, path: `${a.path}/statuses`, expect: 200 });
      await call({ method: 'PATCH', template: a.template, path: a.path, body: { labels: { team: 'docs' } }, expect: 200 });
      const generation = ((await (await fetch(url(a.template, a.path))).json()) as { generation: number }).generation;
      const report = { adapter: 'openapi-test', observed_generation: generation, observed_time: new Date().toISOString(), conditions: ['Applied', 'Available', 'Health'].map((type) => ({ type, status: 'True', reason: 'Fine', message: 'fine' })) };
      await call({ method: 'PUT', template: `${a.template}/statuses`, path: `${a.path}/statuses`, body: report, expect: 201 });
      await call({ method: 'PUT', template: `${a.template}/statuses`, path: `${a.path}/statuses`, body: { ...report, observed_generation: generation + 5 }, expect: 204 });
      await call({ method: 'POST', template: `${a.template}/pause`, path: `${a.path}/pause`, body: { reason: 'openapi' }, expect: 200 });
      await call({ method: 'POST', template: `${a.template}/unpause`, path: `${a.path}/unpause`, body: { reason: 'openapi' }, expect: 200 });
    }
    // Deletion, force orphan and force delete on each address (their own resources: C2, N2 flat, N3 nested).
    const doomed = [
      { template: '/clusters/{id}', path: `/clusters/${c2}`, adapter: 'validation' },
      { template: '/nodepools/{id}', path: `/nodepools/${n2}`, adapter: 'np-configmap' },
      { template: '/clusters/{cluster_id}/nodepools/{id}', path: `/clusters/${c}/nodepools/${n3}`, adapter: 'np-configmap' },
    ];
    for (const a of doomed) {
      await call({ method: 'POST', template: `${a.template}/force-delete`, path: `${a.path}/force-delete`, body: { reason: 'not deleting yet' }, expect: 409 });
      const preview = await call({ method: 'DELETE', template: a.template, path: `${a.path}?dryRun=All`, expect: 200 });
      expect(preview.outcome).toBe('WouldDelete');
      await call({ method: 'DELETE', template: a.template, path: `${a.path}?dryRun=all`, expect: 400 });
      // Abandoning the resource's only adapter would finish its deletion before the force actions below.
      await call({ method: 'POST', template: `${a.template}/adapters/{adapter}/abandon`, path: `${a.path}/adapters/${a.adapter}/abandon`, body: { reason: 'not deleting yet' }, expect: 409 });
      await call({ method: 'DELETE', template: a.template, path: a.path, expect: 202 });
      await call({ method: 'POST', template: `${a.template}/force-orphan`, path: `${a.path}/force-orphan`, body: { reason: 'openapi' }, expect: 200 });
      await call({ method: 'POST', template: `${a.template}/force-delete`, path: `${a.path}/force-delete`, body: { reason: 'openapi' }, expect: 204 });
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
    await call({ method: 'POST', template: '/jobs/retry', path: '/jobs/retry', body: { queue: 'hard-delete', id: 'no-such-job' }, expect: 404 });
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
      Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)).map((m) => `${m.toUpperCase()} ${template}`),
    );
    expect(declared.filter((op) => !called.has(op))).toEqual([]);
  }, 60_000);
});
