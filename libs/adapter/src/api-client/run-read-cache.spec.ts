import { ApiResourceNotFoundError } from './api-errors.js';
import type { ApiRequest, ApiResponse, HyperfleetApiClient } from './hyperfleet-api.types.js';
import { RunReadCache } from './run-read-cache.js';

/** A minimal in-memory HyperFleet API (a real client implementation over a map, counting the requests it answers). */
class MapApi implements HyperfleetApiClient {
  readonly bodies = new Map<string, unknown>();
  readonly sent: string[] = [];
  resolveUrl(url: string): string {
    return url.startsWith('http') ? url : `http://api/api/hyperfleet/v1${url}`;
  }
  async request(request: ApiRequest): Promise<ApiResponse> {
    const url = this.resolveUrl(request.url);
    this.sent.push(`${request.method} ${request.url}`);
    if (request.method === 'GET') {
      if (!this.bodies.has(url)) throw new ApiResourceNotFoundError('GET', url, 404, undefined, 1, `GET ${url}: 404`);
      return { method: 'GET', url, status: 200, body: this.bodies.get(url), attempts: 1 };
    }
    this.bodies.set(url, request.body);
    return { method: request.method, url, status: 201, body: { stored: request.body }, attempts: 1 };
  }
}

describe('RunReadCache: one run reads a resource once until it writes', () => {
  let api: MapApi;
  let cache: RunReadCache;
  beforeEach(() => {
    api = new MapApi();
    api.bodies.set(api.resolveUrl('/clusters/c1'), { id: 'c1', generation: 2 });
    cache = new RunReadCache(api);
  });

  it('a second GET of the same URL (relative or absolute) is answered from the first', async () => {
    await cache.request({ method: 'GET', url: '/clusters/c1' });
    const again = await cache.request({ method: 'GET', url: api.resolveUrl('/clusters/c1'), headers: { 'x-decom-fence': '2.1' } });
    expect(again.body).toEqual({ id: 'c1', generation: 2 });
    expect(api.sent).toEqual(['GET /clusters/c1']);
    expect(cache.hits).toBe(1);
  });

  it('a failed GET (404) is not remembered', async () => {
    await expect(cache.request({ method: 'GET', url: '/clusters/gone' })).rejects.toBeInstanceOf(ApiResourceNotFoundError);
    await expect(cache.request({ method: 'GET', url: '/clusters/gone' })).rejects.toBeInstanceOf(ApiResourceNotFoundError);
    expect(api.sent).toHaveLength(2);
  });

  it('any write forgets every GET answer; its own 2xx answer is kept for lastWrite', async () => {
    await cache.request({ method: 'GET', url: '/clusters/c1' });
    await cache.request({ method: 'PUT', url: '/clusters/c1/statuses', body: { adapter: 'a' } });
    await cache.request({ method: 'GET', url: '/clusters/c1' });
    expect(api.sent).toEqual(['GET /clusters/c1', 'PUT /clusters/c1/statuses', 'GET /clusters/c1']);
    expect(cache.lastWrite('PUT', '/clusters/c1/statuses')).toMatchObject({ status: 201, body: { stored: { adapter: 'a' } } });
    expect(cache.lastWrite('PUT', '/clusters/c2/statuses')).toBeUndefined();
  });
});
