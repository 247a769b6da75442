/**
 * Authentication overhead: `GET /api/hyperfleet/v1/clusters/{id}` requests per second on two
 * embedded engines started in the same run, one without authentication and one verifying a JWT on every
 * request (RS256 and ES256 tokens from a local JWKS endpoint over HTTP, keys cached after the first
 * fetch). Beside them, jose's own `jwtVerify` rate on the same keys: the ceiling of the verification step.
 * Closed loop, keep-alive HTTP, 8 requests in flight, 2 s per measurement, 5 rounds in rotating order, best of each.
 */
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { loadAppConfig } from '@decom/config';
import { startEngine, type Engine } from '../../apps/cli/src/engine/engine.js';
import { writeServerConfig } from '../support/server-config.js';
import { TestIssuer } from '../support/test-issuer.js';
import type { BenchContext } from './support/context.js';

const IN_FLIGHT = 8;
/** Full run: 4 rounds of 2 s per column (~40 s in all); `--quick`: one short round. */
let SECONDS = 2;
let ROUNDS = 4;

async function engineWith(dataDir: string, env: Record<string, string>): Promise<Engine> {
  const adapters = join(dataDir, 'no-adapters');
  await mkdir(adapters, { recursive: true });
  const config = {
    ...loadAppConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DECOM_DATA_DIR: dataDir,
      DECOM_ADAPTERS_DIR: adapters,
      DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
      ...env,
    }),
    logLevel: 'silent' as const,
  };
  return startEngine({ config, logger: pino({ level: 'silent' }) });
}

/** Requests/s of GET `url` with `headers`, `IN_FLIGHT` at once for `SECONDS`; every answer must be 200. */
async function getRate(url: string, headers: Record<string, string>): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const target = new URL(url);
  const once = () =>
    new Promise<void>((ok, fail) => {
      const req = request({ host: target.hostname, port: target.port, path: target.pathname, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? ok() : fail(new Error(`bench: GET answered ${res.statusCode}`))));
      });
      req.on('error', fail);
      req.end();
    });
  for (let i = 0; i < 50; i++) await once(); // warm-up (JWKS fetch, JIT)
  let count = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        await once();
        count++;
      }
    }),
  );
  agent.destroy();
  return count / SECONDS;
}

async function verifyRate(token: string, keys: ReturnType<typeof createRemoteJWKSet>, issuer: TestIssuer): Promise<number> {
  for (let i = 0; i < 100; i++) await jwtVerify(token, keys, { issuer: issuer.issuer, audience: issuer.audience });
  let count = 0;
  const end = performance.now() + SECONDS * 500;
  while (performance.now() < end) {
    await jwtVerify(token, keys, { issuer: issuer.issuer, audience: issuer.audience });
    count++;
  }
  return count / (SECONDS / 2);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export default async function authBench(ctx: BenchContext): Promise<string> {
  if (ctx.quick) ((SECONDS = 0.3), (ROUNDS = 1));
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const issuer = await TestIssuer.start();
  const dir = await mkdtemp(join(tmpdir(), 'decom-bench-auth-'));
  const serverConfig = join(dir, 'server.yaml');
  await writeServerConfig(serverConfig, issuer, { authorization: { admins: ['bench@example.com'] } });
  const open = await engineWith(join(dir, 'open'), {});
  const secured = await engineWith(join(dir, 'jwt'), { DECOM_SERVER_CONFIG: serverConfig });
  try {
    const rs = await issuer.token('bench@example.com', { alg: 'RS256', expiresIn: 3600 });
    const es = await issuer.token('bench@example.com', { alg: 'ES256', expiresIn: 3600 });
    const create = async (engine: Engine, headers: Record<string, string>) => {
      const response = await fetch(`${engine.url}/api/hyperfleet/v1/clusters`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ kind: 'Cluster', name: 'bench-auth', spec: {} }),
      });
      if (response.status !== 201) throw new Error(`bench: create answered ${response.status}`);
      return ((await response.json()) as { id: string }).id;
    };
    const openUrl = `${open.url}/api/hyperfleet/v1/clusters/${await create(open, { 'x-hyperfleet-identity': 'bench@example.com' })}`;
    const jwtUrl = `${secured.url}/api/hyperfleet/v1/clusters/${await create(secured, { authorization: `Bearer ${rs}` })}`;
    const keys = createRemoteJWKSet(new URL(issuer.jwksUrl));
    const best = { open: 0, rs: 0, es: 0, verifyRs: 0, verifyEs: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      // The order rotates each round, so a burst of load elsewhere on the box does not always hit the same column.
      const measures = [
        async () => (best.open = Math.max(best.open, await getRate(openUrl, { 'x-hyperfleet-identity': 'bench@example.com' }))),
        async () => (best.rs = Math.max(best.rs, await getRate(jwtUrl, { authorization: `Bearer ${rs}` }))),
        async () => (best.es = Math.max(best.es, await getRate(jwtUrl, { authorization: `Bearer ${es}` }))),
      ];
      for (let i = 0; i < measures.length; i++) await measures[(i + round) % measures.length]!();
      best.verifyRs = Math.max(best.verifyRs, await verifyRate(rs, keys, issuer));
      best.verifyEs = Math.max(best.verifyEs, await verifyRate(es, keys, issuer));
    }
    const { verifyRs, verifyEs } = best;
    const pct = (n: number) => `${Math.round((n / best.open) * 100)} %`;
    // Time added per request against the time of one bare verification: what the auth path costs beyond jose.
    const addedUs = (n: number) => `${Math.max(0, Math.round(1e6 / n - 1e6 / best.open))} µs`;
    const oneUs = (n: number) => `${Math.round(1e6 / n)} µs`;
    return [
      '## Authentication overhead',
      '',
      `\`GET /api/hyperfleet/v1/clusters/{id}\` on two embedded engines in one run (SQLite, no adapters), one without authentication and one verifying a JWT on every request (jose, JWKS from a local HTTP endpoint, cached). Keep-alive HTTP from the same process, ${IN_FLIGHT} in flight, ${SECONDS} s per measurement, best of ${ROUNDS} rounds in rotating order.`,
      `Load average when the bench started: ${load} (the box may be shared: compare ratios, not absolutes).`,
      '',
      '| engine | GET req/s | vs. no auth | added per request | ceiling: `jwtVerify` alone (verifications/s) | one verification |',
      '|---|---:|---:|---:|---:|---:|',
      `| no authentication (header identity) | ${fmt(best.open)} | 100 % | | | |`,
      `| JWT RS256 (2048-bit) | ${fmt(best.rs)} | ${pct(best.rs)} | ${addedUs(best.rs)} | ${fmt(verifyRs)} | ${oneUs(verifyRs)} |`,
      `| JWT ES256 (P-256) | ${fmt(best.es)} | ${pct(best.es)} | ${addedUs(best.es)} | ${fmt(verifyEs)} | ${oneUs(verifyEs)} |`,
      '',
      '- Every request verifies its token (signature, `iss`, `aud`, `exp`): there is no cache of verified tokens, so a key removed from the JWKS stops working at the next refresh. The JWKS itself is fetched once and cached.',
    ].join('\n');
  } finally {
    await secured.close();
    await open.close();
    await issuer.close();
    await rm(dir, { recursive: true, force: true });
  }
}
