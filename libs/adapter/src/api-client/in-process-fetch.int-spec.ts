import Fastify, { type FastifyInstance } from 'fastify';
import { inProcessFetch } from './in-process-fetch.js';
import { undiciFetch } from './undici-fetch.js';

/**
 * `inProcessFetch` answers as the same server does over HTTP (`undiciFetch` on a real socket): status, body,
 * and what the handler sees (method, path and query, headers, body, peer address); other origins go over HTTP.
 */
describe('inProcessFetch, the hosted adapters’ fetch through the API pipeline without a socket', () => {
  let server: FastifyInstance;
  let origin: string;
  let other: FastifyInstance;
  let otherOrigin: string;
  const seen: {
    via: string;
    method: string;
    url: string;
    host: string | undefined;
    ip: string;
    authorization: string | undefined;
    body: unknown;
  }[] = [];
  const init = (method: string, body?: string, headers: Record<string, string> = {}) => ({
    method,
    headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body,
    signal: AbortSignal.timeout(2_000),
  });

  beforeAll(async () => {
    server = Fastify();
    server.all('/api/hyperfleet/v1/*', async (request, reply) => {
      seen.push({
        via: String(request.headers['x-via']),
        method: request.method,
        url: request.url,
        host: request.headers.host,
        ip: request.ip,
        authorization: request.headers.authorization,
        body: request.body,
      });
      if (request.url.includes('/missing')) return reply.code(404).send({ code: 'HYPERFLEET-NTF-001', detail: 'not found' });
      if (request.url.includes('/slow')) await new Promise((resolve) => setTimeout(resolve, 300));
      return reply.code(request.method === 'PUT' ? 201 : 200).send({ method: request.method, url: request.url, größe: 'ü' });
    });
    await server.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
    other = Fastify();
    other.get('/elsewhere', async () => ({ served: 'over HTTP' }));
    await other.listen({ port: 0, host: '127.0.0.1' });
    otherOrigin = `http://127.0.0.1:${(other.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await server.close();
    await other.close();
  });
  beforeEach(() => (seen.length = 0));

  const viaBoth = async (path: string, method: string, body?: string) => {
    const inProcess = inProcessFetch(origin, (request) => server.inject(request));
    const overHttp = await undiciFetch(`${origin}${path}`, init(method, body, { 'x-via': 'http', Authorization: 'Bearer t' }));
    const injected = await inProcess(`${origin}${path}`, init(method, body, { 'x-via': 'inject', Authorization: 'Bearer t' }));
    return {
      http: { ok: overHttp.ok, status: overHttp.status, text: await overHttp.text() },
      inject: { ok: injected.ok, status: injected.status, text: await injected.text() },
    };
  };

  it('answers with the same status and body as over HTTP, 2xx and not', async () => {
    for (const [path, method, body] of [
      ['/api/hyperfleet/v1/clusters/c1?search=x%3D1', 'GET', undefined],
      ['/api/hyperfleet/v1/clusters/c1/statuses', 'PUT', JSON.stringify({ adapter: 'a', observed_generation: 2 })],
      ['/api/hyperfleet/v1/clusters/missing', 'GET', undefined],
    ] as const) {
      const { http, inject } = await viaBoth(path, method, body);
      expect(inject).toEqual(http);
    }
  });

  it('the handler sees the same request: method, path and query, Host, peer, token and body', async () => {
    await viaBoth('/api/hyperfleet/v1/clusters/c1/statuses?x=1', 'PUT', JSON.stringify({ adapter: 'a' }));
    const [http, inject] = seen;
    expect(inject).toEqual({ ...http, via: 'inject' });
    expect(inject).toMatchObject({
      url: '/api/hyperfleet/v1/clusters/c1/statuses?x=1',
      host: new URL(origin).host,
      ip: '127.0.0.1',
      authorization: 'Bearer t',
      body: { adapter: 'a' },
    });
  });

  it('a request to another origin goes over HTTP, not into this server', async () => {
    const inProcess = inProcessFetch(origin, () => Promise.reject(new Error('must not be injected')));
    const answer = await inProcess(`${otherOrigin}/elsewhere`, init('GET'));
    expect({ status: answer.status, body: JSON.parse(await answer.text()) }).toEqual({ status: 200, body: { served: 'over HTTP' } });
  });

  it('the client’s timeout rejects with the signal’s TimeoutError, as fetch does', async () => {
    const inProcess = inProcessFetch(origin, (request) => server.inject(request));
    await expect(inProcess(`${origin}/api/hyperfleet/v1/slow`, { ...init('GET'), signal: AbortSignal.timeout(20) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });

  it('a failure inside the server rejects like a failed connection (TypeError fetch failed with the cause)', async () => {
    const broken = new Error('pipeline broke');
    const inProcess = inProcessFetch(origin, () => Promise.reject(broken));
    await expect(inProcess(`${origin}/api/hyperfleet/v1/clusters`, init('GET'))).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: broken,
    });
  });
});
