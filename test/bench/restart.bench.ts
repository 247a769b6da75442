/**
 * P9: a restarted `decom api` behind the log accepts writes within 10 s. On SQLite and on PostgreSQL:
 * `decom api` started on an empty store and stopped (the ceiling: spawn → first accepted POST with nothing to
 * catch up), then 20,000 `ResourceCreated` appended while no engine runs (seed-store.ts: the create decisions
 * the API makes, straight into the store), then `decom api` started again on the same store: seconds from the
 * spawn to the first `POST /clusters` answered 201 (polled every 25 ms; refused connections and 503s are
 * retried), the read models' lag `/readyz` reports right after it, and the seconds until `/readyz` is 200 (the
 * backlog applied).
 * PostgreSQL is a throw-away local cluster (test/support/postgres.ts) unless DATABASE_URL is set.
 */
import { join } from 'node:path';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry } from '@decom/domain';
import { PostgresEventStore } from '@decom/event-store';
import { usePostgres } from '../support/postgres.js';
import { freePort } from '../support/free-port.js';
import { spawnNode, type BenchChild } from './support/child.js';
import type { BenchContext } from './support/context.js';
import { shippedConfig } from './support/decom.js';
import { seedClusters, seedClustersInto, type SeedCluster } from './support/seed-store.js';
import { fmt, loadAverage, secondsSince, sleep } from './support/util.js';

const FULL_BACKLOG = 20_000;
const QUICK_BACKLOG = 1_000;
const TARGET_SECONDS = 10;

interface Restart {
  /** Spawn → first POST answered 201. */
  readonly writeSeconds: number;
  /** The projections' lag `/readyz` reported right after that answer (events). */
  readonly lagAtWrite: number | undefined;
  /** Spawn → `/readyz` 200 (read models caught up). */
  readonly readySeconds: number;
}

interface Backend {
  readonly name: string;
  readonly empty: Restart;
  readonly behind: Restart;
  readonly backlog: number;
  readonly seedSeconds: number;
}

const seedCluster = (i: number): SeedCluster => ({ name: `backlog-${i}`, spec: { region: 'eu' }, labels: { env: 'bench' } });

/** Starts `decom api`, measures the restart, stops it. @throws Error with the child's log when no write is accepted within 120 s. */
async function restart(ctx: BenchContext, label: string, dataDir: string, env: Record<string, string>, tag: string): Promise<Restart> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawnNode(['bin/decom.js', 'api'], {
    label,
    dir: ctx.dir,
    profile: ctx.profile,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DECOM_DATA_DIR: dataDir,
      DECOM_METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      DECOM_SWEEP_INTERVAL_MS: '3600000',
      ...shippedConfig,
      ...env,
    },
  });
  try {
    const writeSeconds = await firstAcceptedWrite(child, url, started, tag);
    const lagAtWrite = await projectionsLag(url);
    const deadline = performance.now() + 300_000;
    while (
      (await fetch(`${url}/readyz`)
        .then((r) => (void r.arrayBuffer(), r.status))
        .catch(() => 0)) !== 200
    ) {
      if (performance.now() > deadline) throw new Error(`bench: ${label}: /readyz not 200 within 300 s:\n${child.log()}`);
      await sleep(25);
    }
    return { writeSeconds, lagAtWrite, readySeconds: secondsSince(started) };
  } finally {
    await child.stop();
  }
}

async function firstAcceptedWrite(child: BenchChild, url: string, started: number, tag: string): Promise<number> {
  const deadline = started + 120_000;
  let exited: number | string | undefined;
  void child.exited.then((value) => (exited = value));
  for (let attempt = 0; ; attempt++) {
    const status = await fetch(`${url}/api/hyperfleet/v1/clusters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hyperfleet-identity': 'bench@example.com' },
      body: JSON.stringify({ kind: 'Cluster', name: `${tag}-${attempt}`, spec: {} }),
    })
      .then(async (r) => (await r.arrayBuffer(), r.status))
      .catch(() => 0);
    if (status === 201) return secondsSince(started);
    if (status !== 0 && status !== 503) throw new Error(`bench: POST /clusters answered ${status} during the restart:\n${child.log()}`);
    if (exited !== undefined) throw new Error(`bench: ${child.label} exited (${exited}):\n${child.log()}`);
    if (performance.now() > deadline) throw new Error(`bench: ${child.label}: no write accepted within 120 s:\n${child.log()}`);
    await sleep(25);
  }
}

async function projectionsLag(url: string): Promise<number | undefined> {
  const report = (await (await fetch(`${url}/readyz`)).json()) as { checks?: { loops?: { name: string; lag_events?: number }[] } };
  return report.checks?.loops?.find((loop) => loop.name === 'projections')?.lag_events;
}

export default async function restartBench(ctx: BenchContext): Promise<string> {
  const backlog = ctx.quick ? QUICK_BACKLOG : FULL_BACKLOG;
  const kinds = new KindRegistry(await loadEntitiesConfig(shippedConfig.DECOM_ENTITIES_FILE));
  const loadAtStart = loadAverage();
  const backends: Backend[] = [];

  const sqliteDir = join(ctx.dir, 'sqlite');
  const sqliteEmpty = await restart(ctx, 'decom api (SQLite, empty)', sqliteDir, {}, 'empty');
  const sqliteSeed = await seedClusters(sqliteDir, shippedConfig.DECOM_ENTITIES_FILE, backlog, seedCluster);
  const sqliteBehind = await restart(ctx, 'decom api (SQLite, behind)', sqliteDir, {}, 'behind');
  backends.push({ name: 'SQLite', empty: sqliteEmpty, behind: sqliteBehind, backlog, seedSeconds: sqliteSeed });
  ctx.log(
    `SQLite: first write ${fmt(sqliteBehind.writeSeconds, 2)} s after a restart ${fmt(backlog)} behind (lag then ${sqliteBehind.lagAtWrite ?? 'n/a'}), caught up after ${fmt(sqliteBehind.readySeconds, 1)} s; empty store ${fmt(sqliteEmpty.writeSeconds, 2)} s`,
  );

  const postgres = await usePostgres();
  const schema = await postgres.newSchema();
  try {
    const pgEnv = { DECOM_EVENT_STORE: 'postgres', DATABASE_URL: postgres.connectionString, DECOM_PG_SCHEMA: schema };
    const pgDir = join(ctx.dir, 'postgres');
    const pgEmpty = await restart(ctx, 'decom api (PostgreSQL, empty)', pgDir, pgEnv, 'empty');
    const store = new PostgresEventStore({ connectionString: postgres.connectionString, schema });
    let pgSeed: number;
    try {
      await store.init();
      pgSeed = await seedClustersInto(store, kinds, backlog, seedCluster);
    } finally {
      await store.close();
    }
    const pgBehind = await restart(ctx, 'decom api (PostgreSQL, behind)', pgDir, pgEnv, 'behind');
    backends.push({ name: 'PostgreSQL', empty: pgEmpty, behind: pgBehind, backlog, seedSeconds: pgSeed });
    ctx.log(
      `PostgreSQL: first write ${fmt(pgBehind.writeSeconds, 2)} s after a restart ${fmt(backlog)} behind (lag then ${pgBehind.lagAtWrite ?? 'n/a'}), caught up after ${fmt(pgBehind.readySeconds, 1)} s; empty store ${fmt(pgEmpty.writeSeconds, 2)} s`,
    );
  } finally {
    await postgres.dropSchema(schema);
    await postgres.stop();
  }

  for (const b of backends) {
    ctx.target({
      id: 'P9',
      measure: `restart ${fmt(b.backlog)} events behind → first accepted write (${b.name})`,
      figure: `${fmt(b.behind.writeSeconds, 1)} s`,
      ceiling: `${fmt(b.empty.writeSeconds, 1)} s (0 behind)`,
      ratio: `${fmt(b.behind.writeSeconds / b.empty.writeSeconds, 1)} ×`,
      target: `≤ ${TARGET_SECONDS} s`,
      met: b.behind.writeSeconds <= TARGET_SECONDS,
    });
  }
  return [
    '## Restart behind the log (P9)',
    '',
    '`decom api` (no adapters) started on a store with events its read models have not applied: 20,000 `ResourceCreated`',
    'appended while no engine ran (the create decisions the API makes, straight into the store). Times from the spawn of',
    '`node bin/decom.js api`; the first accepted write is the first `POST /clusters` answered 201 (polled every 25 ms);',
    'the lag is what `/readyz` reported for the projections right after it (> 0: the write did not wait for the backlog).',
    'Ceiling: the same start on the store before the backlog was appended (nothing to catch up).',
    `Load average when the scenario started: ${loadAtStart} (the box may be shared: compare ratios, not absolutes).`,
    '',
    '| store | backlog (events) | seeding | first accepted write | projections lag then | read models caught up (`/readyz` 200) | ceiling: first write, 0 behind |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...backends.map(
      (b) =>
        `| ${b.name} | ${fmt(b.backlog)} | ${fmt(b.seedSeconds, 1)} s | **${fmt(b.behind.writeSeconds, 2)} s** | ${b.behind.lagAtWrite === undefined ? 'n/a' : fmt(b.behind.lagAtWrite)} | ${fmt(b.behind.readySeconds, 1)} s | ${fmt(b.empty.writeSeconds, 2)} s |`,
    ),
    '',
    `- Target: ≤ ${TARGET_SECONDS} s from the restart to the first accepted write with 20,000 events behind. Commands decide from the event store;`,
    "  the reads a decision needs exact (a DELETE's referrers and budget, `references` targets, a child's stream) wait for the read models to reach",
    '  the head seen when they ask (bounded: `503` past it), and answers come from the decided state until the backlog is applied.',
  ].join('\n');
}
