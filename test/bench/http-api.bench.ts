/**
 * The read and write path under load (P3-P6, P8), on `decom api` (SQLite, in-process queue, no
 * adapters: the API role; resources stay unreconciled, which the sweeper walks like any others) in a child
 * process, load from autocannon in the bench process, ceilings from a bare Fastify route in a third process
 * answering the very body the engine answered:
 * - P5: POST create rate on an empty store, then again after seeding to 20k clusters (same engine);
 * - P3: GET one cluster, 50 connections, vs the bare route;
 * - P4: LIST `size=20` over 20k clusters: plain, `search=labels.env='prod'` (a quarter match), `order=name desc`; vs bare;
 * - P8 (part): the engine's RSS after P3/P4;
 * - P6: the engine restarted on the same data with a short sweep interval: the longest event-loop stall
 *   (monitorEventLoopDelay inside the engine) over several sweeps of 20k resources, vs the same window
 *   without a sweep (the idle engine before the restart).
 * The sweeper is off (1 h interval) during P3-P5, and P5 starts after the start's recovery sweep, so those
 * measure the request path alone.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../support/free-port.js';
import { spawnNode } from './support/child.js';
import type { BenchContext } from './support/context.js';
import { formatProfile } from './support/cpu-profile.js';
import { shippedConfig, startDecom, type DecomChild } from './support/decom.js';
import { seedClusters, type SeedCluster } from './support/seed-store.js';
import { drain, load, type LoadResult } from './support/load.js';
import { fmt, mb, pct, secondsSince, sleep, until } from './support/util.js';

interface Sizes {
  readonly resources: number;
  readonly connections: number;
  readonly postConnections: number;
  readonly postSeconds: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly sweepIntervalMs: number;
  readonly stallWindowS: number;
}

/** P3 target: GET one cluster at ≥ this share of the bare route's rate, same run. */
const P3_SHARE_OF_BARE = 0.7;
const FULL: Sizes = {
  resources: 20_000,
  connections: 50,
  postConnections: 16,
  postSeconds: 3,
  seconds: 3,
  rounds: 2,
  sweepIntervalMs: 2_000,
  stallWindowS: 7,
};
const QUICK: Sizes = {
  resources: 300,
  connections: 50,
  postConnections: 8,
  postSeconds: 0.3,
  seconds: 0.3,
  rounds: 1,
  sweepIntervalMs: 300,
  stallWindowS: 1,
};
const ENVS = ['prod', 'stage', 'dev', 'test'];
const SEARCH = "labels.env='prod'";
const ORDER = 'name desc';
/** `20.3k` (or the plain number below 1,000). */
const thousands = (n: number) => (n >= 1000 ? `${fmt(n / 1000, 1)}k` : fmt(n));
const HEADERS = { 'x-hyperfleet-identity': 'bench@example.com' };

let serial = 0;
/** A create body with a unique name and one of four `env` labels. */
const createBody = (tag: string) => () => {
  const n = serial++;
  return JSON.stringify({
    kind: 'Cluster',
    name: `${tag}-${n}`,
    spec: { region: 'eu-west-1', release: { version: 4 } },
    labels: { env: ENVS[n % ENVS.length], team: `t${n % 10}` },
  });
};

/**
 * Best run (highest rate) of `rounds` × (engine, bare), interleaved so a busy moment on the box hits both;
 * after each engine run, `settle` waits until the engine worked off what the run left queued.
 */
async function sideBySide(
  rounds: number,
  engine: () => Promise<LoadResult>,
  bare: () => Promise<LoadResult>,
  settle: () => Promise<void>,
): Promise<{ engine: LoadResult; bare: LoadResult }> {
  let bestEngine: LoadResult | undefined;
  let bestBare: LoadResult | undefined;
  for (let round = 0; round < rounds; round++) {
    const e = await engine();
    await settle();
    const b = await bare();
    if (!bestEngine || e.rps > bestEngine.rps) bestEngine = e;
    if (!bestBare || b.rps > bestBare.rps) bestBare = b;
  }
  return { engine: bestEngine!, bare: bestBare! };
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url, { headers: HEADERS });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`bench: GET ${url}: ${response.status} ${text}`);
  return text;
}

export default async function httpApiBench(ctx: BenchContext): Promise<string> {
  const sizes = ctx.quick ? QUICK : FULL;
  const dir = ctx.dir;
  const dataDir = join(dir, 'data');
  const base = (engine: DecomChild) => `${engine.url}/api/hyperfleet/v1`;
  const profiles: string[] = [];

  const sweepOff = { DECOM_SWEEP_INTERVAL_MS: '3600000' };
  let engine = await startDecom('api', { label: 'decom api (P5 empty store)', dir, dataDir, env: sweepOff, profile: ctx.profile });
  let bare: ReturnType<typeof spawnNode> | undefined;
  try {
    await engine.waitForLog(/"msg":"metrics: /);
    // P5 on the (nearly) empty store, after a warm-up (JIT, prepared statements): its creates stay in the store.
    const post = (tag: string, seconds: number) =>
      load({
        url: `${base(engine)}/clusters`,
        method: 'POST',
        connections: sizes.postConnections,
        seconds,
        headers: HEADERS,
        body: createBody(tag),
      });
    const warmUp = await post('warm', ctx.quick ? 0.1 : 1);
    const empty = await post('empty', sizes.postSeconds);
    const createdEmpty = warmUp.ok + empty.ok;
    ctx.log(`P5 at ${fmt(warmUp.ok)}: ${fmt(empty.rps)} creates/s`);
    await engine.stop();

    // Seeding: the create decisions appended straight into the stopped engine's store (seed-store.ts).
    const toSeed = Math.max(0, sizes.resources - createdEmpty);
    const seedSeconds = await seedClusters(dataDir, shippedConfig.DECOM_ENTITIES_FILE, toSeed, (i) => {
      const body = JSON.parse(createBody('seed')()) as SeedCluster;
      return { name: `${body.name}-${i}`, spec: body.spec, labels: body.labels };
    });
    const projectStarted = performance.now();
    engine = await startDecom('api', { label: 'decom api (P3-P5 at 20k)', dir, dataDir, env: sweepOff, profile: ctx.profile });
    const expected = createdEmpty + toSeed;
    await until(
      `${expected} clusters listed`,
      async () => JSON.parse(await fetchText(`${base(engine)}/clusters?size=1`)).total >= expected,
      300_000,
      100,
    );
    const projectSeconds = secondsSince(projectStarted);
    // The start's recovery sweep walks every resource once (O(n), once per start, not per create): P5 measures
    // the request path after it, as P6 does (`metrics:` is logged once it is done).
    await engine.waitForLog(/"msg":"metrics: /, 300_000);
    ctx.log(
      `seeded ${fmt(toSeed)} clusters in ${fmt(seedSeconds, 1)} s; engine started and projected them in ${fmt(projectSeconds, 1)} s, recovery sweep done after ${fmt(secondsSince(projectStarted), 1)} s`,
    );
    if (!ctx.quick) await post('warm-full', 1);
    const full = await post('full', sizes.postSeconds);
    const total = JSON.parse(await fetchText(`${base(engine)}/clusters?size=1`)).total as number;
    ctx.log(`P5 at ${fmt(total)}: ${fmt(full.rps)} creates/s`);

    // The bodies the bare route answers: exactly the engine's.
    const listed = JSON.parse(await fetchText(`${base(engine)}/clusters?size=1`)) as { items: { id: string }[] };
    const id = listed.items[0]!.id;
    const routes = {
      get: `${base(engine)}/clusters/${id}`,
      list: `${base(engine)}/clusters?size=20`,
      search: `${base(engine)}/clusters?size=20&search=${encodeURIComponent(SEARCH)}`,
      order: `${base(engine)}/clusters?size=20&order=${encodeURIComponent(ORDER)}`,
    };
    const bodies: Record<string, unknown> = {};
    for (const [name, url] of Object.entries(routes)) bodies[`/${name}`] = JSON.parse(await fetchText(url));
    const searchTotal = (bodies['/search'] as { total: number }).total;
    if (searchTotal === 0 || searchTotal >= total) throw new Error(`bench: search ${SEARCH} matched ${searchTotal} of ${total}`);
    const routesFile = join(dir, 'bare-routes.json');
    await writeFile(routesFile, JSON.stringify(bodies));
    const barePort = await freePort();
    bare = spawnNode(['dist/test/bench/support/bare-server.js', String(barePort), routesFile], { label: 'bare Fastify route', dir });
    await bare.waitForLog(/bare server listening/);
    const bareUrl = (name: string) => `http://127.0.0.1:${barePort}/${name}`;

    const get = (url: string) => () => load({ url, connections: sizes.connections, seconds: sizes.seconds, headers: HEADERS });
    // Warm-up (JIT, prepared statements, connection pools): one short run each.
    const settle = () => drain(`${engine.url}/healthz`);
    // (--quick checks only that each request works: no warm-up.)
    for (const name of ctx.quick ? [] : Object.keys(routes)) {
      await load({ url: routes[name as keyof typeof routes], connections: sizes.connections, seconds: 1, headers: HEADERS });
      await settle();
      await load({ url: bareUrl(name), connections: sizes.connections, seconds: 1 });
    }
    const p3 = await sideBySide(sizes.rounds, get(routes.get), get(bareUrl('get')), settle);
    ctx.log(`P3: ${fmt(p3.engine.rps)} req/s (p99 ${p3.engine.p99Ms} ms) vs bare ${fmt(p3.bare.rps)}`);
    const p4: Record<'list' | 'search' | 'order', { engine: LoadResult; bare: LoadResult }> = {} as never;
    for (const name of ['list', 'search', 'order'] as const) {
      p4[name] = await sideBySide(sizes.rounds, get(routes[name]), get(bareUrl(name)), settle);
      ctx.log(`P4 ${name}: ${fmt(p4[name].engine.rps)} req/s (p99 ${p4[name].engine.p99Ms} ms) vs bare ${fmt(p4[name].bare.rps)}`);
    }
    await settle();
    const afterLoad = await engine.probe(true);
    // Baseline for P6: the same engine idle, no sweep due (1 h interval), for the same window.
    await sleep(sizes.stallWindowS * 1000);
    const idle = await engine.probe();
    const idleCpuMs = idle.cpuMs - afterLoad.cpuMs;
    const stopped = await engine.stop();
    if (stopped.profile && (p3.engine.rps < 0.6 * p3.bare.rps || Object.values(p4).some((r) => r.engine.rps < 0.25 * r.bare.rps)))
      profiles.push(...formatProfile(engine.label, stopped.profile));

    // P6: the same data, a sweep every sweepIntervalMs.
    engine = await startDecom('api', {
      label: 'decom api (P6 sweeper)',
      dir,
      dataDir,
      env: { DECOM_SWEEP_INTERVAL_MS: String(sizes.sweepIntervalMs) },
      profile: ctx.profile,
    });
    // `metrics:` is logged after the start's recovery sweep: the window holds only periodic sweeps.
    await engine.waitForLog(/"msg":"metrics: /);
    const windowStart = await engine.probe(true);
    await sleep(sizes.stallWindowS * 1000);
    const swept = await engine.probe();
    const sweepCpuMs = swept.cpuMs - windowStart.cpuMs;
    ctx.log(
      `P6: max stall ${fmt(swept.loopDelay.maxMs, 1)} ms with sweeps (CPU ${fmt(sweepCpuMs)} ms), ${fmt(idle.loopDelay.maxMs, 1)} ms idle`,
    );
    const p6Stopped = await engine.stop();
    if (p6Stopped.profile && swept.loopDelay.maxMs > 50) profiles.push(...formatProfile(engine.label, p6Stopped.profile));

    const ratio = (r: { engine: LoadResult; bare: LoadResult }) => r.engine.rps / r.bare.rps;
    const reqs = (n: number) => `${fmt(n)} req/s`;
    ctx.target({
      id: 'P3',
      measure: 'GET one cluster, 50 connections',
      figure: reqs(p3.engine.rps),
      ceiling: `${reqs(p3.bare.rps)} (bare)`,
      ratio: pct(ratio(p3)),
      target: `≥ ${P3_SHARE_OF_BARE * 100} % of bare`,
      met: ratio(p3) >= P3_SHARE_OF_BARE,
    });
    ctx.target({
      id: 'P3',
      measure: 'GET one cluster p99',
      figure: `${fmt(p3.engine.p99Ms)} ms`,
      ceiling: `${fmt(p3.bare.p99Ms)} ms (bare)`,
      ratio: '—',
      target: '≤ 50 ms',
      met: p3.engine.p99Ms <= 50,
    });
    const labels = { list: 'LIST size=20', search: `LIST size=20 search=${SEARCH}`, order: `LIST size=20 order=${ORDER}` };
    for (const name of ['list', 'search', 'order'] as const) {
      const r = p4[name];
      ctx.target({
        id: 'P4',
        measure: `${labels[name]} over ${thousands(total)}`,
        figure: `${reqs(r.engine.rps)}, p99 ${fmt(r.engine.p99Ms)} ms`,
        ceiling: `${reqs(r.bare.rps)} (bare)`,
        ratio: pct(ratio(r)),
        target: '≥ 25 % of bare, p99 ≤ 100 ms',
        met: ratio(r) >= 0.25 && r.engine.p99Ms <= 100,
      });
    }
    ctx.target({
      id: 'P5',
      measure: `POST create at ${thousands(total)} vs at 0`,
      figure: `${fmt(full.rps)} /s`,
      ceiling: `${fmt(empty.rps)} /s (at 0)`,
      ratio: pct(full.rps / empty.rps),
      target: '≥ 90 % of the empty-store rate',
      met: full.rps / empty.rps >= 0.9,
    });
    ctx.target({
      id: 'P6',
      measure: `event-loop stall, idle engine, ${thousands(total)} resources, sweeps every ${fmt(sizes.sweepIntervalMs / 1000, 1)} s`,
      figure: `${fmt(swept.loopDelay.maxMs)} ms max`,
      ceiling: `${fmt(idle.loopDelay.maxMs)} ms (no sweep)`,
      ratio: '—',
      target: '≤ 50 ms',
      met: swept.loopDelay.maxMs <= 50,
    });
    ctx.target({
      id: 'P8',
      measure: 'RSS after P3/P4: decom api with 20k resources',
      figure: mb(afterLoad.rss),
      ceiling: '—',
      ratio: '—',
      target: '≤ 300 MB',
      met: afterLoad.rss <= 300 * 2 ** 20,
    });

    const row = (name: string, r: { engine: LoadResult; bare: LoadResult }) =>
      `| ${name} | **${fmt(r.engine.rps)}** | ${fmt(r.engine.p50Ms)} | **${fmt(r.engine.p99Ms)}** | ${fmt(r.bare.rps)} | ${fmt(r.bare.p99Ms)} | **${pct(ratio(r))}** | ${fmt(r.engine.bytesPerAnswer)} / ${fmt(r.bare.bytesPerAnswer)} |`;
    return [
      '## HTTP API under load: GET, LIST, POST, sweeper stall (P3-P6)',
      '',
      '`decom api` (SQLite, in-process queue, no adapters) as a child process (`node bin/decom.js api`, access log at `info` to a file);',
      `load from [autocannon](https://github.com/mcollina/autocannon) 8.0.0 in the bench process, ${sizes.connections} keep-alive connections, ${sizes.seconds} s per run,`,
      `best of ${sizes.rounds} runs, engine and bare route interleaved, after a warm-up run of 1 s each. Ceiling: a bare Fastify 5 route in a third process`,
      'answering the very JSON document the engine answered (serialised per request); the last column compares body bytes per answer.',
      `Store: ${fmt(total)} clusters (labels \`env\` in ${ENVS.join('/')}, a quarter each): ${fmt(createdEmpty)} POSTed by P5 on the empty store, ${fmt(toSeed)} seeded`,
      `while the engine was stopped (the POST's create decision and append, straight into its SQLite file: ${fmt(seedSeconds, 1)} s), projected by the restarted`,
      `engine in ${fmt(projectSeconds, 1)} s (start to listing them all), then, once the start's recovery sweep was done, P5's second run. The sweeper is off (1 h interval) for P3-P5.`,
      '',
      '| request (P3, P4) | engine req/s | p50 ms | p99 ms | bare req/s | bare p99 ms | engine / bare | bytes per answer (engine / bare) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      row('GET /clusters/{id}', p3),
      row('GET /clusters?size=20', p4.list),
      row(`GET /clusters?size=20&search=${SEARCH} (${fmt(searchTotal)} match)`, p4.search),
      row(`GET /clusters?size=20&order=${ORDER}`, p4.order),
      '',
      `**P5**: POST /clusters, ${sizes.postConnections} connections, ${sizes.postSeconds} s, each after a warm-up run: **${fmt(empty.rps)}/s** on the empty store (${fmt(warmUp.ok)} clusters after the warm-up; p99 ${fmt(empty.p99Ms)} ms), **${fmt(full.rps)}/s** at ${fmt(total)} clusters (p99 ${fmt(full.p99Ms)} ms): **${pct(full.rps / empty.rps)}**.`,
      '',
      `**P6**: the engine restarted on the same data with \`DECOM_SWEEP_INTERVAL_MS=${sizes.sweepIntervalMs}\`; after the start's recovery sweep, ${sizes.stallWindowS} s`,
      `(${Math.floor((sizes.stallWindowS * 1000) / sizes.sweepIntervalMs)} sweeps of every resource) measured by \`perf_hooks.monitorEventLoopDelay\` (5 ms resolution) inside the engine process:`,
      `longest stall **${fmt(swept.loopDelay.maxMs, 1)} ms**, p99 ${fmt(swept.loopDelay.p99Ms, 1)} ms, engine CPU ${fmt(sweepCpuMs)} ms in the window. Same window on the idle engine`,
      `before the restart (no sweep due): longest ${fmt(idle.loopDelay.maxMs, 1)} ms, CPU ${fmt(idleCpuMs)} ms.`,
      '',
      `**P8**: engine RSS (\`process.memoryUsage().rss\` of the \`decom api\` process) after P3/P4 with ${fmt(total)} clusters: **${mb(afterLoad.rss)}** (heap used ${mb(afterLoad.heapUsed)}).`,
      ...(profiles.length > 0 ? ['', 'Where the time goes (targets missed):', ...profiles] : []),
    ].join('\n');
  } finally {
    await bare?.stop();
    await engine.stop();
  }
}
