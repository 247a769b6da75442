/**
 * Safe defaults and the open development mode, and the caller's identity with auth off:
 * loopback bind by default, a non-loopback bind refused without authentication unless DECOM_AUTH=disabled,
 * header identities bounded and validated, whoami with auth off, and the per-caller rate limit (429).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { loadAppConfig } from '@decom/config';
import { writeServerConfig } from '../support/server-config.js';
import { TestIssuer } from '../support/test-issuer.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const asHostOf = (url: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      `${url}/api/hyperfleet/v1/clusters`,
      { headers: { host } },
      (res) => (res.resume(), resolve(res.statusCode ?? 0)),
    );
    req.on('error', reject).end();
  });

describe('safe defaults without authentication', () => {
  it('binds 127.0.0.1 by default', () => {
    expect(loadAppConfig({}, '/tmp').host).toBe('127.0.0.1');
  });

  it('refuses to serve a non-loopback address without authentication, unless DECOM_AUTH=disabled', async () => {
    await expect(startTestEngine({ env: { HOST: '0.0.0.0' } })).rejects.toThrow(
      /HOST: refusing to serve 0\.0\.0\.0 without authentication/,
    );
    const open = await startTestEngine({ env: { HOST: '0.0.0.0', DECOM_AUTH: 'disabled' } });
    try {
      expect((await fetch(`${open.engine.url}/healthz`)).status).toBe(200);
    } finally {
      await open.stop();
    }
  });

  it('serves only loopback host names without authentication (a rebound DNS name is refused), unless DECOM_AUTH=disabled', async () => {
    const engine = await startTestEngine();
    const asHost = (url: string, host: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${url}${path}`,
          { headers: { host, 'x-hyperfleet-identity': 'operator@example.com' } },
          (res) => (res.resume(), resolve(res.statusCode ?? 0)),
        );
        req.on('error', reject).end();
      });
    try {
      const port = new URL(engine.engine.url).port;
      expect(await asHost(engine.engine.url, `attacker.example:${port}`, '/api/hyperfleet/v1/clusters')).toBe(403);
      expect(await asHost(engine.engine.url, `127.0.0.1.attacker.example:${port}`, '/api/hyperfleet/v1/clusters')).toBe(403);
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`])
        expect(await asHost(engine.engine.url, host, '/api/hyperfleet/v1/clusters')).toBe(200);
      // Health stays public whatever the name (probes may use any).
      expect(await asHost(engine.engine.url, 'probe.internal', '/healthz')).toBe(200);
    } finally {
      await engine.stop();
    }
    const open = await startTestEngine({ env: { HOST: '0.0.0.0', DECOM_AUTH: 'disabled' } });
    try {
      expect(await asHostOf(open.engine.url, 'decom.example')).toBe(200);
    } finally {
      await open.stop();
    }
  });

  it('refuses a bad server config with file:line:column field: message', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'decom-cfg-'));
    const file = join(dir, 'server.yaml');
    await writeFile(
      file,
      'server:\n  jwt:\n    enabled: yes-please\n    configs:\n      - issuer_url: https://idp\n        audience: decom\nauthorization:\n  admin: [a]\n',
    );
    try {
      const error = await startTestEngine({ env: { DECOM_SERVER_CONFIG: file } }).catch((e: Error) => e);
      expect(String(error)).toContain(`${file}:3:14 server.jwt.enabled: must be true or false, got "yes-please"`);
      expect(String(error)).toContain(
        `${file}:5:9 server.jwt.configs[0].jwk_cert_url: set exactly one of jwk_cert_url and jwk_cert_file (jwks_file)`,
      );
      expect(String(error)).toContain(`${file}:8:3 authorization.admin: unknown field`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('open development mode (no server config, no DECOM_ADMINS)', () => {
  let fixture: EngineFixture;
  beforeAll(async () => {
    fixture = await startTestEngine();
  });
  afterAll(async () => fixture?.stop());

  const whoami = async (headers: Record<string, string> = {}) => {
    const response = await fetch(`${fixture.engine.url}/api/decom/v1/whoami`, { headers });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('whoami: everything allowed, identity from the header or system@hyperfleet.local; a bearer token is ignored', async () => {
    const all = {
      create: true,
      delete: true,
      pause: true,
      unpause: true,
      force_delete: true,
      force_orphan: true,
      abandon_adapter: true,
      clear_deletion_protection: true,
      override_deletion_budget: true,
    };
    expect((await whoami()).body).toEqual({
      identity: 'system@hyperfleet.local',
      issuer: null,
      roles: ['admin', 'operator', 'reader'],
      tenant: null,
      can: all,
    });
    expect((await whoami({ 'x-hyperfleet-identity': 'you@example.com', authorization: 'Bearer whatever' })).body).toMatchObject({
      identity: 'you@example.com',
      can: all,
    });
  });

  it('identities are bounded and validated, never stored altered (5,000 characters, non-ASCII)', async () => {
    const long = await whoami({ 'x-hyperfleet-identity': 'a'.repeat(5000) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'HYPERFLEET-VAL-000', errors: [{ field: 'x-hyperfleet-identity', constraint: 'max_length' }] });
    expect(JSON.stringify(long.body).length).toBeLessThan(1000);
    const create = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hyperfleet-identity': Buffer.from('jürgen@example.com', 'utf8').toString('latin1'),
      },
      body: JSON.stringify({ kind: 'Cluster', name: 'utf8-caller', spec: {} }),
    });
    expect(create.status).toBe(400);
    expect(((await create.json()) as any).errors[0]).toMatchObject({ field: 'x-hyperfleet-identity', constraint: 'pattern' });
    expect((await fixture.engine.queries.list({ kind: 'Cluster', page: 1, size: 100, order: [] })).items.map((c) => c.name)).not.toContain(
      'utf8-caller',
    );
  });
});

describe('per-caller rate limit', () => {
  let fixture: EngineFixture;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'decom-rl-'));
    await writeFile(join(dir, 'server.yaml'), 'server:\n  rate_limit:\n    enabled: true\n    max: 3\n    time_window_ms: 60000\n');
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: join(dir, 'server.yaml') } });
  });
  afterAll(async () => {
    await fixture?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 429 problem details past the limit; unverified callers are limited per address, health never', async () => {
    const get = (identity: string) =>
      fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`, { headers: { 'x-hyperfleet-identity': identity } });
    for (let i = 0; i < 3; i++) expect((await get('busy@example.com')).status).toBe(200);
    const limited = await get('busy@example.com');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toContain('application/problem+json');
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect(await limited.json()).toMatchObject({
      status: 429,
      code: 'HYPERFLEET-LMT-001',
      type: 'https://api.hyperfleet.io/errors/rate-limit',
    });
    // With JWT off an identity header proves nothing: another claimed name from the same address is limited too.
    expect((await get('other@example.com')).status).toBe(429);
    for (let i = 0; i < 5; i++) expect((await fetch(`${fixture.engine.url}/healthz`)).status).toBe(200);
  });
});

describe('rate limit with authentication on: refused requests count per client address', () => {
  let issuer: TestIssuer;
  let fixture: EngineFixture;
  let dir: string;
  beforeAll(async () => {
    issuer = await TestIssuer.start();
    dir = await mkdtemp(join(tmpdir(), 'decom-rl-jwt-'));
    await writeServerConfig(join(dir, 'server.yaml'), issuer, {
      identityClaim: 'email',
      rateLimit: { enabled: true, max: 4, time_window_ms: 60000 },
    });
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: join(dir, 'server.yaml') } });
  });
  afterAll(async () => {
    await fixture?.stop();
    await issuer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** GET whoami from a chosen loopback source address (127.0.0.0/8 all reach the 127.0.0.1 listener). */
  const from = (address: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; retryAfter: string | undefined; body: any }>((resolvePromise, reject) => {
      const request = httpRequest(`${fixture.engine.url}/api/decom/v1/whoami`, { localAddress: address, headers }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () =>
          resolvePromise({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'] as string | undefined,
            body: JSON.parse(text),
          }),
        );
      });
      request.on('error', reject);
      request.end();
    });

  const expectLimited = (answer: { status: number; retryAfter: string | undefined; body: any }) => {
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ status: 429, code: 'HYPERFLEET-LMT-001' });
    // The configured window, then the wait, which is what Retry-After says.
    const wait = /^at most 4 requests per 60 seconds; retry after (\d+) s$/.exec(answer.body.detail);
    expect(wait).not.toBeNull();
    expect(answer.retryAfter).toBe(wait![1]);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
  };

  it('no token: 401 up to the limit, then 429 for that address', async () => {
    for (let i = 0; i < 4; i++) expect((await from('127.0.0.2')).status).toBe(401);
    expectLimited(await from('127.0.0.2'));
    expectLimited(await from('127.0.0.2'));
  });

  it('bad tokens: 401 up to the limit, then 429 for that address; a good token from it keeps its own bucket', async () => {
    for (let i = 0; i < 4; i++) expect((await from('127.0.0.3', { authorization: `Bearer garbage${i}` })).status).toBe(401);
    expectLimited(await from('127.0.0.3', { authorization: 'Bearer garbage-more' }));
    expect((await from('127.0.0.3', { authorization: `Bearer ${await issuer.token('erin@example.com')}` })).status).toBe(200);
  });

  it('verified callers keep their own bucket per identity, apart from the address', async () => {
    const alice = await issuer.token('alice@example.com');
    for (let i = 0; i < 4; i++) expect((await from('127.0.0.4', { authorization: `Bearer ${alice}` })).status).toBe(200);
    expectLimited(await from('127.0.0.4', { authorization: `Bearer ${alice}` }));
    expect((await from('127.0.0.4', { authorization: `Bearer ${await issuer.token('bob@example.com')}` })).status).toBe(200);
  });
});
