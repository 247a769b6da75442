/**
 * `remoteKeySet` against a real JWKS endpoint (TestIssuer, HTTP on 127.0.0.1): rotation, the refetch
 * cooldown and the cache age on a clock the test advances, one fetch for concurrent callers, jose's error
 * classes, and a wall-clock step back, which must not stretch the cooldown (with jose's remote set it did:
 * one of the two ways the auth.e2e rotation test got 401 for a rotated key); and HyperFleet's
 * `jwk_cert_ca_file` over HTTPS (a private CA, certificates made with openssl).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { TestIssuer } from '../../../../test/support/test-issuer.js';
import { MAX_JWKS_BYTES, remoteKeySet } from './remote-key-set.js';

/** Runs `use` with `server` listening on 127.0.0.1 (its `/jwks.json` URL), then closes it. */
async function withJwksServer(server: Server, use: (jwksUrl: URL) => Promise<void>): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await use(new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/jwks.json`));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('remoteKeySet (JWKS over HTTP, monotonic durations)', () => {
  let issuer: TestIssuer;
  beforeEach(async () => {
    issuer = await TestIssuer.start();
  });
  afterEach(async () => {
    jest.useRealTimers();
    await issuer.close();
  });

  /** A monotonic clock that moves only when the test says so. */
  const manualClock = () => {
    let ms = 0;
    return { now: () => ms, advance: (by: number) => void (ms += by) };
  };
  /** A key set that fetched once, a cooldown ago, from an endpoint that now answers 500. */
  const failingAfterFirstFetch = async () => {
    const clock = manualClock();
    const keys = remoteKeySet(url(), { cooldownMs: 1_000, cacheMaxAgeMs: 600_000, timeoutMs: 5_000, monotonicNowMs: clock.now });
    const token = await issuer.token('a@example.com');
    await verify(token, keys);
    issuer.failing = true;
    clock.advance(1_000);
    return { clock, keys, token };
  };
  const verify = (token: string, keys: JWTVerifyGetKey) => jwtVerify(token, keys, { issuer: issuer.issuer, audience: issuer.audience });
  const url = () => new URL(issuer.jwksUrl);

  it('probe: fetches when nothing is cached, answers from fresh cached keys without a fetch, and never fetches a failing endpoint within the cooldown', async () => {
    const clock = manualClock();
    const keys = remoteKeySet(url(), { cooldownMs: 1_000, cacheMaxAgeMs: 10_000, timeoutMs: 5_000, monotonicNowMs: clock.now });
    expect(await keys.probe()).toEqual({ isCached: false, ageMs: 0 });
    expect(issuer.fetches).toBe(1);
    clock.advance(5_000);
    expect(await keys.probe()).toEqual({ isCached: true, ageMs: 5_000 });
    expect(issuer.fetches).toBe(1);
    // The cache aged out and the endpoint fails: down, then the same error without asking again until the cooldown passed.
    issuer.failing = true;
    clock.advance(5_000);
    await expect(keys.probe()).rejects.toThrow('Expected 200 OK from the JSON Web Key Set HTTP response');
    await expect(keys.probe()).rejects.toThrow('Expected 200 OK');
    expect(issuer.fetches).toBe(2);
    issuer.failing = false;
    clock.advance(1_000);
    expect(await keys.probe()).toEqual({ isCached: false, ageMs: 0 });
    expect(issuer.fetches).toBe(3);
    // The resolver uses what the probe fetched.
    await verify(await issuer.token('a@example.com'), keys);
    expect(issuer.fetches).toBe(3);
  });

  it('a wall-clock step back does not stretch the cooldown: a rotated kid is fetched once a cooldown has really passed', async () => {
    // jose's createRemoteJWKSet compares Date.now() with the last fetch: after the clock stepped back by more
    // than the real time since that fetch it still saw itself cooling down and refused the new kid (401).
    const keys = remoteKeySet(url(), { cooldownMs: 1_000, cacheMaxAgeMs: 600_000, timeoutMs: 5_000 });
    await verify(await issuer.token('a@example.com'), keys);
    await new Promise((r) => setTimeout(r, 1_100));
    // Only Date is faked: the wall clock steps back one minute, as an NTP step on a fresh CI VM does.
    jest.useFakeTimers({
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
    jest.setSystemTime(Date.now() - 60_000);
    await issuer.rotate();
    const { payload } = await verify(await issuer.token('b@example.com'), keys);
    expect(payload['email']).toBe('b@example.com');
    expect(issuer.fetches).toBe(2);
  });

  it('unknown kids refetch at most once per cooldown; a rotated kid is accepted after the cooldown', async () => {
    const clock = manualClock();
    const keys = remoteKeySet(url(), { cooldownMs: 1_000, cacheMaxAgeMs: 600_000, timeoutMs: 5_000, monotonicNowMs: clock.now });
    await verify(await issuer.token('a@example.com'), keys);
    expect(issuer.fetches).toBe(1);
    // Within the cooldown of that fetch: refused without a fetch, however many arrive.
    for (let i = 0; i < 3; i++)
      await expect(verify(await issuer.tokenWithUnknownKid('m@example.com'), keys)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
    expect(issuer.fetches).toBe(1);
    clock.advance(1_000);
    for (let i = 0; i < 5; i++)
      await expect(verify(await issuer.tokenWithUnknownKid('m@example.com'), keys)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
    expect(issuer.fetches).toBe(2);
    // A rotation 999 ms after that fetch is not seen yet; at 1 000 ms it is.
    await issuer.rotate();
    clock.advance(999);
    await expect(verify(await issuer.token('b@example.com'), keys)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
    clock.advance(1);
    await expect(verify(await issuer.token('b@example.com'), keys)).resolves.toBeDefined();
    expect(issuer.fetches).toBe(3);
  });

  it('refetches a set older than cacheMaxAgeMs before use, and shares one fetch among concurrent callers', async () => {
    const clock = manualClock();
    const keys = remoteKeySet(url(), { cooldownMs: 1_000, cacheMaxAgeMs: 60_000, timeoutMs: 5_000, monotonicNowMs: clock.now });
    const token = await issuer.token('a@example.com');
    await Promise.all(Array.from({ length: 5 }, () => verify(token, keys)));
    expect(issuer.fetches).toBe(1);
    clock.advance(59_999);
    await verify(token, keys);
    expect(issuer.fetches).toBe(1);
    clock.advance(1);
    await verify(token, keys);
    expect(issuer.fetches).toBe(2);
  });

  it("raises jose's error classes: a non-200 answer, a timeout; the cached keys survive a failed refetch", async () => {
    const { clock, keys, token } = await failingAfterFirstFetch();
    const refused = await verify(await issuer.tokenWithUnknownKid('m@example.com'), keys).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(errors.JOSEError);
    expect((refused as Error).constructor).toBe(errors.JOSEError);
    expect((refused as Error).message).toBe('Expected 200 OK from the JSON Web Key Set HTTP response');
    await expect(verify(token, keys)).resolves.toBeDefined();

    await withJwksServer(
      createServer(() => undefined),
      async (jwksUrl) => {
        const hanging = remoteKeySet(jwksUrl, { cooldownMs: 1_000, cacheMaxAgeMs: 600_000, timeoutMs: 200 });
        await expect(verify(token, hanging)).rejects.toBeInstanceOf(errors.JWKSTimeout);
      },
    );
  });

  it('a failing endpoint is asked at most once per cooldown, however many forged kids or key-less requests arrive (reviewer M2)', async () => {
    const { clock, keys, token } = await failingAfterFirstFetch();
    for (let i = 0; i < 20; i++)
      await expect(verify(await issuer.tokenWithUnknownKid(`m${i}@example.com`), keys)).rejects.toBeInstanceOf(errors.JOSEError);
    expect(issuer.fetches).toBe(2);
    // The cached keys still serve known kids meanwhile.
    await expect(verify(token, keys)).resolves.toBeDefined();
    clock.advance(1_000);
    await expect(verify(await issuer.tokenWithUnknownKid('n@example.com'), keys)).rejects.toBeInstanceOf(errors.JOSEError);
    expect(issuer.fetches).toBe(3);

    // No keys at all (the endpoint down from the start): one fetch per cooldown, its error answers the rest.
    const fresh = remoteKeySet(url(), { cooldownMs: 1_000, cacheMaxAgeMs: 600_000, timeoutMs: 5_000, monotonicNowMs: clock.now });
    const before = issuer.fetches;
    for (let i = 0; i < 10; i++)
      await expect(verify(token, fresh)).rejects.toThrow('Expected 200 OK from the JSON Web Key Set HTTP response');
    expect(issuer.fetches).toBe(before + 1);
    issuer.failing = false;
    clock.advance(1_000);
    await expect(verify(token, fresh)).resolves.toBeDefined();
  });

  it('refuses a key set body larger than MAX_JWKS_BYTES without buffering it (reviewer L1)', async () => {
    let sent = 0;
    const huge: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await withJwksServer(huge, async (jwksUrl) => {
      const keys = remoteKeySet(jwksUrl, { cooldownMs: 1_000, cacheMaxAgeMs: 600_000, timeoutMs: 5_000 });
      await expect(verify(await issuer.token('a@example.com'), keys)).rejects.toThrow(`larger than ${MAX_JWKS_BYTES} bytes`);
      // The reader stopped early: far less than the 64 MiB offered was sent.
      expect(sent).toBeLessThan(16 * 1024 * 1024);
    });
  });
});

/** A private CA and a certificate for 127.0.0.1 it signed (openssl), in a temporary folder; `other` is an unrelated CA. */
function privateCertificates(): { dir: string; caFile: string; otherCaFile: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'decom-jwks-tls-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ca = (name: string) =>
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
  ca('decom-test-ca');
  ca('decom-other-ca');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'decom-test-ca.pem',
    '-CAkey',
    'decom-test-ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '1',
    '-extfile',
    'server.ext',
  );
  return {
    dir,
    caFile: join(dir, 'decom-test-ca.pem'),
    otherCaFile: join(dir, 'decom-other-ca.pem'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
  };
}

describe("remoteKeySet over HTTPS with HyperFleet's jwk_cert_ca_file", () => {
  let issuer: TestIssuer;
  let certs: ReturnType<typeof privateCertificates>;
  beforeAll(() => {
    certs = privateCertificates();
  });
  afterAll(() => rmSync(certs.dir, { recursive: true, force: true }));
  beforeEach(async () => {
    issuer = await TestIssuer.start();
  });
  afterEach(async () => issuer.close());

  /** Runs `use` with the issuer's key set served over HTTPS by a certificate of the private CA. */
  async function withHttpsJwks(use: (jwksUrl: URL) => Promise<void>): Promise<void> {
    const server = createHttpsServer({ key: certs.key, cert: certs.cert }, (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(issuer.jwks)),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await use(new URL(`https://127.0.0.1:${(server.address() as { port: number }).port}/jwks.json`));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }
  const options = { cooldownMs: 0, cacheMaxAgeMs: 600_000, timeoutMs: 5_000 };
  const verify = (token: string, keys: JWTVerifyGetKey) => jwtVerify(token, keys, { issuer: issuer.issuer, audience: issuer.audience });

  it('trusts the endpoint signed by the CA bundle; without it, or with another CA, the TLS handshake refuses it', async () => {
    await withHttpsJwks(async (jwksUrl) => {
      const token = await issuer.token('a@example.com');
      const { payload } = await verify(token, remoteKeySet(jwksUrl, { ...options, caFile: certs.caFile }));
      expect(payload.iss).toBe(issuer.issuer);
      const refused = async (keys: JWTVerifyGetKey) => {
        const error = (await verify(token, keys).then(
          () => undefined,
          (e: unknown) => e,
        )) as Error & { cause?: { code?: string } };
        return `${error?.message} ${error?.cause?.code ?? ''}`;
      };
      expect(await refused(remoteKeySet(jwksUrl, options))).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|certificate/i);
      expect(await refused(remoteKeySet(jwksUrl, { ...options, caFile: certs.otherCaFile }))).toMatch(
        /SELF_SIGNED|UNABLE_TO_VERIFY|certificate/i,
      );
    });
  });
});
