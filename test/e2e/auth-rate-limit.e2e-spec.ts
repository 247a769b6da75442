/**
 * The rate limit keyed by who is asking: a verified caller has its own bucket, counted after
 * authentication; only refused requests (no token, a bad token) count against the client address, so a
 * flood from an address starves neither the verified callers behind it nor the embedded adapters, which
 * call the API from this process (127.0.0.1). `server.trusted_proxies`: the client address is taken from
 * `X-Forwarded-For` only when the connection comes from a trusted proxy.
 */
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually } from '../../apps/cli/src/demo/api-client.js';
import { TestIssuer } from '../support/test-issuer.js';
import { writeServerConfig } from '../support/server-config.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const MAX = 20;
const PROXY = '127.0.0.5';

describe('rate limit per verified caller, per address only for refused requests', () => {
  let issuer: TestIssuer;
  let fixture: EngineFixture;
  let dir: string;

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    dir = await mkdtemp(join(tmpdir(), 'decom-rl-identity-'));
    const file = await writeServerConfig(join(dir, 'server.yaml'), issuer, {
      identityClaim: 'email',
      rateLimit: { enabled: true, max: MAX, time_window_ms: 60_000 },
      authorization: { admins: ['admin@example.com'] },
      trustedProxies: [PROXY],
    });
    fixture = await startTestEngine({ adaptersDir: resolve('config/adapters'), env: { DECOM_SERVER_CONFIG: file } });
  });
  afterAll(async () => {
    await fixture?.stop();
    await issuer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A request from a chosen loopback source address (127.0.0.0/8 all reach the 127.0.0.1 listener). */
  const call = (method: string, path: string, options: { from?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
    new Promise<{ status: number; body: any }>((resolvePromise, reject) => {
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      const request = httpRequest(
        `${fixture.engine.url}${path}`,
        {
          method,
          localAddress: options.from ?? '127.0.0.1',
          headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolvePromise({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  const bearer = async (identity: string) => ({ authorization: `Bearer ${await issuer.token(identity)}` });

  it(`${MAX} unauthenticated requests from 127.0.0.1 starve neither a verified caller nor the embedded adapters`, async () => {
    for (let i = 0; i < MAX; i++) expect((await call('GET', '/api/hyperfleet/v1/clusters')).status).toBe(401);
    expect((await call('GET', '/api/hyperfleet/v1/clusters')).status).toBe(429);
    // Bad tokens from that address are refused by address as well.
    expect((await call('GET', '/api/hyperfleet/v1/clusters', { headers: { authorization: 'Bearer not.a.jwt' } })).status).toBe(429);
    // A verified caller from the same address has its own bucket.
    const admin = await bearer('admin@example.com');
    expect((await call('GET', '/api/decom/v1/whoami', { headers: admin })).status).toBe(200);
    // The embedded adapters (this process, 127.0.0.1) still reconcile and finish a deletion.
    const created = await call('POST', '/api/hyperfleet/v1/clusters', {
      headers: admin,
      body: { kind: 'Cluster', name: 'rl-embedded', spec: {} },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await call('DELETE', `/api/hyperfleet/v1/clusters/${id}`, { headers: admin })).status).toBe(202);
    await eventually(
      'the embedded adapters finish the deletion (cluster gone)',
      async () => {
        const answer = await call('GET', `/api/hyperfleet/v1/clusters/${id}`, { headers: await bearer('reader@example.com') });
        return answer.status === 404 ? true : undefined;
      },
      30_000,
      200,
    );
    // The address is still over its limit for unauthenticated callers.
    expect((await call('GET', '/api/hyperfleet/v1/clusters')).status).toBe(429);
  });

  it('a verified caller over its own limit is 429 while another identity from the same address is not', async () => {
    const carol = await bearer('carol@example.com');
    for (let i = 0; i < MAX; i++)
      expect((await call('GET', '/api/decom/v1/whoami', { from: '127.0.0.9', headers: carol })).status).toBe(200);
    expect((await call('GET', '/api/decom/v1/whoami', { from: '127.0.0.9', headers: carol })).status).toBe(429);
    expect((await call('GET', '/api/decom/v1/whoami', { from: '127.0.0.9', headers: await bearer('dave@example.com') })).status).toBe(200);
  });

  it('X-Forwarded-For names the client only through a trusted proxy', async () => {
    const via = (proxy: string, client: string) =>
      call('GET', '/api/hyperfleet/v1/clusters', { from: proxy, headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < MAX; i++) expect((await via(PROXY, '203.0.113.7')).status).toBe(401);
    expect((await via(PROXY, '203.0.113.7')).status).toBe(429);
    // Another client behind the same proxy has its own address bucket.
    expect((await via(PROXY, '203.0.113.8')).status).toBe(401);
    // From an untrusted peer the header is ignored: a new made-up client each time does not escape the limit.
    for (let i = 0; i < MAX; i++) expect((await via('127.0.0.6', `198.51.100.${i}`)).status).toBe(401);
    expect((await via('127.0.0.6', '198.51.100.200')).status).toBe(429);
  });
});
