import { createServer, type Server } from 'node:http';
import { undiciFetch } from './undici-fetch.js';

/**
 * `undiciFetch` answers like the global `fetch` for what the API client uses (status, body
 * text, redirects, timeouts, refused connections), against a real `node:http` server.
 */
describe('undiciFetch, the API client’s fetch on undici.request', () => {
  let server: Server;
  let base: string;
  const seen: { method: string; url: string; body: string; headers: Record<string, unknown> }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        if (req.url === '/moved') return void res.writeHead(302, { location: '/target' }).end();
        if (req.url === '/see-other') return void res.writeHead(303, { location: `${base}/target` }).end();
        if (req.url === '/slow') return void setTimeout(() => res.end('late'), 500);
        res
          .writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ method: req.method, url: req.url, größe: 'ü' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (seen.length = 0));

  const both = async (
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal } = {},
  ) => {
    const ours = await undiciFetch(url, init);
    const theirs = await fetch(url, init);
    return {
      ours: { ok: ours.ok, status: ours.status, text: await ours.text() },
      theirs: { ok: theirs.ok, status: theirs.status, text: await theirs.text() },
    };
  };

  it('status, ok and the UTF-8 body text, 2xx and not', async () => {
    for (const path of ['/found', '/missing']) {
      const { ours, theirs } = await both(`${base}${path}`);
      expect(ours).toEqual(theirs);
    }
  });

  it('sends method, headers and a string body (with its length)', async () => {
    const response = await undiciFetch(`${base}/statuses`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-decom-fence': '2.7' },
      body: '{"a":"ü"}',
    });
    expect(response.status).toBe(200);
    expect(seen[0]).toMatchObject({
      method: 'PUT',
      url: '/statuses',
      body: '{"a":"ü"}',
      headers: { 'x-decom-fence': '2.7', 'content-length': '10' },
    });
  });

  it('follows redirects like fetch: 302 keeps a GET, 303 turns a PUT into a GET without body', async () => {
    expect((await both(`${base}/moved`)).ours).toEqual((await both(`${base}/moved`)).theirs);
    seen.length = 0;
    const response = await undiciFetch(`${base}/see-other`, { method: 'PUT', body: 'x' });
    expect(JSON.parse(await response.text())).toMatchObject({ method: 'GET', url: '/target' });
    expect(seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual(['PUT /see-other x', 'GET /target ']);
  });

  it('a timeout signal rejects with its TimeoutError, as fetch does', async () => {
    const ours = await undiciFetch(`${base}/slow`, { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e);
    const theirs = await fetch(`${base}/slow`, { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e);
    expect((ours as Error).name).toBe('TimeoutError');
    expect((ours as Error).name).toBe((theirs as Error).name);
  });

  it('a refused connection rejects with TypeError("fetch failed") carrying the socket error', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const free = (probe.address() as { port: number }).port;
        probe.close(() => resolve(free));
      });
    });
    const error = await undiciFetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: 'fetch failed', cause: expect.objectContaining({ code: 'ECONNREFUSED' }) });
  });
});
