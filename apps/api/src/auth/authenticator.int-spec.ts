/**
 * The authentication hook on a real Fastify instance with a real `jwks_file` issuer (keys generated here):
 * identity_header honoured only with a valid token of an issuer that configures it, anonymous reads as an
 * opt-in, the key file re-read after rotation, and the paths that stay open.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtemp, rm, writeFile, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import type { JwtIssuerConfig, RateLimitConfig } from '@decom/config';
import { installRateLimit } from './rate-limit.js';
import { TestIssuer } from '../../../../test/support/test-issuer.js';
import { fastifyErrorHandler } from '../http-edge/framework-errors.js';
import { Authenticator } from './authenticator.js';
import { JwtVerifier } from './jwt-verifier.js';
import { installAuthentication, principalOf } from './request-authentication.js';
import { installPublicRoutes } from './public-routes.js';
import { TenantResolver } from './tenant-resolver.js';

describe('authentication hook with a jwks_file issuer', () => {
  let issuer: TestIssuer;
  let other: TestIssuer;
  let dir: string;
  let keysFile: string;

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    other = await TestIssuer.start();
    dir = await mkdtemp(join(tmpdir(), 'decom-authn-'));
    keysFile = join(dir, 'jwks.json');
    await writeFile(keysFile, JSON.stringify(issuer.jwks));
  });
  afterAll(async () => {
    await issuer.close();
    await other.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Real HTTP on 127.0.0.1:0 (Fastify's inject pulls an ESM-only dependency jest cannot load here). */
  const served = async (anonymousReads: boolean, rateLimit?: RateLimitConfig, maxTokenLifetimeSeconds?: number) => {
    const fastify = await app(anonymousReads, rateLimit, maxTokenLifetimeSeconds);
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    return {
      inject: async (o: { url: string; method?: string; headers?: Record<string, string> }) => {
        const response = await fetch(`${base}${o.url}`, { method: o.method ?? 'GET', headers: o.headers ?? {} });
        const text = await response.text();
        return { statusCode: response.status, json: () => JSON.parse(text) };
      },
      close: () => fastify.close(),
    };
  };

  const app = async (anonymousReads: boolean, rateLimit?: RateLimitConfig, maxTokenLifetimeSeconds?: number): Promise<FastifyInstance> => {
    const configs: JwtIssuerConfig[] = [
      {
        issuer_url: issuer.issuer,
        jwks_file: keysFile,
        audience: issuer.audience,
        identity_claim: 'email',
        identity_header: 'x-hyperfleet-identity',
      },
      {
        issuer_url: other.issuer,
        jwk_cert_url: other.jwksUrl,
        audience: other.audience,
        identity_claim: 'sub',
        identity_claim_pattern: /^sub-/,
      },
    ];
    const fastify = Fastify();
    fastify.setErrorHandler(fastifyErrorHandler);
    const limiter = rateLimit ? await installRateLimit(fastify, rateLimit) : undefined;
    // The app declares /healthz public through the one list (public-routes.ts); this bare app does the same.
    installPublicRoutes(fastify);
    const verifier = new JwtVerifier({
      configs,
      clockSkewSeconds: 30,
      ...(maxTokenLifetimeSeconds !== undefined && { maxTokenLifetimeSeconds }),
    });
    installAuthentication(fastify, new Authenticator({ verifier, anonymousReads }), limiter);
    fastify.get('/api/me', async (request) => principalOf(request));
    fastify.post('/api/me', async (request) => principalOf(request));
    fastify.get('/healthz', async () => ({ status: 'ok' }));
    return fastify;
  };

  it('honours identity_header only with a valid token of the issuer that configures it', async () => {
    const fastify = await served(false);
    const gateway = await issuer.token('gateway@example.com');
    const named = await fastify.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${gateway}`, 'x-hyperfleet-identity': 'alice@example.com' },
    });
    expect(named.json()).toEqual({
      identity: 'alice@example.com',
      issuer: issuer.issuer,
      subject: 'sub-gateway@example.com',
      tenant: null,
      expires_at: expect.any(Number),
    });
    // The other issuer declares no identity_header: the header is ignored, the `sub` claim names the caller.
    const sa = await other.token('robot');
    const ignored = await fastify.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${sa}`, 'x-hyperfleet-identity': 'alice@example.com' },
    });
    expect(ignored.json()).toMatchObject({ identity: 'sub-robot', issuer: other.issuer });
    // Without a token the header proves nothing.
    expect((await fastify.inject({ url: '/api/me', headers: { 'x-hyperfleet-identity': 'alice@example.com' } })).statusCode).toBe(401);
    expect((await fastify.inject({ url: '/healthz' })).statusCode).toBe(200);
    await fastify.close();
  });

  it('refuses a repeated Authorization or identity header (400 naming it) instead of joining or picking one', async () => {
    const fastify = await app(false);
    const base = new URL(await fastify.listen({ port: 0, host: '127.0.0.1' }));
    const gateway = await issuer.token('gateway@example.com');
    /** A raw request: fetch and node:http would fold repeated headers before sending. */
    const raw = (headers: readonly string[]) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(base.port), base.hostname);
        let answer = '';
        socket
          .on('data', (chunk) => (answer += chunk))
          .on('end', () => resolve(answer))
          .on('error', reject);
        socket.write(`GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`);
      });
    try {
      const identities = await raw([
        `Authorization: Bearer ${gateway}`,
        'X-HyperFleet-Identity: alice@example.com',
        'X-HyperFleet-Identity: admin@example.com',
      ]);
      expect(identities).toMatch(/^HTTP\/1\.1 400 /);
      expect(identities).toContain('x-hyperfleet-identity must be sent once, got 2 values');
      const tokens = await raw([`Authorization: Bearer ${gateway}`, `Authorization: Bearer ${await other.token('robot')}`]);
      expect(tokens).toMatch(/^HTTP\/1\.1 400 /);
      expect(tokens).toContain('authorization must be sent once, got 2 values');
      // Once each: accepted, the identity as sent.
      const once = await raw([`Authorization: Bearer ${gateway}`, 'X-HyperFleet-Identity: alice@example.com']);
      expect(once).toMatch(/^HTTP\/1\.1 200 /);
      expect(once).toContain('"identity":"alice@example.com"');
    } finally {
      await fastify.close();
    }
    // With JWT off the header is the identity: two of them were joined into "alice@example.com, admin@example.com".
    const open = Fastify();
    open.setErrorHandler(fastifyErrorHandler);
    installPublicRoutes(open);
    installAuthentication(open, new Authenticator({}));
    open.get('/api/me', async (request) => principalOf(request));
    const openBase = new URL(await open.listen({ port: 0, host: '127.0.0.1' }));
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(openBase.port), openBase.hostname);
        let text = '';
        socket
          .on('data', (chunk) => (text += chunk))
          .on('end', () => resolve(text))
          .on('error', reject);
        socket.write(
          'GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-HyperFleet-Identity: alice@example.com\r\nX-HyperFleet-Identity: admin@example.com\r\n\r\n',
        );
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('x-hyperfleet-identity must be sent once, got 2 values');
      // The same pair already joined by a proxy, in one header.
      const joined = await fetch(`${openBase.origin}/api/me`, {
        headers: { 'x-hyperfleet-identity': 'alice@example.com, admin@example.com' },
      });
      expect(joined.status).toBe(400);
      expect(await joined.text()).toContain('x-hyperfleet-identity must name one identity, got a comma-separated list');
    } finally {
      await open.close();
    }
    // Loopback only (JWT off on 127.0.0.1): two Host headers are refused; Node would read the first.
    const loopback = Fastify();
    loopback.setErrorHandler(fastifyErrorHandler);
    installPublicRoutes(loopback);
    installAuthentication(loopback, new Authenticator({ loopbackHostsOnly: true }));
    loopback.get('/api/me', async (request) => principalOf(request));
    const loopbackBase = new URL(await loopback.listen({ port: 0, host: '127.0.0.1' }));
    try {
      const twoHosts = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(loopbackBase.port), loopbackBase.hostname);
        let text = '';
        socket
          .on('data', (chunk) => (text += chunk))
          .on('end', () => resolve(text))
          .on('error', reject);
        socket.write('GET /api/me HTTP/1.1\r\nHost: localhost\r\nHost: evil.example.com\r\nConnection: close\r\n\r\n');
      });
      expect(twoHosts).toMatch(/^HTTP\/1\.1 400 /);
      expect(twoHosts).toContain('host must be sent once');
      expect((await fetch(`${loopbackBase.origin}/api/me`)).status).toBe(200);
    } finally {
      await loopback.close();
    }
  });

  it('anonymous_reads lets GET through as "anonymous", never a write', async () => {
    const fastify = await served(true);
    expect((await fastify.inject({ url: '/api/me' })).json()).toMatchObject({ identity: 'anonymous', issuer: null });
    const write = await fastify.inject({ method: 'POST', url: '/api/me' });
    expect(write.statusCode).toBe(401);
    expect(write.json()).toMatchObject({ code: 'HYPERFLEET-AUT-001' });
    await fastify.close();
  });

  it("reads a token from the issuer's configured header (HyperFleet's header), and only from it", async () => {
    const configs: JwtIssuerConfig[] = [
      {
        issuer_url: issuer.issuer,
        jwks_file: keysFile,
        audience: issuer.audience,
        identity_claim: 'email',
        header: 'x-forwarded-access-token',
      },
    ];
    const fastify = Fastify();
    fastify.setErrorHandler(fastifyErrorHandler);
    installAuthentication(
      fastify,
      new Authenticator({ verifier: new JwtVerifier({ configs, clockSkewSeconds: 30 }), anonymousReads: false }),
    );
    fastify.get('/api/me', async (request) => principalOf(request));
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    const get = async (headers: Record<string, string>) => {
      const response = await fetch(`${base}/api/me`, { headers });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const token = await issuer.token('h@example.com');
    expect(await get({ 'x-forwarded-access-token': token })).toMatchObject({ status: 200, body: { identity: 'h@example.com' } });
    expect(await get({ 'x-forwarded-access-token': `Bearer ${token}` })).toMatchObject({ status: 200 });
    // The same token in Authorization is not where this issuer's tokens come from.
    expect(await get({ authorization: `Bearer ${token}` })).toMatchObject({ status: 401, body: { code: 'HYPERFLEET-AUT-002' } });
    expect(await get({})).toMatchObject({ status: 401, body: { code: 'HYPERFLEET-AUT-001' } });
    await fastify.close();
  });

  it('re-reads the jwks_file after a rotation: new keys verify, old ones no longer do', async () => {
    const fastify = await served(false);
    const before = await issuer.token('a@example.com');
    expect((await fastify.inject({ url: '/api/me', headers: { authorization: `Bearer ${before}` } })).statusCode).toBe(200);
    await issuer.rotate();
    await writeFile(keysFile, JSON.stringify(issuer.jwks));
    const later = new Date(Date.now() + 5_000);
    await utimes(keysFile, later, later);
    // The file is checked at most once a second.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(
      (await fastify.inject({ url: '/api/me', headers: { authorization: `Bearer ${await issuer.token('a@example.com')}` } })).statusCode,
    ).toBe(200);
    const stale = await fastify.inject({ url: '/api/me', headers: { authorization: `Bearer ${before}` } });
    expect(stale.json()).toMatchObject({ status: 401, code: 'HYPERFLEET-AUT-002' });
    await fastify.close();
  });

  it('rate limit: per verified identity, 429 problem details past the limit', async () => {
    const fastify = await served(false, { enabled: true, max: 2, time_window_ms: 60_000 });
    const get = async (identity: string) =>
      fastify.inject({ url: '/api/me', headers: { authorization: `Bearer ${await issuer.token(identity)}` } });
    expect((await get('busy@example.com')).statusCode).toBe(200);
    expect((await get('busy@example.com')).statusCode).toBe(200);
    const limited = await get('busy@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'HYPERFLEET-LMT-001', status: 429 });
    expect((await get('calm@example.com')).statusCode).toBe(200);
    await fastify.close();
  });

  it('refuses a token whose lifetime exceeds max_token_lifetime_seconds (exp - iat, or exp - now without iat)', async () => {
    const get = async (fastify: Awaited<ReturnType<typeof served>>, token: string) =>
      fastify.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    // Default 24 h, on the issuer served over HTTP.
    const byDefault = await served(false);
    try {
      expect((await get(byDefault, await other.token('long', { expiresIn: 86_000 }))).statusCode).toBe(200);
      const forever = await get(byDefault, await other.token('forever', { expiresIn: 1e12 }));
      expect(forever.statusCode).toBe(401);
      expect(forever.json()).toMatchObject({
        code: 'HYPERFLEET-AUT-002',
        detail: 'the bearer token was refused: lifetime over 86400 s (max_token_lifetime_seconds)',
      });
    } finally {
      await byDefault.close();
    }
    const short = await served(false, undefined, 3_600);
    try {
      expect((await get(short, await other.token('hour', { expiresIn: 3_500 }))).statusCode).toBe(200);
      expect((await get(short, await other.token('day', { expiresIn: 7_200 }))).json()).toMatchObject({
        status: 401,
        detail: expect.stringContaining('max_token_lifetime_seconds'),
      });
      expect((await get(short, await other.token('no-iat', { expiresIn: 3_500, noIssuedAt: true }))).statusCode).toBe(200);
      expect((await get(short, await other.token('no-iat-long', { expiresIn: 7_200, noIssuedAt: true }))).statusCode).toBe(401);
      // An `iat` in the future would make exp - iat short while the token is usable from now until exp.
      const future = await get(short, await other.token('future-iat', { issuedAt: 300 * 86_400, expiresIn: 300 * 86_400 + 60 }));
      expect(future.json()).toMatchObject({ status: 401, detail: 'the bearer token was refused: issued in the future (iat)' });
      expect((await get(short, await other.token('skewed-iat', { issuedAt: 10, expiresIn: 600 }))).statusCode).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('refuses identities not in canonical form (whitespace around, an e-mail not lower-case) with 401 naming the rule', async () => {
    const fastify = await served(false);
    try {
      const me = async (token: string, headers: Record<string, string> = {}) =>
        fastify.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}`, ...headers } });
      for (const [identity, rule] of [
        [' admin@x.test', 'leading or trailing whitespace'],
        ['admin@x.test ', 'leading or trailing whitespace'],
        ['ADMIN@x.test', 'not lower-case'],
      ] as const) {
        const answer = await me(await issuer.token(identity));
        expect(answer.statusCode).toBe(401);
        expect(answer.json()).toMatchObject({ code: 'HYPERFLEET-AUT-002', detail: expect.stringContaining(rule) });
      }
      expect((await me(await issuer.token('admin@x.test'))).json()).toMatchObject({ identity: 'admin@x.test' });
      const viaHeader = await me(await issuer.token('gateway@x.test'), { 'x-hyperfleet-identity': 'Admin@X.test' });
      expect(viaHeader.statusCode).toBe(401);
      expect(viaHeader.json()).toMatchObject({ detail: expect.stringContaining('x-hyperfleet-identity is not in canonical form') });
    } finally {
      await fastify.close();
    }
  });

  it('lets identity_header name a system identity only for an issuer configured with system_identities', async () => {
    const configs: JwtIssuerConfig[] = [
      {
        issuer_url: issuer.issuer,
        jwks_file: keysFile,
        audience: issuer.audience,
        identity_claim: 'email',
        identity_header: 'x-hyperfleet-identity',
      },
      {
        issuer_url: other.issuer,
        jwk_cert_url: other.jwksUrl,
        audience: other.audience,
        identity_claim: 'sub',
        identity_header: 'x-hyperfleet-identity',
        system_identities: true,
      },
    ];
    const fastify = Fastify();
    fastify.setErrorHandler(fastifyErrorHandler);
    const bound = new Set(['adapter-np']);
    const isSystemIdentity = (identity: string) => identity.startsWith('system:') || bound.has(identity);
    installAuthentication(
      fastify,
      new Authenticator({ verifier: new JwtVerifier({ configs, clockSkewSeconds: 30 }), anonymousReads: false, isSystemIdentity }),
    );
    fastify.get('/api/me', async (request) => principalOf(request));
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const get = async (token: string, identity: string) => {
        const response = await fetch(`${base}/api/me`, {
          headers: { authorization: `Bearer ${token}`, 'x-hyperfleet-identity': identity },
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const gateway = await issuer.token('gateway@x.test');
      for (const system of ['system:serviceaccount:hf:validation', 'adapter-np']) {
        expect(await get(gateway, system)).toMatchObject({
          status: 403,
          body: { code: 'HYPERFLEET-AUZ-001', detail: expect.stringContaining('not configured with system_identities') },
        });
      }
      expect(await get(gateway, 'alice@x.test')).toMatchObject({ status: 200, body: { identity: 'alice@x.test' } });
      // The issuer served over HTTP is configured for them.
      expect(await get(await other.token('k8s'), 'system:serviceaccount:hf:validation')).toMatchObject({
        status: 200,
        body: { identity: 'system:serviceaccount:hf:validation', issuer: other.issuer },
      });
    } finally {
      await fastify.close();
    }
  });

  it("binds a tenant dimension to the token's claim: a disagreeing header is 403, no header takes the claim", async () => {
    const configs: JwtIssuerConfig[] = [
      { issuer_url: other.issuer, jwk_cert_url: other.jwksUrl, audience: other.audience, identity_claim: 'email' },
    ];
    const tenants = new TenantResolver(
      {
        enabled: true,
        system_header: 'x-hyperfleet-system',
        dimensions: [
          { header: 'x-tenant-org', key: 'org', required: true, claim: 'org' },
          { header: 'x-tenant-project', key: 'project', required: false },
        ],
      },
      () => false,
    );
    const fastify = Fastify();
    fastify.setErrorHandler(fastifyErrorHandler);
    installAuthentication(
      fastify,
      new Authenticator({ verifier: new JwtVerifier({ configs, clockSkewSeconds: 30 }), anonymousReads: false, tenants }),
    );
    fastify.get('/api/me', async (request) => principalOf(request));
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const get = async (token: string, headers: Record<string, string>) => {
        const response = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}`, ...headers } });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const op = await other.token('op@x.test', { claims: { org: 'acme' } });
      expect(await get(op, { 'x-tenant-org': 'globex' })).toMatchObject({
        status: 403,
        body: { code: 'HYPERFLEET-AUZ-001', detail: "tenant header x-tenant-org disagrees with the token's claim org" },
      });
      expect(await get(op, {})).toMatchObject({ status: 200, body: { tenant: { org: 'acme' } } });
      expect(await get(op, { 'x-tenant-org': 'acme', 'x-tenant-project': 'web' })).toMatchObject({
        status: 200,
        body: { tenant: { org: 'acme', project: 'web' } },
      });
      // A token without the claim leaves the header in charge, as without a claim configured.
      expect(await get(await other.token('plain@x.test'), { 'x-tenant-org': 'globex' })).toMatchObject({
        status: 200,
        body: { tenant: { org: 'globex' } },
      });
      expect(await get(await other.token('bad@x.test', { claims: { org: 'acme corp' } }), {})).toMatchObject({
        status: 403,
        body: { detail: expect.stringContaining('tenant claim org must be') },
      });
    } finally {
      await fastify.close();
    }
  });
});
