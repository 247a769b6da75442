import { createServer } from 'node:net';
import { RecordedApiServer } from '../testing/recorded-api-server.js';
import { ApiHttpError, ApiResourceNotFoundError, ApiRouteNotFoundError, ApiTransportError } from './api-errors.js';
import { HttpHyperfleetApiClient, type FetchLike } from './hyperfleet-api.client.js';

/**
 * Runs against a real HTTP server answering recorded HyperFleet responses (the real API is built elsewhere),
 * with the default `undiciFetch` and with the global `fetch` it stands in for: same answers.
 */
describe.each<[string, FetchLike | undefined]>([
  ['undiciFetch (default)', undefined],
  ['global fetch', fetch],
])('HttpHyperfleetApiClient against a recorded-response HTTP server, %s', (_name, fetchFn) => {
  let server: RecordedApiServer;
  let delays: number[];
  const client = (overrides: Partial<ConstructorParameters<typeof HttpHyperfleetApiClient>[0]> = {}) =>
    new HttpHyperfleetApiClient(
      { baseUrl: server.url, baseDelayMs: 100, maxDelayMs: 1000, ...overrides },
      { sleep: async (ms) => void delays.push(ms), random: () => 0.5, ...(fetchFn && { fetch: fetchFn }) },
    );

  beforeEach(async () => {
    server = await new RecordedApiServer().start();
    delays = [];
  });
  afterEach(() => server.close());

  it('prefixes relative URLs with /api/hyperfleet/{version} and parses the JSON body', async () => {
    server.on('GET /api/hyperfleet/v1/clusters/c1', { status: 200, body: { id: 'c1', generation: 2 } });
    const response = await client().request({ method: 'GET', url: '/clusters/c1' });
    expect(response).toEqual({
      method: 'GET',
      url: `${server.url}/api/hyperfleet/v1/clusters/c1`,
      status: 200,
      body: { id: 'c1', generation: 2 },
      attempts: 1,
    });
  });

  it('sends a rendered string body as JSON with default and per-call headers', async () => {
    server.on('PUT /api/hyperfleet/v1/clusters/c1/statuses', { status: 201, body: { adapter: 'validation' } });
    await client({ defaultHeaders: { 'X-Team': 'decom' } }).request({
      method: 'PUT',
      url: '/clusters/c1/statuses',
      body: '{"adapter":"validation"}',
      headers: { 'X-Trace': 't1' },
    });
    const [put] = server.requests('PUT');
    expect(put?.body).toEqual({ adapter: 'validation' });
    expect(put?.headers['content-type']).toBe('application/json');
    expect(put?.headers['x-team']).toBe('decom');
    expect(put?.headers['x-trace']).toBe('t1');
  });

  it('retries 503 and 429 with exponential backoff, then succeeds', async () => {
    server.on('GET /api/hyperfleet/v1/clusters/c1', [{ status: 503 }, { status: 429 }, { status: 200, body: { id: 'c1' } }]);
    const response = await client().request({ method: 'GET', url: '/clusters/c1' });
    expect(response.attempts).toBe(3);
    expect(delays).toEqual([100, 200]);
    expect(server.requests('GET')).toHaveLength(3);
  });

  it('gives up after retry_attempts total attempts with ApiHttpError carrying the last status', async () => {
    server.on('GET /api/hyperfleet/v1/clusters/c1', { status: 500, body: { detail: 'db down' } });
    const error = await client({ retryAttempts: 2 })
      .request({ method: 'GET', url: '/clusters/c1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect(error).toMatchObject({ status: 500, attempts: 2 });
    expect((error as Error).message).toContain('db down');
    expect(server.requests('GET')).toHaveLength(2);
  });

  it('does not retry a 400', async () => {
    server.on('POST /api/hyperfleet/v1/clusters', { status: 400, body: { code: 'HYPERFLEET-VAL-000', detail: 'bad' } });
    const error = await client()
      .request({ method: 'POST', url: '/clusters', body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect(server.requests('POST')).toHaveLength(1);
  });

  it('404 with a resource code is "resource not found"; 404 HYPERFLEET-NTF-000 is a route (config) error', async () => {
    server.on('GET /api/hyperfleet/v1/clusters/gone', {
      status: 404,
      body: { code: 'HYPERFLEET-NTF-001', detail: "Cluster with id='gone' not found" },
    });
    const notFound = await client()
      .request({ method: 'GET', url: '/clusters/gone' })
      .catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(ApiResourceNotFoundError);
    const noRoute = await client()
      .request({ method: 'GET', url: '/clusterz/c1' })
      .catch((e: unknown) => e);
    expect(noRoute).toBeInstanceOf(ApiRouteNotFoundError);
    expect(server.received).toHaveLength(2);
  });

  it('times out a slow answer and retries it as a transport error', async () => {
    server.on('GET /api/hyperfleet/v1/clusters/slow', { status: 200, body: {}, delayMs: 500 });
    const error = await client({ timeoutMs: 50, retryAttempts: 2 })
      .request({ method: 'GET', url: '/clusters/slow' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTransportError);
    expect((error as Error).message).toContain('timed out after 50 ms');
    expect((error as ApiTransportError).attempts).toBe(2);
  });

  it('reports a refused connection as ApiTransportError after retries', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const refused = new HttpHyperfleetApiClient(
      { baseUrl: `http://127.0.0.1:${port}`, retryAttempts: 2, baseDelayMs: 1 },
      { sleep: async () => undefined, ...(fetchFn && { fetch: fetchFn }) },
    );
    const error = await refused.request({ method: 'GET', url: '/clusters' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTransportError);
    expect(error).toMatchObject({ status: undefined, attempts: 2 });
    expect((error as Error).message).toMatch(/failed after 2 attempt\(s\): fetch failed$/);
  });
});
