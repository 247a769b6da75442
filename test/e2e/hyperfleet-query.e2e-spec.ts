/**
 * HyperFleet query handling over HTTP (HyperFleet: hyperfleet-api docs/search.md): TSL `search` on every list and
 * status list with HyperFleet's error codes, `fields=`, `ref_type`/`ref_target_id`, unknown query
 * parameters and read-only create fields ignored, `PATCH {}` refused, kind-agnostic `/resources`, paged events.
 * The grammar itself is covered table-driven on both databases in libs/projections/src/search.
 */
import { DemoApi } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const q = encodeURIComponent;

describe('HyperFleet query handling (embedded engine)', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  let prod: any;
  let dev: any;
  let pool: any;

  beforeAll(async () => {
    fixture = await startTestEngine();
    api = new DemoApi(fixture.engine.url);
    prod = (
      await api.call('POST', '/clusters', {
        kind: 'Cluster',
        name: 'q-prod',
        spec: { region: 'eu', size: 3 },
        labels: { env: 'production' },
      })
    ).body;
    dev = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'q-dev', spec: { region: 'us', size: 1 }, labels: { env: 'dev' } }))
      .body;
    pool = (await api.call('POST', `/clusters/${prod.id}/nodepools`, { kind: 'NodePool', name: 'q-pool', spec: {} })).body;
  });
  afterAll(async () => fixture?.stop());

  it('searches lists with TSL: labels, spec numbers, conditions, and child lists', async () => {
    const names = async (path: string) => ((await api.get(path)).body.items as any[]).map((r) => r.name).sort();
    expect(await names(`/clusters?search=${q("labels.env = 'production'")}`)).toEqual(['q-prod']);
    expect(await names(`/clusters?search=${q('spec.size > 2 or spec.size < 1')}`)).toEqual(['q-prod']);
    expect(await names(`/clusters?search=${q("name in ['q-prod', 'q-dev'] and status.conditions.Reconciled = 'False'")}`)).toEqual([
      'q-dev',
      'q-prod',
    ]);
    expect(await names(`/clusters/${prod.id}/nodepools?search=${q("name = 'q-pool'")}`)).toEqual(['q-pool']);
    expect(await names(`/clusters?search=${q('deleted_time IS NOT NULL')}`)).toEqual([]);
  });

  it("answers 400 HYPERFLEET-VAL-005 (HyperFleet's BadRequest) for a parse error and an unknown field, also on status lists", async () => {
    const parse = await api.get(`/clusters?search=${q("name = 'x' and")}`);
    expect(parse.status).toBe(400);
    expect(parse.body).toMatchObject({
      code: 'HYPERFLEET-VAL-005',
      title: 'Bad Request',
      status: 400,
      type: 'https://api.hyperfleet.io/errors/bad-request',
    });
    expect(parse.body.detail).toContain('column');
    const field = await api.get(`/clusters?search=${q("colour = 'red'")}`);
    expect(field.status).toBe(400);
    expect(field.body).toMatchObject({ code: 'HYPERFLEET-VAL-005' });
    const tooLong = await api.get(`/clusters?search=${q(`name = '${'a'.repeat(4100)}'`)}`);
    expect(tooLong.body).toMatchObject({ status: 400, code: 'HYPERFLEET-VAL-005' });
    const statuses = await api.get(`/clusters/${prod.id}/statuses?search=${q("labels.env = 'x'")}`);
    expect(statuses.body).toMatchObject({ status: 400, code: 'HYPERFLEET-VAL-005' });
    expect((await api.get(`/clusters/${prod.id}/statuses?search=${q("adapter = 'none'")}`)).body).toMatchObject({ total: 0, items: [] });
  });

  it('returns sparse fieldsets with id always kept, on lists and get-by-id', async () => {
    const list = await api.get(`/clusters?fields=name,labels&search=${q("name = 'q-prod'")}`);
    expect(list.body.items).toEqual([{ id: prod.id, name: 'q-prod', labels: { env: 'production' } }]);
    const one = await api.get(`/clusters/${prod.id}?fields=generation,status.conditions`);
    expect(Object.keys(one.body).sort()).toEqual(['generation', 'id', 'status']);
    expect(Object.keys(one.body.status)).toEqual(['conditions']);
    expect((await api.get(`/resources/${prod.id}?fields=kind`)).body).toEqual({ id: prod.id, kind: 'Cluster' });
    expect((await api.get('/clusters?fields=bad..name')).status).toBe(400);
  });

  it('ignores unknown list query parameters but still validates the known ones', async () => {
    const list = await api.get('/clusters?unknown=1&page=1&size=5&foo[bar]=2');
    expect(list.status).toBe(200);
    expect(list.body.size).toBeGreaterThanOrEqual(2);
    expect((await api.get('/clusters?unknown=1&size=0')).status).toBe(400);
  });

  it('filters by ref_type + ref_target_id, and needs both', async () => {
    const referrer = await api.call('POST', '/clusters', {
      kind: 'Cluster',
      name: 'q-ref',
      spec: {},
      references: { network: [{ id: dev.id, kind: 'Cluster' }] },
    });
    expect(referrer.status).toBe(201);
    const found = await api.get(`/clusters?ref_type=network&ref_target_id=${dev.id}`);
    expect(found.body.items.map((r: any) => r.name)).toEqual(['q-ref']);
    expect((await api.get(`/clusters?ref_type=storage&ref_target_id=${dev.id}`)).body.total).toBe(0);
    const half = await api.get('/clusters?ref_type=network');
    expect(half.status).toBe(400);
    expect(half.body.errors[0]).toMatchObject({ field: 'ref_target_id', constraint: 'required' });
  });

  it("answers HyperFleet's codes: bad order and PATCH {} VAL-005, an empty body VAL-006, other list parameters VAL-000", async () => {
    const order = await api.get('/clusters?order=colour%20asc');
    expect(order.body).toMatchObject({ status: 400, code: 'HYPERFLEET-VAL-005', title: 'Bad Request' });
    expect(order.body.errors[0]).toMatchObject({ field: 'order', constraint: 'pattern' });
    expect((await api.get('/clusters?order=name%20sideways')).body.code).toBe('HYPERFLEET-VAL-005');
    // page/size are checked first (VAL-000), whatever order says.
    expect((await api.get('/clusters?order=colour&size=0')).body.code).toBe('HYPERFLEET-VAL-000');
    expect((await api.call('PATCH', `/clusters/${dev.id}`, {})).body).toMatchObject({
      status: 400,
      code: 'HYPERFLEET-VAL-005',
      detail: 'at least one field must be provided',
    });
    for (const [method, path] of [
      ['POST', '/clusters'],
      ['POST', '/resources'],
      ['POST', `/clusters/${prod.id}/nodepools`],
      ['PATCH', `/clusters/${dev.id}`],
      ['PATCH', `/clusters/${prod.id}/nodepools/${pool.id}`],
    ] as const) {
      for (const headers of [{ 'content-type': 'application/json' }, {}] as Record<string, string>[]) {
        const response = await fetch(`${fixture.engine.url}/api/hyperfleet/v1${path}`, {
          method,
          headers: { 'x-hyperfleet-identity': 'q@example.com', ...headers },
        });
        const body = (await response.json()) as { code: string };
        expect([method, path, headers, response.status, body.code]).toEqual([method, path, headers, 400, 'HYPERFLEET-VAL-006']);
      }
    }
    // `{}` is a body: refused by validation, naming the missing fields.
    expect((await api.call('POST', '/clusters', {})).body.code).toBe('HYPERFLEET-VAL-000');
  });

  it('create ignores read-only and unknown body fields; PATCH {} is a 400', async () => {
    const created = await api.call('POST', '/clusters', {
      kind: 'Cluster',
      name: 'q-readonly',
      spec: {},
      id: 'chosen-by-client',
      href: '/x',
      generation: 7,
      created_time: '2020-01-01T00:00:00Z',
      status: {},
      colour: 'red',
    });
    expect(created.status).toBe(201);
    expect(created.body.id).not.toBe('chosen-by-client');
    expect(created.body).toMatchObject({ generation: 1, href: `/api/hyperfleet/v1/clusters/${created.body.id}` });
    expect(created.body.colour).toBeUndefined();
    const empty = await api.call('PATCH', `/clusters/${created.body.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('at least one field must be provided');
    expect((await api.call('PATCH', `/clusters/${created.body.id}`, { colour: 'red' })).status).toBe(400);
  });

  it('lists and creates through the kind-agnostic /resources', async () => {
    const all = await api.get(`/resources?search=${q("name in ['q-prod', 'q-pool']")}&order=name asc`);
    expect(all.status).toBe(200);
    expect(all.body.items.map((r: any) => [r.kind, r.name])).toEqual([
      ['NodePool', 'q-pool'],
      ['Cluster', 'q-prod'],
    ]);
    expect((await api.get(`/resources?search=${q("kind = 'NodePool'")}`)).body.items.map((r: any) => r.id)).toContain(pool.id);
    const created = await api.call('POST', '/resources', { kind: 'Cluster', name: 'q-generic', spec: {} });
    expect(created.status).toBe(201);
    expect(created.body.href).toBe(`/api/hyperfleet/v1/clusters/${created.body.id}`);
    expect((await api.call('POST', '/resources', { kind: 'Nope', name: 'x', spec: {} })).status).toBe(400);
    expect((await api.call('POST', '/resources', { kind: 'NodePool', name: 'x', spec: {} })).status).toBe(422);
  });

  it('filters GET /resources by ?kind=, with search and fields; an unknown kind is 400 HYPERFLEET-VAL-000', async () => {
    const kinds = async (path: string) => [...new Set(((await api.get(path)).body.items as any[]).map((r) => r.kind))].sort();
    expect(await kinds('/resources?size=100')).toEqual(['Cluster', 'NodePool']);
    expect(await kinds('/resources?kind=NodePool&size=100')).toEqual(['NodePool']);
    expect(await kinds('/resources?kind=Cluster&size=100')).toEqual(['Cluster']);
    expect(await kinds('/resources?kind=&size=100')).toEqual(['Cluster', 'NodePool']);
    // Combined with a search (AND) and a sparse fieldset.
    expect((await api.get(`/resources?kind=Cluster&search=${q("name in ['q-prod', 'q-pool']")}&fields=name`)).body).toMatchObject({
      total: 1,
      items: [{ id: prod.id, name: 'q-prod' }],
    });
    expect((await api.get(`/resources?kind=NodePool&search=${q("name = 'q-prod'")}`)).body).toMatchObject({ total: 0, items: [] });
    const unknown = await api.get('/resources?kind=Widget');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'HYPERFLEET-VAL-000', detail: 'Unknown entity kind: Widget' });
    expect(unknown.body.errors[0]).toMatchObject({ field: 'kind', value: 'Widget' });
    // Only the kind-agnostic list takes it: a kind's own list ignores it as any other unknown parameter.
    expect((await api.get('/clusters?kind=NodePool')).body.items.every((r: any) => r.kind === 'Cluster')).toBe(true);
  });

  it('pages /resources/{id}/events', async () => {
    await api.call('PATCH', `/clusters/${dev.id}`, { labels: { env: 'dev', a: '1' } });
    await api.call('PATCH', `/clusters/${dev.id}`, { labels: { env: 'dev', a: '2' } });
    const all = (await api.get(`/resources/${dev.id}/events`)).body;
    expect(all.total).toBeGreaterThanOrEqual(3);
    const second = (await api.get(`/resources/${dev.id}/events?page=2&size=1`)).body;
    expect(second).toMatchObject({ page: 2, size: 1, total: all.total });
    expect(second.items[0].position).toBe(all.items[1].position);
    expect((await api.get(`/resources/${dev.id}/events?size=0`)).status).toBe(400);
  });
});
