/**
 * The cost of metrics and logging on GET throughput: two embedded engines in the same run, one
 * with the access log (pino JSON to /dev/null, asynchronous as in production) and the Prometheus request
 * metrics on, one with both off; the same clients GET one cluster for a fixed time against each, the runs
 * interleaved (off, on, off, on), best of each kept. A GET records no event, so the transition log and the
 * deletion metrics are not on this path; scrapes are not running during the measure.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { loadAppConfig } from '@decom/config';
import { startEngine, type Engine } from '../../apps/cli/src/engine/engine.js';
import type { BenchContext } from './support/context.js';

const CLIENTS = 16;
/** Full run: 2 rounds of 3 s per configuration; `--quick`: one short round. */
let SECONDS = 3;
let ROUNDS = 2;

async function withEngine<T>(observability: boolean, run: (engine: Engine, clusterUrl: string) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'decom-bench-http-'));
  const config = {
    ...loadAppConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DECOM_DATA_DIR: dataDir,
      DECOM_ADAPTERS_DIR: join(dataDir, 'none'),
      DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
    }),
    logLevel: 'info' as const,
  };
  const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false }));
  const engine = await startEngine({ config, logger, requestObservability: observability, role: 'api' });
  try {
    const created = await fetch(`${engine.url}/api/hyperfleet/v1/clusters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'Cluster', name: 'bench-get', spec: { region: 'eu' } }),
    });
    const { id } = (await created.json()) as { id: string };
    return await run(engine, `${engine.url}/api/hyperfleet/v1/clusters/${id}`);
  } finally {
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Requests per second of CLIENTS concurrent GET loops for SECONDS. */
async function measure(url: string): Promise<number> {
  for (let i = 0; i < 200; i++) await (await fetch(url)).arrayBuffer(); // warm-up
  const deadline = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const response = await fetch(url);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`bench: GET answered ${response.status}`);
        done++;
      }
    }),
  );
  return done / SECONDS;
}

export default async function httpObservabilityBench(ctx: BenchContext): Promise<string> {
  if (ctx.quick) ((SECONDS = 0.3), (ROUNDS = 1));
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const best = { off: 0, on: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['off', 'on'] as const) {
      const rate = await withEngine(mode === 'on', (_engine, url) => measure(url));
      best[mode] = Math.max(best[mode], rate);
    }
  }
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  return [
    '## HTTP: GET throughput with and without metrics and logging',
    '',
    `One embedded engine (API role, SQLite) per run; ${CLIENTS} concurrent keep-alive clients in the same process GET one cluster for ${SECONDS} s;`,
    `runs interleaved off/on, best of ${ROUNDS} each. "on" = one pino access-log line per request (JSON to /dev/null, asynchronous) and`,
    "HyperFleet's request counter + duration histogram; the trace id (`request.id`, `X-Request-Id` header) is chosen in both.",
    `Load average when the bench started: ${load}.`,
    '',
    '| configuration | GET /clusters/{id} (requests/s) | relative |',
    '|---|---:|---:|',
    `| metrics and access log off | ${fmt(best.off)} | 100 % |`,
    `| metrics and access log on | ${fmt(best.on)} | ${Math.round((best.on / best.off) * 100)} % |`,
  ].join('\n');
}
