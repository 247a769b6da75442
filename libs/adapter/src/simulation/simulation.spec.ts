import { ApiHttpError, ApiResourceNotFoundError, ApiRouteNotFoundError } from '../api-client/api-errors.js';
import { RecordedResponsesApiClient, RecordedResponsesError } from './recorded-responses.api-client.js';
import { SimulatedCluster } from './simulated-cluster.js';

describe('RecordedResponsesApiClient (HyperFleet dry-run responses file)', () => {
  const file = {
    responses: [
      {
        match: { method: 'GET', urlPattern: '/clusters/c1$' },
        responses: [
          { statusCode: 200, body: { n: 1 } },
          { statusCode: 200, body: { n: 2 } },
        ],
      },
      { match: { method: '*', urlPattern: '/gone' }, responses: [{ statusCode: 404, body: { code: 'HYPERFLEET-NTF-001' } }] },
      { match: { method: 'GET', urlPattern: '/route' }, responses: [{ statusCode: 404, body: { code: 'HYPERFLEET-NTF-000' } }] },
      {
        match: { method: 'PUT', urlPattern: '/statuses' },
        responses: [{ statusCode: 400, body: { detail: 'missing mandatory condition' } }],
      },
    ],
  };

  it('answers in order then repeats the last; unmatched → 200 {}; errors classified like the real client', async () => {
    const api = new RecordedResponsesApiClient(file);
    expect((await api.request({ method: 'GET', url: '/clusters/c1' })).body).toEqual({ n: 1 });
    expect((await api.request({ method: 'GET', url: '/clusters/c1' })).body).toEqual({ n: 2 });
    expect((await api.request({ method: 'GET', url: '/clusters/c1' })).body).toEqual({ n: 2 });
    expect(await api.request({ method: 'POST', url: '/anything', body: '{"a":1}' })).toMatchObject({ status: 200, body: {} });
    await expect(api.request({ method: 'DELETE', url: '/gone' })).rejects.toBeInstanceOf(ApiResourceNotFoundError);
    await expect(api.request({ method: 'GET', url: '/route' })).rejects.toBeInstanceOf(ApiRouteNotFoundError);
    await expect(api.request({ method: 'PUT', url: '/clusters/c1/statuses', body: '{}' })).rejects.toBeInstanceOf(ApiHttpError);
    expect(api.exchanges.map((e) => `${e.method} ${e.status} ${e.answeredBy}`)).toEqual([
      'GET 200 recorded',
      'GET 200 recorded',
      'GET 200 recorded',
      'POST 200 default',
      'DELETE 404 recorded',
      'GET 404 recorded',
      'PUT 400 recorded',
    ]);
    expect(api.exchanges[3]).toMatchObject({ url: '/anything', requestBody: { a: 1 } });
  });

  it("without a base_url a relative URL is left unchanged, as HyperFleet's buildHyperfleetAPICallURL does: a full-path pattern does not match it", async () => {
    const fullPath = {
      responses: [
        { match: { method: 'GET', urlPattern: '^/api/hyperfleet/v1/clusters/c1$' }, responses: [{ statusCode: 200, body: { n: 1 } }] },
      ],
    };
    const bare = new RecordedResponsesApiClient(fullPath);
    expect((await bare.request({ method: 'GET', url: '/clusters/c1' })).body).toEqual({});
    expect(bare.exchanges[0]).toMatchObject({ url: '/clusters/c1', answeredBy: 'default' });
    const based = new RecordedResponsesApiClient(
      {
        responses: [
          { match: { method: 'GET', urlPattern: '/api/hyperfleet/v1/clusters/c1$' }, responses: [{ statusCode: 200, body: { n: 1 } }] },
        ],
      },
      { baseUrl: 'http://api.example:8000' },
    );
    expect((await based.request({ method: 'GET', url: '/clusters/c1' })).body).toEqual({ n: 1 });
    expect(based.exchanges[0]).toMatchObject({ url: 'http://api.example:8000/api/hyperfleet/v1/clusters/c1', answeredBy: 'recorded' });
  });

  it.each([
    [{}, 'expected {"responses": [...]}'],
    [{ responses: [{ match: { method: 'GET' }, responses: [{}] }] }, 'responses[0].match.urlPattern is required'],
    [
      { responses: [{ match: { method: 'GET', urlPattern: '(' }, responses: [{}] }] },
      'responses[0].match.urlPattern: Invalid regular expression',
    ],
    [{ responses: [{ match: { method: 'GET', urlPattern: 'x' }, responses: [] }] }, 'responses[0] has no responses'],
  ])('refuses a malformed file %#', (bad, message) => {
    expect(() => new RecordedResponsesApiClient(bad)).toThrow(RecordedResponsesError);
    expect(() => new RecordedResponsesApiClient(bad)).toThrow(message);
  });
});

describe('SimulatedCluster', () => {
  const cm = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'ns', ...extra },
  });

  it('creates, replaces and deletes in memory; finalizers hold an object; Namespaces go on settle()', async () => {
    const cluster = new SimulatedCluster({ now: () => new Date('2026-03-25T10:00:00Z') });
    await cluster.create(cm('a', { labels: { app: 'x' } }));
    await expect(cluster.create(cm('a'))).rejects.toMatchObject({ reason: 'AlreadyExists' });
    expect((await cluster.replace(cm('a', { labels: { app: 'x' }, annotations: { v: '2' } }))).metadata).toMatchObject({
      resourceVersion: '2',
      uid: 'simulated-1',
    });
    cluster.seed(cm('held', { finalizers: ['x/y'], labels: { app: 'x' } }));
    cluster.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
    expect(
      (await cluster.discoverAll({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', labelSelector: { app: 'x' } }))
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['a', 'held']);

    expect(await cluster.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'a', namespace: 'ns' }, 'Background')).toBe('deleted');
    expect(await cluster.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'a', namespace: 'ns' }, 'Background')).toBe('not-found');
    await cluster.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'held', namespace: 'ns' }, 'Foreground');
    await cluster.delete({ apiVersion: 'v1', kind: 'Namespace', name: 'ns' }, 'Background');
    expect((await cluster.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'held', namespace: 'ns' }))?.metadata.deletionTimestamp).toBe(
      '2026-03-25T10:00:00.000Z',
    );
    expect(cluster.settle()).toEqual(['Namespace/ns']);
    expect(await cluster.get({ apiVersion: 'v1', kind: 'Namespace', name: 'ns' })).toBeUndefined();
    expect(await cluster.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'held', namespace: 'ns' })).toBeDefined();
    expect(cluster.calls.filter((c) => c.verb === 'delete').map((c) => c.outcome)).toEqual([
      'deleted',
      'not-found',
      'terminating (finalizers: x/y)',
      'terminating (deleted asynchronously)',
    ]);
  });

  it('stores a discovery override in place of what is applied under its name (HyperFleet dry-run rule)', async () => {
    const override = { ...cm('b'), status: { phase: 'Ready' } };
    const cluster = new SimulatedCluster({ overrides: { b: override } });
    await cluster.create(cm('b', { labels: { from: 'manifest' } }));
    expect(await cluster.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'b', namespace: 'ns' })).toMatchObject({
      status: { phase: 'Ready' },
    });
    expect(cluster.calls.find((c) => c.verb === 'create')?.object?.metadata.labels).toEqual({ from: 'manifest' });
  });
});
