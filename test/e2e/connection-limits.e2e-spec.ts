/**
 * docs/security.md "Connections and streams": open event streams are capped per verified caller and per
 * process (`server.streams`), a refused stream is a 429 problem that leaves the caller's other streams
 * alone, a closed stream gives its slot back, and a socket that never finishes its request headers is
 * closed by the server (Node's `headersTimeout`) instead of being held open.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeServerConfig } from '../support/server-config.js';
import { TestIssuer } from '../support/test-issuer.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

interface StreamAnswer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: any;
  /** Ends the stream from the client side (open streams only). */
  close(): void;
}

describe('connection and stream limits', () => {
  let issuer: TestIssuer;
  let fixture: EngineFixture;
  let dir: string;
  const open: ClientRequest[] = [];

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    dir = await mkdtemp(join(tmpdir(), 'decom-limits-'));
    await writeServerConfig(join(dir, 'server.yaml'), issuer, { identityClaim: 'email', streams: { max_per_caller: 2, max_total: 3 } });
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: join(dir, 'server.yaml') } });
  });
  afterAll(async () => {
    for (const request of open) request.destroy();
    await fixture?.stop();
    await issuer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Opens `GET /api/decom/v1/events/stream` as `identity`; resolves on the response head (and body, when refused). */
  const stream = async (identity: string): Promise<StreamAnswer> => {
    const token = await issuer.token(identity);
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        `${fixture.engine.url}/api/decom/v1/events/stream`,
        { headers: { authorization: `Bearer ${token}` } },
        (response) => {
          const close = () => request.destroy();
          if (response.statusCode === 200) {
            open.push(request);
            resolve({ status: 200, retryAfter: undefined, body: undefined, close });
            return;
          }
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              retryAfter: response.headers['retry-after'] as string | undefined,
              body: JSON.parse(text),
              close,
            }),
          );
        },
      );
      request.on('error', reject);
      request.end();
    });
  };

  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 50; i++) {
      if (await check()) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };

  it('refuses a caller its third stream and the process its fourth; a closed stream frees its slot', async () => {
    const alice1 = await stream('alice@example.com');
    const alice2 = await stream('alice@example.com');
    expect([alice1.status, alice2.status]).toEqual([200, 200]);

    const alice3 = await stream('alice@example.com');
    expect(alice3.status).toBe(429);
    expect(alice3.body).toMatchObject({
      status: 429,
      code: 'HYPERFLEET-LMT-001',
      detail: 'at most 2 open event streams per caller; close one or retry later',
    });
    expect(Number(alice3.retryAfter)).toBeGreaterThan(0);

    // Another caller still gets one: the per-caller cap is alice's alone.
    const bob = await stream('bob@example.com');
    expect(bob.status).toBe(200);
    const carol = await stream('carol@example.com');
    expect(carol.status).toBe(429);
    expect(carol.body.detail).toBe('this server holds its maximum of 3 open event streams; retry later');

    alice1.close();
    expect(await eventually(async () => (await stream('carol@example.com')).status === 200)).toBe(true);
    // The refused attempts took nothing: with bob gone alice (one stream left) may open her second.
    bob.close();
    expect(await eventually(async () => (await stream('alice@example.com')).status === 200)).toBe(true);
    expect((await stream('alice@example.com')).status).toBe(429);
  });

  it('HEAD on the stream answers its headers at once and holds no slot; a stream ends when its token expires', async () => {
    // The streams of the test before are closed first (their slots come back once the server sees the close).
    for (const request of open.splice(0)) request.destroy();
    const token = await issuer.token('dave@example.com');
    let first = await stream('dave@example.com');
    for (let i = 0; i < 50 && first.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      first = await stream('dave@example.com');
    }
    const held = [first, await stream('dave@example.com')];
    expect(held.map((h) => h.status)).toEqual([200, 200]);
    const head = await fetch(`${fixture.engine.url}/api/decom/v1/events/stream`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(3_000),
    });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    for (const h of held) h.close();

    // A token valid 2 more seconds: the stream it opened is ended by the server once it expires.
    const short = await issuer.token('erin@example.com', { expiresIn: 2 });
    const ended = await new Promise<number>((resolve, reject) => {
      const opened = Date.now();
      const request = httpRequest(
        `${fixture.engine.url}/api/decom/v1/events/stream`,
        { headers: { authorization: `Bearer ${short}` } },
        (response) => {
          expect(response.statusCode).toBe(200);
          response.resume();
          response.on('end', () => resolve(Date.now() - opened));
        },
      );
      request.on('error', reject);
      request.setTimeout(15_000, () => request.destroy(new Error('the stream outlived its token by 13 s')));
      request.end();
    });
    expect(ended).toBeLessThan(5_000);
  }, 30_000);

  it('security headers are on refusals too (401 without a token)', async () => {
    const refused = await fetch(`${fixture.engine.url}/api/decom/v1/whoami`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-frame-options')).toBe('DENY');
    expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('closes a socket whose request headers never finish (10 s), while complete requests are answered', async () => {
    const { port } = new URL(fixture.engine.url);
    const socket = connect(Number(port), '127.0.0.1');
    const opened = Date.now();
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - opened)));
    socket.on('error', () => undefined);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    // Meanwhile the server answers others.
    expect((await fetch(`${fixture.engine.url}/healthz`)).status).toBe(200);
    let giveUp: NodeJS.Timeout | undefined;
    const after = await Promise.race([closed, new Promise<number>((r) => (giveUp = setTimeout(() => r(-1), 20_000)))]);
    clearTimeout(giveUp);
    socket.destroy();
    expect(after).toBeGreaterThanOrEqual(9_000);
    expect(after).toBeLessThan(20_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('"detail":"the request was not received in time"');
  }, 30_000);
});
