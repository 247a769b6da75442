/**
 * Projection throughput per read-model backend: the engine's projections (resource view + audit) applied to
 * a recorded deletion history copied many times, in three ways, each next to its ceiling in the same run:
 * - catch-up: a runner started on a log it has not seen (a restarted `decom api` behind the log),
 * - rebuild: `ProjectionRunner.rebuild()` over the same log (`decom projections rebuild`),
 * - live: events appended one at a time while the runner follows `$all`, the last one awaited.
 * The ceiling is the event store's own `readAll` of the same log (a projection cannot apply faster than it
 * reads). Each tree is test/fixtures/histories/create-delete-hard-delete.json (a cluster and two nodepools,
 * created, deleted, reported Finalized, hard-deleted: 24 events) with fresh ids; every other tree stops
 * before its DeletionRequested, so the read model ends with live rows as well as hard-deleted ones.
 * PostgreSQL is a throw-away local cluster (test/support/postgres.ts) unless DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KindRegistry, type KindDescriptor } from '@decom/domain';
import { PostgresEventStore, SqliteEventStore, type EventStore, type NewEvent, type RecordedEvent } from '@decom/event-store';
import {
  AuditProjection,
  PostgresReadModelStore,
  ProjectionRunner,
  ResourceViewProjection,
  SqliteReadModelStore,
  type ReadModelStore,
} from '@decom/projections';
import { usePostgres } from '../support/postgres.js';
import type { BenchContext } from './support/context.js';
import { fmt, loadAverage } from './support/util.js';

/** Catch-up and rebuild targets (events/s), per store: what a restart or `decom projections rebuild` must sustain. */
const TARGET_EVENTS_PER_SECOND = { sqlite: 20_000, postgres: 3_000 } as const;
const FULL_TREES = { sqlite: 800, postgres: 400 } as const;
const QUICK_TREES = { sqlite: 20, postgres: 10 } as const;
const FULL_LIVE = { sqlite: 40, postgres: 20 } as const;
const QUICK_LIVE = { sqlite: 2, postgres: 2 } as const;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

interface History {
  readonly kinds: readonly KindDescriptor[];
  readonly events: readonly RecordedEvent[];
}

function loadHistory(): History {
  const file = resolve('test/fixtures/histories/create-delete-hard-delete.json');
  return JSON.parse(readFileSync(file, 'utf8')) as History;
}

/** One copy of the history: every UUID (resource ids, event ids, trace ids) replaced by a fresh one, names made unique. */
function copyOf(history: History, copy: number, full: boolean): { stream: string; events: NewEvent[] } {
  const fresh = new Map<string, string>();
  const text = JSON.stringify(history.events).replace(UUID, (id) => {
    let replaced = fresh.get(id);
    if (!replaced) fresh.set(id, (replaced = randomUUID()));
    return replaced;
  });
  const recorded = JSON.parse(text) as RecordedEvent[];
  const firstDelete = recorded.findIndex((e) => e.type === 'DeletionRequested');
  const kept = full ? recorded : recorded.slice(0, firstDelete);
  const events = kept.map((e) => {
    const data = { ...(e.data as Record<string, unknown>) };
    if (e.type === 'ResourceCreated') data['name'] = `${String(data['name']).slice(0, 8)}-${copy}`;
    return { id: e.id, type: e.type, data, metadata: e.metadata };
  });
  return { stream: recorded[0]!.stream, events };
}

/** Appends `trees` copies, one append per event (as the command handlers record them); returns the event count. */
async function seed(store: EventStore, history: History, trees: number): Promise<number> {
  let count = 0;
  for (let copy = 0; copy < trees; copy++) {
    const { stream, events } = copyOf(history, copy, copy % 2 === 0);
    for (const event of events) await store.append(stream, [event]);
    count += events.length;
  }
  return count;
}

/** Wall seconds of `run`, and the CPU ms (user + system) this process spent meanwhile (its store driver and projections). */
async function timed(run: () => Promise<void>): Promise<{ seconds: number; cpuMs: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await run();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuMs: (used.user + used.system) / 1000 };
}

interface Figures {
  readonly events: number;
  /** Events per second. */
  readonly readAll: number;
  readonly catchUp: number;
  readonly rebuild: number;
  readonly liveEvents: number;
  readonly live: number;
  /** CPU ms of the bench process per 1,000 events (steadier than rates on a shared box). */
  readonly cpu: { readonly catchUp: number; readonly rebuild: number };
}

async function measure(
  store: EventStore,
  readModels: ReadModelStore,
  history: History,
  trees: number,
  liveTrees: number,
): Promise<Figures> {
  const kinds = new KindRegistry([...history.kinds]);
  const events = await seed(store, history, trees);
  const { seconds: readAll } = await timed(async () => {
    for (let after = 0, page: RecordedEvent[]; (page = await store.readAll({ afterPosition: after, maxCount: 500 })).length > 0;)
      after = page[page.length - 1]!.position;
  });
  const runner = new ProjectionRunner(store, readModels, [new ResourceViewProjection(kinds), new AuditProjection()]);
  const head = await store.headPosition();
  const catchUp = await timed(async () => {
    await runner.start();
    await runner.waitFor(head, 600_000);
  });
  const before = await store.headPosition();
  let liveEvents = 0;
  const { seconds: live } = await timed(async () => {
    liveEvents = await seed(store, history, liveTrees);
    await runner.waitFor(before + liveEvents, 600_000);
  });
  await runner.stop();
  const rebuild = await timed(() => runner.rebuild());
  const rebuilt = events + liveEvents;
  return {
    events,
    readAll: events / readAll,
    catchUp: events / catchUp.seconds,
    rebuild: rebuilt / rebuild.seconds,
    liveEvents,
    live: liveEvents / live,
    cpu: { catchUp: (catchUp.cpuMs / events) * 1000, rebuild: (rebuild.cpuMs / rebuilt) * 1000 },
  };
}

function rows(backend: string, f: Figures): string[] {
  const rate = (n: number) => fmt(n);
  const ratio = (n: number) => `${((n / f.readAll) * 100).toFixed(1)} %`;
  return [
    `| ${backend} | catch-up, ${fmt(f.events)} events behind | ${rate(f.catchUp)} | ${rate(f.readAll)} | ${ratio(f.catchUp)} | ${fmt(f.cpu.catchUp)} ms |`,
    `| ${backend} | rebuild, ${fmt(f.events + f.liveEvents)} events | ${rate(f.rebuild)} | ${rate(f.readAll)} | ${ratio(f.rebuild)} | ${fmt(f.cpu.rebuild)} ms |`,
    `| ${backend} | live, ${fmt(f.liveEvents)} events appended one at a time (append + apply) | ${rate(f.live)} | ${rate(f.readAll)} | ${ratio(f.live)} | |`,
  ];
}

export default async function projectionsBench(ctx: BenchContext): Promise<string> {
  const trees = ctx.quick ? QUICK_TREES : FULL_TREES;
  const liveTrees = ctx.quick ? QUICK_LIVE : FULL_LIVE;
  const history = loadHistory();
  const loadAtStart = loadAverage();
  const lines: string[] = [];

  const folder = mkdtempSync(join(tmpdir(), 'decom-bench-projections-'));
  let sqlite: Figures;
  try {
    const store = new SqliteEventStore(join(folder, 'decom.sqlite'));
    try {
      sqlite = await measure(store, new SqliteReadModelStore(store.database), history, trees.sqlite, liveTrees.sqlite);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  ctx.log(`SQLite: catch-up ${fmt(sqlite.catchUp)} events/s, rebuild ${fmt(sqlite.rebuild)} events/s, live ${fmt(sqlite.live)} events/s`);
  lines.push(...rows('SQLite', sqlite));

  const postgres = await usePostgres();
  let pgFigures: Figures;
  const schema = await postgres.newSchema();
  try {
    const store = new PostgresEventStore({ connectionString: postgres.connectionString, schema });
    const readModels = new PostgresReadModelStore({ connectionString: postgres.connectionString, schema });
    try {
      await store.init();
      pgFigures = await measure(store, readModels, history, trees.postgres, liveTrees.postgres);
    } finally {
      await store.close();
      await readModels.close();
    }
  } finally {
    await postgres.dropSchema(schema);
    await postgres.stop();
  }
  const pgCatchUp = pgFigures.catchUp;
  ctx.log(
    `PostgreSQL: catch-up ${fmt(pgFigures.catchUp)} events/s, rebuild ${fmt(pgFigures.rebuild)} events/s, live ${fmt(pgFigures.live)} events/s`,
  );
  lines.push(...rows('PostgreSQL', pgFigures));
  judge(ctx, 'SQLite', sqlite, TARGET_EVENTS_PER_SECOND.sqlite);
  judge(ctx, 'PostgreSQL', pgFigures, TARGET_EVENTS_PER_SECOND.postgres);

  return [
    '## Projections',
    '',
    "The engine's projections (resource view, audit) applied by `ProjectionRunner` to copies of the recorded history",
    '`create-delete-hard-delete.json` (cluster + 2 nodepools, 24 events; every other copy stops before its DELETE).',
    `Load average when the scenario started: ${loadAtStart} (the box may be shared: compare ratios, not absolutes).`,
    '',
    '| backend | measure | events/s | ceiling: `readAll` of the same log (events/s) | ratio | CPU of the applying process per 1,000 events |',
    '|---|---|---:|---:|---:|---:|',
    ...lines,
    '',
    `- Targets: catch-up and rebuild ≥ ${fmt(TARGET_EVENTS_PER_SECOND.postgres)} events/s on PostgreSQL, ≥ ${fmt(TARGET_EVENTS_PER_SECOND.sqlite)} events/s on SQLite (P10).`,
    '- Live: each event is its own append (one command each), so the figure includes the append; the runner follows `$all`.',
    "- CPU: user + system time of the bench process (event-store reads, projections, driver); on PostgreSQL the server's own CPU is not in it.",
    `- A restarted \`decom api\` applies a 20,000-event backlog in ${fmt(20_000 / pgCatchUp, 1)} s at the PostgreSQL catch-up rate above; it accepts writes meanwhile (P9, restart.bench.ts), but a DELETE waits for it.`,
  ].join('\n');
}

/** P10 rows of the Targets table: catch-up and rebuild of one store against its target, `readAll` as the ceiling. */
function judge(ctx: BenchContext, backend: string, f: Figures, target: number): void {
  for (const [measure, rate] of [
    ['catch-up', f.catchUp],
    ['rebuild', f.rebuild],
  ] as const) {
    ctx.target({
      id: 'P10',
      measure: `projections ${measure} (${backend})`,
      figure: `${fmt(rate)} events/s`,
      ceiling: `${fmt(f.readAll)} events/s (readAll)`,
      ratio: `${((rate / f.readAll) * 100).toFixed(1)} %`,
      target: `≥ ${fmt(target)} events/s`,
      met: rate >= target,
    });
  }
}
