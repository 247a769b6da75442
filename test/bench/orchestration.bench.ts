/**
 * Deletion scenarios, on the shipped adapters (config/adapters: `validation` for clusters,
 * Job → ConfigMap → Namespace; `np-configmap` for nodepools) and the bundled local Kubernetes API server.
 * - P1: DELETE → GET 404 of a provisioned cluster with 2 nodepools, embedded (`decom start`: SQLite,
 *   in-process jobs, bundled Kubernetes in the engine process); p50/p99, a few deletions in flight.
 *   Ceiling: the same ordered Kubernetes cleanup done directly on that server (kube-raw.ts).
 * - P2: bulk, clusters × 2 nodepools deleted until every one is gone (resources/s), embedded and
 *   distributed (`decom api` + 2 `decom worker` processes on BullMQ, Kubernetes server in its own process).
 *   Ceilings: Redis pipelined SET and the Kubernetes server's raw delete rate for the same objects.
 *   Sized to the time budget: provisioning stops adding batches of clusters when the next batch would
 *   pass its cap, and the deletion is measured until everything is gone or its cap (then: what was gone).
 * - P8 (part): RSS of each engine process after its P2 run.
 * Every engine is a child process running the compiled CLI (`node bin/decom.js`), so the bench's HTTP
 * polling never shares its event loop.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { DemoApi } from '../../apps/cli/src/demo/api-client.js';
import { dropRedisPrefix, useRedis } from '../support/redis.js';
import { spawnNode, type BenchChild } from './support/child.js';
import type { BenchContext } from './support/context.js';
import { formatProfile, type SelfTimeRow } from './support/cpu-profile.js';
import { freePort } from '../support/free-port.js';
import { startDecom, startWorkers } from './support/decom.js';
import { chainLatency, deleteRate } from './support/kube-raw.js';
import { fmt, mb, percentile, pool, secondsSince, sleep, until } from './support/util.js';

interface Sizes {
  /** P1: clusters provisioned for it, how many deletions at once, and no new deletion after latencyCapS. */
  readonly latencyClusters: number;
  readonly latencyInFlight: number;
  readonly latencyCapS: number;
  /** P1 ceiling: direct ordered cleanups. */
  readonly chainRuns: number;
  /** P2: clusters wanted (each with 2 nodepools), created in batches; caps in seconds. */
  readonly bulkClusters: number;
  readonly bulkBatch: number;
  readonly provisionCapS: number;
  readonly deleteCapS: number;
  /** P2 ceilings. */
  readonly kubeRateClusters: number;
  readonly redisSets: number;
}

/** Full run: ~2-5 minutes, by the caps, however slow the engine (the whole bench fits in 10 minutes). */
const FULL: Sizes = {
  latencyClusters: 50,
  latencyInFlight: 4,
  latencyCapS: 35,
  chainRuns: 10,
  bulkClusters: 1000,
  bulkBatch: 50,
  provisionCapS: 60,
  deleteCapS: 60,
  kubeRateClusters: 60,
  redisSets: 200_000,
};
const QUICK: Sizes = {
  latencyClusters: 3,
  latencyInFlight: 3,
  latencyCapS: 30,
  chainRuns: 2,
  bulkClusters: 4,
  bulkBatch: 4,
  provisionCapS: 60,
  deleteCapS: 60,
  kubeRateClusters: 4,
  redisSets: 5_000,
};
/** P1 targets: DELETE → GET 404 of a cluster and its 2 nodepools, median and 99th percentile (ms). */
const P1_P50_MS = 100;
const P1_P99_MS = 250;
const NODEPOOLS = 2;
const CREATE_IN_FLIGHT = 16;
const DELETE_IN_FLIGHT = 32;

const encode = (search: string) => encodeURIComponent(search);

/** GET with up to 3 tries on a network error (a keep-alive socket closed under the poll); an engine that is gone still fails. */
async function getRetrying(api: DemoApi, path: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.get(path);
    } catch (error) {
      if (attempt === 3) throw error;
      await sleep(100);
    }
  }
}

async function count(api: DemoApi, plural: string, search?: string): Promise<number> {
  const answer = await getRetrying(api, `/${plural}?size=1${search ? `&search=${encode(search)}` : ''}`);
  if (answer.status !== 200) throw new Error(`bench: list ${plural}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.total as number;
}

interface Created {
  readonly id: string;
  readonly nodepools: readonly string[];
}

/** Creates `clusters` clusters with NODEPOOLS nodepools each. */
async function createClusters(api: DemoApi, clusters: number, tag: string): Promise<Created[]> {
  const created: Created[] = [];
  await pool(
    Array.from({ length: clusters }, (_, i) => i),
    CREATE_IN_FLIGHT,
    async (i) => {
      const c = await api.call('POST', '/clusters', { kind: 'Cluster', name: `${tag}-${i}`, spec: {} });
      if (c.status !== 201) throw new Error(`bench: create cluster: ${c.status} ${JSON.stringify(c.body)}`);
      const nodepools: string[] = [];
      for (let n = 0; n < NODEPOOLS; n++) {
        const np = await api.call('POST', `/clusters/${c.body.id}/nodepools`, { kind: 'NodePool', name: `np-${n}`, spec: {} });
        if (np.status !== 201) throw new Error(`bench: create nodepool: ${np.status} ${JSON.stringify(np.body)}`);
        nodepools.push(np.body.id as string);
      }
      created.push({ id: c.body.id as string, nodepools });
    },
  );
  return created;
}

interface HistoryItem {
  readonly position: number;
  readonly type: string;
  readonly recorded_time: string;
  readonly data: {
    readonly kind?: string;
    readonly adapter?: string;
    readonly conditions?: { type: string; status: string; reason?: string }[];
  };
}

/**
 * Where one deletion's time went: the events of the cluster and its nodepools (`/resources/{id}/events`,
 * kept after the hard delete) from DeletionRequested on, each with its offset. Adapter reports show the
 * adapter and its Finalized condition, so backoff gaps between reports are visible.
 */
async function deletionTimeline(api: DemoApi, cluster: Created): Promise<string[]> {
  const items: HistoryItem[] = [];
  for (const id of [cluster.id, ...cluster.nodepools]) {
    const answer = await api.get(`/resources/${id}/events?size=1000`);
    if (answer.status === 200) items.push(...(answer.body.items as HistoryItem[]));
  }
  const sorted = [...new Map(items.map((i) => [i.position, i])).values()].sort((a, b) => a.position - b.position);
  const start = sorted.find((i) => i.type === 'DeletionRequested');
  if (!start) return [];
  const t0 = Date.parse(start.recorded_time);
  return sorted
    .filter((i) => i.position >= start.position)
    .map((i) => {
      const finalized = i.data.conditions?.find((c) => c.type === 'Finalized');
      const detail = [i.data.adapter, finalized ? `Finalized=${finalized.status}${finalized.reason ? ` ${finalized.reason}` : ''}` : '']
        .filter(Boolean)
        .join(', ');
      return `  - +${fmt(Date.parse(i.recorded_time) - t0)} ms ${i.data.kind ?? ''} ${i.type}${detail ? ` (${detail})` : ''}`;
    });
}

/** Waits until `clusters` clusters and their nodepools are Reconciled=True (the adapters provisioned them). */
async function waitProvisioned(api: DemoApi, clusters: number, timeoutMs: number): Promise<void> {
  const reconciled = "status.conditions.Reconciled='True'";
  await until(
    `${clusters} clusters and ${clusters * NODEPOOLS} nodepools provisioned`,
    async () =>
      (await count(api, 'clusters', reconciled)) >= clusters && (await count(api, 'nodepools', reconciled)) >= clusters * NODEPOOLS,
    timeoutMs,
    100,
  );
}

async function deleteCluster(api: DemoApi, id: string): Promise<void> {
  const answer = await api.call('DELETE', `/clusters/${id}`);
  if (answer.status !== 202) throw new Error(`bench: DELETE cluster ${id}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/**
 * P1: ms from DELETE to the first GET 404, per cluster (ascending), and the timeline of the median one.
 * No deletion starts after `sizes.latencyCapS` (the run stays bounded when deletions are slow).
 */
async function deleteLatencies(api: DemoApi, sizes: Sizes): Promise<{ latencies: number[]; medianTimeline: string[] }> {
  const clusters = await createClusters(api, sizes.latencyClusters, `lat-${randomUUID().slice(0, 6)}`);
  await waitProvisioned(api, clusters.length, 120_000);
  const measured: { ms: number; cluster: Created }[] = [];
  const deadline = performance.now() + sizes.latencyCapS * 1000;
  await pool(clusters, sizes.latencyInFlight, async (cluster) => {
    if (performance.now() > deadline && measured.length >= 2) return;
    const started = performance.now();
    await deleteCluster(api, cluster.id);
    await until(`cluster ${cluster.id} gone`, async () => (await getRetrying(api, `/clusters/${cluster.id}`)).status === 404, 120_000, 10);
    measured.push({ ms: performance.now() - started, cluster });
  });
  measured.sort((a, b) => a.ms - b.ms);
  const median = measured[Math.floor((measured.length - 1) / 2)]!;
  return { latencies: measured.map((m) => m.ms), medianTimeline: await deletionTimeline(api, median.cluster) };
}

export interface BulkResult {
  readonly clusters: number;
  readonly provisionSeconds: number;
  readonly deleteSeconds: number;
  /** Resources gone by the end of the measure (all of them unless capped). */
  readonly gone: number;
  readonly capped: boolean;
  /** CPU time each engine process spent during the deletion, ms (where the time goes, on a shared box too). */
  readonly cpu: readonly { readonly label: string; readonly ms: number }[];
  /** Work counted during the deletion, summed over the processes (a regression shows as a count, not only a time). */
  readonly work: WorkCounts;
}

/**
 * Counts of one deletion phase: adapter runs (jobs run; `decom_adapter_runs_total`), job retries
 * (`decom_job_retries_total`), HTTP requests the API answered (`hyperfleet_api_requests_total`) without the
 * bench's own list polls, and requests the Kubernetes server answered (undefined where it runs inside the
 * engine: the bundled server of `decom start` has no counter outside its process).
 */
interface WorkCounts {
  readonly jobs: number;
  readonly retries: number;
  readonly http: number;
  readonly kube: number | undefined;
}

const metricsUrls = new Map<BenchChild, string | undefined>();

/** The `http://<host>:<port>/metrics` an engine process logged at start (DECOM_METRICS_PORT=0 picks the port). */
function metricsUrlOf(process: BenchChild): string | undefined {
  if (!metricsUrls.has(process)) {
    const found = process.log(Number.MAX_SAFE_INTEGER).match(/http:\/\/([\d.]+):(\d+)\/metrics/);
    metricsUrls.set(process, found ? `http://${found[1] === '0.0.0.0' ? '127.0.0.1' : found[1]}:${found[2]}/metrics` : undefined);
  }
  return metricsUrls.get(process);
}

/** The counters of one process: its /metrics (found in its log) and, for the Kubernetes server, its probe. */
async function countWork(process: BenchChild): Promise<WorkCounts> {
  const kube = (await process.probe()).counters?.['kube_requests'];
  const url = metricsUrlOf(process);
  const counts = { jobs: 0, retries: 0, http: 0, kube };
  if (!url) return counts;
  const text = await (await fetch(url)).text();
  for (const line of text.split('\n')) {
    const sample = /^([a-z_]+)(?:\{([^}]*)\})? ([0-9.eE+-]+)$/.exec(line);
    if (!sample) continue;
    const [, name, labels = '', value] = sample;
    if (name === 'decom_adapter_runs_total') counts.jobs += Number(value);
    else if (name === 'decom_job_retries_total') counts.retries += Number(value);
    // The bench's polls (`GET /clusters?size=1`, `GET /nodepools?size=1`) are not the engine's work.
    else if (name === 'hyperfleet_api_requests_total' && !/method="GET".*path="[^"]*\/(clusters|nodepools)"/.test(labels))
      counts.http += Number(value);
  }
  return counts;
}

async function countAll(processes: readonly BenchChild[]): Promise<WorkCounts> {
  const each = await Promise.all(processes.map(countWork));
  const kube = each.map((c) => c.kube).filter((k) => k !== undefined);
  return {
    jobs: each.reduce((n, c) => n + c.jobs, 0),
    retries: each.reduce((n, c) => n + c.retries, 0),
    http: each.reduce((n, c) => n + c.http, 0),
    kube: kube.length > 0 ? kube.reduce((n, k) => n + k, 0) : undefined,
  };
}

function workDuring(before: WorkCounts, after: WorkCounts): WorkCounts {
  return {
    jobs: after.jobs - before.jobs,
    retries: after.retries - before.retries,
    http: after.http - before.http,
    kube: after.kube !== undefined && before.kube !== undefined ? after.kube - before.kube : undefined,
  };
}

/** What `bulk` needs of the sizes: clusters wanted, batch size, caps in seconds. */
export type BulkSizes = Pick<Sizes, 'bulkClusters' | 'bulkBatch' | 'provisionCapS' | 'deleteCapS'>;

/** P2: provisions up to `sizes.bulkClusters` (batches, cap), deletes them all at once, counts until gone or cap. */
export async function bulk(
  api: DemoApi,
  sizes: BulkSizes,
  log: (line: string) => void,
  processes: readonly BenchChild[],
): Promise<BulkResult> {
  const tag = `bulk-${randomUUID().slice(0, 6)}`;
  const ids: string[] = [];
  const provisionStarted = performance.now();
  while (ids.length < sizes.bulkClusters) {
    const batchStarted = performance.now();
    ids.push(
      ...(await createClusters(api, Math.min(sizes.bulkBatch, sizes.bulkClusters - ids.length), `${tag}-${ids.length}`)).map((c) => c.id),
    );
    await waitProvisioned(api, ids.length, 300_000);
    const batchSeconds = secondsSince(batchStarted);
    if (secondsSince(provisionStarted) + batchSeconds > sizes.provisionCapS) break;
  }
  const provisionSeconds = secondsSince(provisionStarted);
  log(`provisioned ${ids.length} clusters × ${NODEPOOLS} nodepools in ${fmt(provisionSeconds, 1)} s; deleting them`);
  const total = ids.length * (1 + NODEPOOLS);
  const cpuBefore = await Promise.all(processes.map(async (p) => (await p.probe()).cpuMs));
  const workBefore = await countAll(processes);
  const started = performance.now();
  await pool(ids, DELETE_IN_FLIGHT, (id) => deleteCluster(api, id));
  let remaining = total;
  const deadline = started + sizes.deleteCapS * 1000;
  while (remaining > 0 && performance.now() < deadline) {
    await sleep(100);
    remaining = (await count(api, 'clusters')) + (await count(api, 'nodepools'));
  }
  const deleteSeconds = secondsSince(started);
  const cpu = await Promise.all(processes.map(async (p, i) => ({ label: p.label, ms: (await p.probe()).cpuMs - cpuBefore[i]! })));
  const work = workDuring(workBefore, await countAll(processes));
  return { clusters: ids.length, provisionSeconds, deleteSeconds, gone: total - remaining, capped: remaining > 0, cpu, work };
}

/** `label 12.3 ms` per resource gone, for each process, and their sum. */
export function cpuPerResource(b: BulkResult): string {
  const per = (ms: number) => `${fmt(ms / Math.max(1, b.gone), 1)} ms`;
  const sum = b.cpu.reduce((total, p) => total + p.ms, 0);
  return [...b.cpu.map((p) => `${p.label} ${per(p.ms)}`), ...(b.cpu.length > 1 ? [`all ${per(sum)}`] : [])].join('; ');
}

/** Jobs, retries, HTTP requests and Kubernetes requests per resource gone (one decimal). */
export function workPerResource(b: BulkResult): string[] {
  const per = (n: number) => fmt(n / Math.max(1, b.gone), 1);
  return [
    per(b.work.jobs),
    per(b.work.retries),
    per(b.work.http),
    b.work.kube === undefined ? 'n/a (inside the engine)' : per(b.work.kube),
  ];
}

export function workLine(b: BulkResult): string {
  const [jobs, retries, http, kube] = workPerResource(b);
  return `per resource gone: ${jobs} jobs, ${retries} retries, ${http} HTTP requests, ${kube} Kubernetes requests`;
}

/** Redis's own rate for the cheapest write, pipelined 1,000 at a time: the ceiling for any queue on it. */
async function redisSetRate(url: string, total: number): Promise<number> {
  const client = new Redis(url);
  try {
    // Keys of this run only (REDIS_URL may be someone's server): written, then deleted, nothing else touched.
    const prefix = `decom-bench-${randomUUID()}`;
    const started = performance.now();
    for (let sent = 0; sent < total; sent += 1_000) {
      const pipeline = client.pipeline();
      for (let i = 0; i < 1_000; i++) pipeline.set(`${prefix}-set-${i}`, 'x');
      await pipeline.exec();
    }
    const rate = total / secondsSince(started);
    await client.del(...Array.from({ length: 1_000 }, (_, i) => `${prefix}-set-${i}`));
    return rate;
  } finally {
    client.quit().catch(() => undefined);
  }
}

function kubeConfigFrom(file: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(file);
  return kubeConfig;
}

interface RunnerFigures {
  readonly name: string;
  readonly bulk: BulkResult;
  readonly kubeRate: number;
  readonly rss: { readonly label: string; readonly bytes: number }[];
  readonly profiles: { readonly label: string; readonly rows: readonly SelfTimeRow[] }[];
}

export const rateOf = (b: BulkResult) => b.gone / b.deleteSeconds;

export default async function orchestrationBench(ctx: BenchContext): Promise<string> {
  const sizes = ctx.quick ? QUICK : FULL;

  // Embedded: P1 and P2 on one `decom start` (the demo topology, everything in one process).
  ctx.log('embedded engine (decom start): P1 ceiling, P1, P2');
  const embedded = await startDecom('start', {
    label: 'decom start (P1, P2 embedded)',
    dir: join(ctx.dir, 'embedded'),
    profile: ctx.profile,
  });
  let p1: number[];
  let p1Timeline: string[];
  let chain: number[];
  let embeddedFigures: RunnerFigures;
  const embeddedProfiles: RunnerFigures['profiles'] = [];
  try {
    const api = new DemoApi(embedded.url);
    const bundledKube = kubeConfigFrom(join(embedded.dataDir, 'kubeconfig'));
    chain = await chainLatency(bundledKube, sizes.chainRuns);
    ({ latencies: p1, medianTimeline: p1Timeline } = await deleteLatencies(api, sizes));
    ctx.log(`P1: p50 ${fmt(percentile(p1, 50))} ms, p99 ${fmt(percentile(p1, 99))} ms (Kubernetes alone ${fmt(percentile(chain, 50))} ms)`);
    const kubeRate = await deleteRate(bundledKube, sizes.kubeRateClusters, DELETE_IN_FLIGHT);
    const result = await bulk(api, sizes, ctx.log, [embedded]);
    const rss = (await embedded.probe()).rss;
    ctx.log(
      `P2 embedded: ${fmt(rateOf(result))} resources/s (${result.gone} in ${fmt(result.deleteSeconds, 1)} s); RSS ${mb(rss)}; ${workLine(result)}`,
    );
    embeddedFigures = {
      name: 'embedded (in-process jobs)',
      bulk: result,
      kubeRate,
      rss: [{ label: 'decom start (API, jobs, adapters, bundled Kubernetes)', bytes: rss }],
      profiles: embeddedProfiles,
    };
  } finally {
    const { profile } = await embedded.stop();
    if (profile) embeddedProfiles.push({ label: embedded.label, rows: profile });
  }

  // Distributed: `decom api` + 2 `decom worker` on BullMQ, Kubernetes in its own process.
  ctx.log('distributed: kube server + decom api + 2 decom worker (BullMQ): P2');
  const redis = await useRedis();
  const children: BenchChild[] = [];
  const queuePrefix = `decom-bench-${randomUUID().slice(0, 8)}`;
  let distributed: RunnerFigures;
  let setRate: number;
  const distributedProfiles: RunnerFigures['profiles'] = [];
  try {
    setRate = await redisSetRate(redis.url, sizes.redisSets);
    const dir = join(ctx.dir, 'distributed');
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    const kube = spawnNode(['dist/test/bench/support/kube-server.js', kubeconfig], {
      label: 'kube server (P2 BullMQ)',
      dir,
      profile: ctx.profile,
    });
    children.push(kube);
    await kube.waitForLog(/kube ready/);
    ctx.log(`Redis SET ${fmt(setRate)} ops/s; Kubernetes server ready`);
    const queueEnv = { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: queuePrefix };
    // API and workers start together (the workers need only the API's URL, picked up front).
    const port = await freePort();
    const [apiStarted, workersStarted] = await Promise.allSettled([
      startDecom('api', { label: 'decom api (P2 BullMQ)', dir, env: queueEnv, profile: ctx.profile, port }),
      startWorkers(2, {
        dir,
        profile: ctx.profile,
        env: { ...queueEnv, KUBECONFIG: kubeconfig, DECOM_API_URL: `http://127.0.0.1:${port}`, DECOM_DATA_DIR: join(dir, 'worker-data') },
      }),
    ]);
    if (apiStarted.status === 'fulfilled') children.push(apiStarted.value);
    if (workersStarted.status === 'fulfilled') children.push(...workersStarted.value);
    if (apiStarted.status === 'rejected') throw apiStarted.reason;
    if (workersStarted.status === 'rejected') throw workersStarted.reason;
    const apiProcess = apiStarted.value;
    const workers = workersStarted.value;
    ctx.log('decom api and 2 workers ready');
    const kubeRate = await deleteRate(kubeConfigFrom(kubeconfig), sizes.kubeRateClusters, DELETE_IN_FLIGHT);
    ctx.log(`Kubernetes raw delete rate: ${fmt(kubeRate)} resources/s`);
    const result = await bulk(new DemoApi(apiProcess.url), sizes, ctx.log, [apiProcess, ...workers, kube]);
    const rss = [
      { label: 'decom api', bytes: (await apiProcess.probe()).rss },
      ...(await Promise.all(workers.map(async (w) => ({ label: w.label, bytes: (await w.probe()).rss })))),
      { label: 'Kubernetes server', bytes: (await kube.probe()).rss },
    ];
    ctx.log(
      `P2 BullMQ: ${fmt(rateOf(result))} resources/s (${result.gone} in ${fmt(result.deleteSeconds, 1)} s); RSS ${rss.map((r) => `${r.label} ${mb(r.bytes)}`).join(', ')}; ${workLine(result)}`,
    );
    distributed = { name: 'BullMQ, 2 `decom worker` processes', bulk: result, kubeRate, rss, profiles: distributedProfiles };
  } finally {
    for (const child of children.reverse()) {
      const { profile } = await child.stop();
      if (profile) distributedProfiles.push({ label: child.label, rows: profile });
    }
    await dropRedisPrefix(redis.url, queuePrefix).catch(() => undefined);
    await redis.stop();
  }

  const p50 = percentile(p1, 50);
  const p99 = percentile(p1, 99);
  const chainP50 = percentile(chain, 50);
  const p1Met = p50 <= P1_P50_MS && p99 <= P1_P99_MS;
  ctx.target({
    id: 'P1',
    measure: 'DELETE → GET 404 p50 (cluster + 2 nodepools, embedded)',
    figure: `${fmt(p50)} ms`,
    ceiling: `${fmt(chainP50)} ms`,
    ratio: `${fmt(p50 / chainP50, 1)} ×`,
    target: `≤ ${P1_P50_MS} ms`,
    met: p50 <= P1_P50_MS,
  });
  ctx.target({
    id: 'P1',
    measure: 'DELETE → GET 404 p99',
    figure: `${fmt(p99)} ms`,
    ceiling: `${fmt(percentile(chain, 99))} ms`,
    ratio: `${fmt(p99 / percentile(chain, 99), 1)} ×`,
    target: `≤ ${P1_P99_MS} ms`,
    met: p99 <= P1_P99_MS,
  });
  const runners = [
    { figures: embeddedFigures!, target: 150 },
    { figures: distributed!, target: 300 },
  ];
  for (const { figures, target } of runners) {
    const rate = rateOf(figures.bulk);
    const sized = figures.bulk.clusters < 1000 ? ` (${fmt(figures.bulk.clusters)} clusters${figures.bulk.capped ? ', capped' : ''})` : '';
    ctx.target({
      id: 'P2',
      measure: `bulk deletion, ${figures.name}${sized}`,
      figure: `${fmt(rate)} resources/s`,
      ceiling: `${fmt(figures.kubeRate)} /s (Kubernetes)`,
      ratio: `${Math.round((rate / figures.kubeRate) * 100)} %`,
      target: `≥ ${target} resources/s`,
      met: rate >= target,
    });
    for (const r of figures.rss) {
      if (r.label === 'Kubernetes server') continue;
      ctx.target({
        id: 'P8',
        measure: `RSS after P2 ${figures.name.split(',')[0]}: ${r.label}`,
        figure: mb(r.bytes),
        ceiling: '—',
        ratio: '—',
        target: '≤ 300 MB',
        met: r.bytes <= 300 * 2 ** 20,
      });
    }
  }

  const bulkRow = (f: RunnerFigures) =>
    `| ${f.name} | ${fmt(f.bulk.clusters)} × ${NODEPOOLS} | ${fmt(f.bulk.provisionSeconds, 1)} s | ${f.bulk.capped ? `${fmt(f.bulk.gone)} of ${fmt(f.bulk.clusters * 3)} gone in` : 'all gone in'} ${fmt(f.bulk.deleteSeconds, 1)} s | **${fmt(rateOf(f.bulk))}** | ${fmt(f.kubeRate)} | ${cpuPerResource(f.bulk)} | ${f.rss.map((r) => `${r.label} ${mb(r.bytes)}`).join('; ')} |`;
  const missed = [
    !p1Met ? embeddedFigures! : undefined,
    rateOf(embeddedFigures!.bulk) < 150 ? embeddedFigures! : undefined,
    rateOf(distributed!.bulk) < 300 ? distributed! : undefined,
  ];
  const profiles = [...new Set(missed.filter((f) => f !== undefined))].flatMap((f) =>
    f.profiles.flatMap((p) => formatProfile(p.label, p.rows)),
  );
  return [
    '## Deletion: DELETE → 404 (P1) and bulk (P2)',
    '',
    'The shipped adapters (`validation` for clusters: Job → ConfigMap → Namespace; `np-configmap` for nodepools), default',
    'timings, every resource provisioned (Reconciled=True) before it is deleted. Each engine is a child process running',
    '`node bin/decom.js` (the build), its log at `info` to a file; the bench process only sends requests and polls.',
    '',
    `**P1** — \`decom start\` (SQLite, in-process jobs, bundled Kubernetes in the engine process): ${p1.length} clusters with ${NODEPOOLS} nodepools each`,
    `(of ${sizes.latencyClusters} provisioned; no new deletion after ${sizes.latencyCapS} s), ${sizes.latencyInFlight} deletions in flight, time from DELETE to the first GET 404 (polled every 10 ms). Ceiling: the same ordered cleanup`,
    `(nodepool ConfigMaps → Job → ConfigMap → Namespace, each step waiting until gone) done directly with @kubernetes/client-node on`,
    `that engine's bundled server, ${chain.length} times one after another.`,
    '',
    '| | p50 | p99 | max |',
    '|---|---:|---:|---:|',
    `| Decom: DELETE → GET 404 | **${fmt(p50)} ms** | **${fmt(p99)} ms** | ${fmt(p1.at(-1)!)} ms |`,
    `| ceiling: Kubernetes alone, same ordered cleanup | ${fmt(chainP50)} ms | ${fmt(percentile(chain, 99))} ms | ${fmt(chain.at(-1)!)} ms |`,
    ...(p1Met || p1Timeline!.length === 0
      ? []
      : [
          '',
          `Where the median deletion's ${fmt(p50)} ms went (its events, from \`/resources/{id}/events\` of the cluster and its nodepools):`,
          ...p1Timeline!,
        ]),
    '',
    `**P2** — up to ${fmt(sizes.bulkClusters)} clusters × ${NODEPOOLS} nodepools, created in batches of ${sizes.bulkBatch} until the next batch would pass`,
    `${sizes.provisionCapS} s of provisioning; then every DELETE sent (${DELETE_IN_FLIGHT} in flight) and the lists polled until every resource is gone`,
    `or ${sizes.deleteCapS} s passed (then the rate counts what was gone by then: a lower bound, since a cluster goes after its nodepools). Embedded: the same \`decom start\` as P1. BullMQ: \`decom api\``,
    '(SQLite) + 2 `decom worker` processes (4 runs at once per adapter each) on Redis, the Kubernetes server in a process of its own.',
    `Ceilings: the Kubernetes server's raw delete rate (the same objects of ${sizes.kubeRateClusters} clusters deleted directly, ${DELETE_IN_FLIGHT} clusters in flight,`,
    `counted as 3 resources per cluster) and Redis pipelined SET: **${fmt(setRate!)} ops/s**${process.env['REDIS_URL'] ? ' (REDIS_URL)' : ' (a throw-away redis-server)'}.`,
    'CPU per resource: user + system time of each process during the deletion, over the resources gone (2 cores: a rate',
    'of R resources/s needs at most 2,000 / R ms of CPU per resource in all processes, and 1,000 / R ms in any one of them).',
    '',
    '| runner | clusters × nodepools | provisioning | deletion | resources/s | ceiling: Kubernetes raw (resources/s) | CPU per resource gone, by process | RSS after |',
    '|---|---:|---:|---|---:|---:|---|---|',
    bulkRow(embeddedFigures!),
    bulkRow(distributed!),
    '',
    'Work per resource gone during the deletion, summed over the processes (counts move with the code, not with the box):',
    'jobs = adapter runs (`decom_adapter_runs_total`), retries = job tries after the first (`decom_job_retries_total`),',
    "HTTP = requests the API answered (`hyperfleet_api_requests_total`, the bench's list polls left out: the DELETEs and",
    "the adapters' calls), Kubernetes = requests the Kubernetes server answered (its own process only).",
    '',
    '| runner | jobs | retries | HTTP requests | Kubernetes requests |',
    '|---|---:|---:|---:|---:|',
    ...[embeddedFigures!, distributed!].map((f) => `| ${f.name} | ${workPerResource(f.bulk).join(' | ')} |`),
    ...(profiles.length > 0 ? ['', 'Where the time goes (targets missed):', ...profiles] : []),
  ].join('\n');
}
