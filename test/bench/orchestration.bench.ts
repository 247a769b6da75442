/**
 * Orchestration benchmark (issue #5), on the demo topology: one engine process with the shipped adapters
 * (config/adapters: `validation` for clusters, `np-configmap` for nodepools), SQLite, the bundled local
 * Kubernetes API server, default timings (re-runs 250 ms doubling, 4 runs at once per adapter).
 * For the in-process queue and for BullMQ on Redis (REDIS_URL, or a throw-away redis-server):
 * - DELETE → GET 404 latency, p50/p99 over 200 provisioned clusters, 10 deletions in flight;
 * - the time to delete 1,000 provisioned clusters with 2 nodepools each (3,000 resources), all DELETEs
 *   sent at once (32 in flight), until the last GET answers 404;
 * with Redis's own pipelined SET rate beside them as the ceiling.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pino from 'pino';
import { loadAppConfig } from '@decom/config';
import { DemoApi } from '../../apps/cli/src/demo/api-client.js';
import { startEngine, type Engine } from '../../apps/cli/src/engine/engine.js';
import { useRedis } from '../support/redis.js';
import { randomUUID } from 'node:crypto';

const LATENCY_DELETIONS = 200;
const LATENCY_IN_FLIGHT = 10;
const BULK_CLUSTERS = 1_000;
const NODEPOOLS_PER_CLUSTER = 2;
const BULK_IN_FLIGHT = 32;

interface RunnerResult {
  readonly name: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly bulkSeconds: number;
  readonly provisionSeconds: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs `work` over `items` with at most `limit` at once. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number, intervalMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function withEngine<T>(redisUrl: string | undefined, controllerDelayMs: number, run: (engine: Engine, api: DemoApi) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'decom-bench-'));
  const config = {
    ...loadAppConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DECOM_DATA_DIR: dataDir,
      DECOM_ADAPTERS_DIR: resolve('config/adapters'),
      DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
      DECOM_SENTINEL_FILE: resolve('config/sentinel.yaml'),
      ...(redisUrl ? { REDIS_URL: redisUrl, DECOM_QUEUE_PREFIX: `decom-bench-${Date.now()}` } : {}),
    }),
    logLevel: 'silent' as const,
  };
  const engine = await startEngine({ config, logger: pino({ level: 'silent' }), localKube: { controllerDelayMs } });
  try {
    return await run(engine, new DemoApi(engine.url));
  } finally {
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Creates clusters (and nodepools) and waits until the adapters provisioned every one. */
async function provision(engine: Engine, api: DemoApi, clusters: number, nodepools: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  await pool(
    Array.from({ length: clusters }, (_, i) => i),
    BULK_IN_FLIGHT,
    async (i) => {
      const c = await api.call('POST', '/clusters', { kind: 'Cluster', name: `${tag}-${i}`, spec: {} });
      if (c.status !== 201) throw new Error(`bench: create cluster: ${c.status} ${JSON.stringify(c.body)}`);
      for (let n = 0; n < nodepools; n++) {
        const np = await api.call('POST', `/clusters/${c.body.id}/nodepools`, { kind: 'NodePool', name: `np-${n}`, spec: {} });
        if (np.status !== 201) throw new Error(`bench: create nodepool: ${np.status}`);
      }
      ids.push(c.body.id as string);
    },
  );
  await engine.settle();
  return ids;
}

async function measure(name: string, redisUrl: string | undefined): Promise<RunnerResult> {
  const latency = await withEngine(redisUrl, 0, async (engine, api) => {
    const ids = await provision(engine, api, LATENCY_DELETIONS, 0, 'lat');
    const latencies: number[] = [];
    await pool(ids, LATENCY_IN_FLIGHT, async (id) => {
      const started = performance.now();
      const answer = await api.call('DELETE', `/clusters/${id}`);
      if (answer.status !== 202) throw new Error(`bench: DELETE ${answer.status}`);
      await until(`cluster ${id} gone`, async () => (await api.get(`/clusters/${id}`)).status === 404, 60_000, 20);
      latencies.push(performance.now() - started);
    });
    return latencies.sort((a, b) => a - b);
  });
  // The local server's garbage collector copies every object per pass: batch its passes (500 ms) so
  // thousands of objects measure Decom, not that scan.
  const bulk = await withEngine(redisUrl, 500, async (engine, api) => {
    const provisionStarted = performance.now();
    const ids = await provision(engine, api, BULK_CLUSTERS, NODEPOOLS_PER_CLUSTER, 'bulk');
    const provisionSeconds = (performance.now() - provisionStarted) / 1000;
    const started = performance.now();
    await pool(ids, BULK_IN_FLIGHT, async (id) => {
      const answer = await api.call('DELETE', `/clusters/${id}`);
      if (answer.status !== 202) throw new Error(`bench: DELETE ${answer.status}`);
    });
    await until(
      'every cluster and nodepool gone',
      async () => (await engine.queries.list({ kind: 'Cluster', page: 1, size: 1 })).total === 0 && (await engine.queries.list({ kind: 'NodePool', page: 1, size: 1 })).total === 0,
      300_000,
      20,
    );
    return { bulkSeconds: (performance.now() - started) / 1000, provisionSeconds };
  });
  return { name, p50Ms: percentile(latency, 50), p99Ms: percentile(latency, 99), ...bulk };
}

/** Redis's own rate for the cheapest write, pipelined 1,000 at a time: the ceiling for any queue on it. */
async function redisSetRate(url: string): Promise<number> {
  const client = new Redis(url);
  try {
    const total = 200_000;
    // Keys of this run only (REDIS_URL may be someone's server): written, then deleted, nothing else touched.
    const prefix = `decom-bench-${randomUUID()}`;
    const started = performance.now();
    for (let sent = 0; sent < total; sent += 1_000) {
      const pipeline = client.pipeline();
      for (let i = 0; i < 1_000; i++) pipeline.set(`${prefix}-set-${i}`, 'x');
      await pipeline.exec();
    }
    const rate = total / ((performance.now() - started) / 1000);
    await client.del(...Array.from({ length: 1_000 }, (_, i) => `${prefix}-set-${i}`));
    return rate;
  } finally {
    await client.quit();
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export default async function orchestrationBench(): Promise<string> {
  const redis = await useRedis();
  try {
    const results = [await measure('in-process', undefined), await measure('BullMQ (Redis)', redis.url)];
    const setRate = await redisSetRate(redis.url);
    const resources = BULK_CLUSTERS * (1 + NODEPOOLS_PER_CLUSTER);
    return [
      '## Orchestration: DELETE → 404 and bulk deletion (issue #5)',
      '',
      'Demo topology in one process: API, projections, dispatch, sweeper, hard delete and the shipped adapters',
      '(`validation` for clusters: Job → ConfigMap → Namespace; `np-configmap` for nodepools) on SQLite and the',
      'bundled local Kubernetes API server; default timings (adapter re-runs 250 ms doubling while cleanup is in',
      'progress, 4 runs at once per adapter, 2 hard deletes at once). Every resource is provisioned by its adapters first.',
      '',
      `| runner | DELETE → GET 404 p50 | p99 (${LATENCY_DELETIONS} clusters, ${LATENCY_IN_FLIGHT} in flight) | ${fmt(BULK_CLUSTERS)} clusters × ${NODEPOOLS_PER_CLUSTER} nodepools deleted in | resources/s | (provisioning them took) |`,
      '|---|---|---|---|---|---|',
      ...results.map(
        (r) => `| ${r.name} | ${fmt(r.p50Ms)} ms | ${fmt(r.p99Ms)} ms | ${fmt(r.bulkSeconds, 1)} s | ${fmt(resources / r.bulkSeconds)} | ${fmt(r.provisionSeconds, 1)} s |`,
      ),
      `| ceiling: Redis pipelined SET | | | | ${fmt(setRate)} ops/s | |`,
      '',
      'A deletion is a chain of dependent steps (projection, dispatch, adapter run with its Kubernetes calls and status',
      'report, hard delete) plus the re-run backoff while the namespace terminates: that chain, not the queue, sets the',
      'latency. The bulk run is CPU-bound in one process (API, projections, adapters and the local Kubernetes server, whose',
      "controller passes are batched every 500 ms there); BullMQ's extra client-side work per job shows there, while Redis",
      'itself stays far below its own ceiling.',
    ].join('\n');
  } finally {
    await redis.stop();
  }
}
