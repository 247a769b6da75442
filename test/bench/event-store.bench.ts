/**
 * Event-store throughput per backend, each next to its raw driver on the same table shape in the same run:
 * appends/s (1 event per append, and batches of 10) and replay events/s (`readAll` in pages of 1000).
 * The raw rates are ceilings: a prepared better-sqlite3 INSERT in a transaction, a plain `pg` INSERT
 * (multi-row for batches) and a keyset `SELECT`. The ratio store/raw is the figure to watch.
 * PostgreSQL is a throw-away local cluster (test/support/postgres.ts: fsync off) unless DATABASE_URL is set;
 * EventStoreDB runs only with EVENTSTORE_CONNECTION_STRING.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { EventStoreDBClient, FORWARDS, START, jsonEvent } from '@eventstore/db-client';
import { EsdbEventStore, PostgresEventStore, SqliteEventStore, type EventStore } from '@decom/event-store';
import { usePostgres } from '../support/postgres.js';
import type { BenchContext } from './support/context.js';

/** Sizes keep the whole bench well under a minute on 2 cores; `--quick` only checks that each path runs. */
const FULL_SIZES = {
  sqlite: { single: 5000, batches: 1000 },
  postgres: { single: 1500, batches: 400 },
  esdb: { single: 1000, batches: 300 },
} as const;
const QUICK_SIZES = {
  sqlite: { single: 100, batches: 20 },
  postgres: { single: 50, batches: 10 },
  esdb: { single: 20, batches: 5 },
} as const;
const STREAMS = 50;
const PAGE = 1000;

/** A Decom-sized event: a DeletionRequested-like payload and the caller metadata. */
function payload(i: number) {
  return {
    data: {
      id: randomUUID(),
      kind: 'Cluster',
      generation: 2,
      deleted_time: new Date(1_700_000_000_000 + i).toISOString(),
      deleted_by: 'bench@example.com',
      deletion_policy: 'Delete',
    },
    metadata: { caller: 'bench@example.com', schema_version: 2 },
  };
}

interface Rates {
  readonly single: number;
  readonly batch: number;
  readonly replay: number;
}

async function rate(events: number, run: () => Promise<void> | void): Promise<number> {
  const startedAt = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  return events / seconds;
}

/** Appends through the port with exact expected revisions (as the command handlers do), then replays. */
async function measureStore(store: EventStore, sizes: { single: number; batches: number }): Promise<Rates> {
  const revisions = new Map<string, number>();
  const append = async (i: number, count: number) => {
    const stream = `cluster-bench-${i % STREAMS}`;
    const events = Array.from({ length: count }, (_, n) => ({ id: randomUUID(), type: 'DeletionRequested', ...payload(i * 10 + n) }));
    const result = await store.append(stream, events, { expectedRevision: revisions.get(stream) ?? 'no_stream' });
    revisions.set(stream, result.nextExpectedRevision);
  };
  const single = await rate(sizes.single, async () => {
    for (let i = 0; i < sizes.single; i += 1) await append(i, 1);
  });
  const batch = await rate(sizes.batches * 10, async () => {
    for (let i = 0; i < sizes.batches; i += 1) await append(i, 10);
  });
  const total = sizes.single + sizes.batches * 10;
  let seen = 0;
  const replay = await rate(total, async () => {
    let after = 0;
    for (;;) {
      const page = await store.readAll({ afterPosition: after, maxCount: PAGE });
      seen += page.length;
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.position;
    }
  });
  if (seen !== total) throw new Error(`replay saw ${seen} events, expected ${total}`);
  return { single, batch, replay };
}

const RAW_COLUMNS = 'id, stream, revision, type, data, metadata, recorded_time';

function measureRawSqlite(file: string, sizes: { single: number; batches: number }): Promise<Rates> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE raw (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_time TEXT NOT NULL, UNIQUE (stream, revision))`);
  const insert = db.prepare(`INSERT INTO raw (${RAW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const revisions = new Map<string, number>();
  // Same streams as the store's run: append i goes to stream i % STREAMS, all its events together.
  const row = (i: number, n: number) => {
    const stream = `cluster-bench-${i % STREAMS}`;
    const revision = (revisions.get(stream) ?? -1) + 1;
    revisions.set(stream, revision);
    const { data, metadata } = payload(i * 10 + n);
    insert.run(
      randomUUID(),
      stream,
      revision,
      'DeletionRequested',
      JSON.stringify(data),
      JSON.stringify(metadata),
      new Date().toISOString(),
    );
  };
  // IMMEDIATE, as the store's append transactions (a writer takes the lock up front).
  const writeOne = db.transaction((i: number) => row(i, 0)).immediate;
  const writeTen = db.transaction((i: number) => {
    for (let n = 0; n < 10; n += 1) row(i, n);
  }).immediate;
  const page = db.prepare(`SELECT position, ${RAW_COLUMNS} FROM raw WHERE position > ? ORDER BY position LIMIT ?`);
  return (async () => {
    const single = await rate(sizes.single, () => {
      for (let i = 0; i < sizes.single; i += 1) writeOne(i);
    });
    const batch = await rate(sizes.batches * 10, () => {
      for (let i = 0; i < sizes.batches; i += 1) writeTen(i);
    });
    const replay = await rate(sizes.single + sizes.batches * 10, () => {
      let after = 0;
      for (;;) {
        const rows = page.all(after, PAGE) as Array<{ position: number; data: string; metadata: string }>;
        for (const r of rows) (JSON.parse(r.data), JSON.parse(r.metadata));
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1]!.position;
      }
    });
    db.close();
    return { single, batch, replay };
  })();
}

async function measureRawPostgres(pool: pg.Pool, schema: string, sizes: { single: number; batches: number }): Promise<Rates> {
  const table = `${pg.escapeIdentifier(schema)}.raw`;
  await pool.query(`CREATE TABLE ${table} (position BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    type TEXT NOT NULL, data JSONB NOT NULL, metadata JSONB NOT NULL, recorded_time TIMESTAMPTZ NOT NULL, UNIQUE (stream, revision))`);
  const revisions = new Map<string, number>();
  const values = (i: number, n: number) => {
    const stream = `cluster-bench-${i % STREAMS}`;
    const revision = (revisions.get(stream) ?? -1) + 1;
    revisions.set(stream, revision);
    const { data, metadata } = payload(i * 10 + n);
    return [randomUUID(), stream, revision, 'DeletionRequested', JSON.stringify(data), JSON.stringify(metadata)];
  };
  const placeholders = (count: number) =>
    Array.from(
      { length: count },
      (_, r) =>
        `($${r * 6 + 1}, $${r * 6 + 2}, $${r * 6 + 3}, $${r * 6 + 4}, $${r * 6 + 5}::jsonb, $${r * 6 + 6}::jsonb, clock_timestamp())`,
    ).join(', ');
  const client = await pool.connect();
  try {
    const single = await rate(sizes.single, async () => {
      for (let i = 0; i < sizes.single; i += 1)
        await client.query(`INSERT INTO ${table} (${RAW_COLUMNS}) VALUES ${placeholders(1)}`, values(i, 0));
    });
    const batch = await rate(sizes.batches * 10, async () => {
      for (let i = 0; i < sizes.batches; i += 1) {
        const rows = Array.from({ length: 10 }, (_, n) => values(i, n)).flat();
        await client.query(`INSERT INTO ${table} (${RAW_COLUMNS}) VALUES ${placeholders(10)}`, rows);
      }
    });
    const replay = await rate(sizes.single + sizes.batches * 10, async () => {
      let after = 0;
      for (;;) {
        const { rows } = await client.query(
          `SELECT position, ${RAW_COLUMNS} FROM ${table} WHERE position > $1 ORDER BY position LIMIT $2`,
          [after, PAGE],
        );
        if (rows.length < PAGE) break;
        after = Number(rows[rows.length - 1].position);
      }
    });
    return { single, batch, replay };
  } finally {
    client.release();
  }
}

async function measureRawEsdb(client: EventStoreDBClient, prefix: string, sizes: { single: number; batches: number }): Promise<Rates> {
  const event = (i: number) => jsonEvent({ type: 'DeletionRequested', ...payload(i) });
  const single = await rate(sizes.single, async () => {
    for (let i = 0; i < sizes.single; i += 1) await client.appendToStream(`${prefix}.cluster-${i % STREAMS}`, event(i));
  });
  const batch = await rate(sizes.batches * 10, async () => {
    for (let i = 0; i < sizes.batches; i += 1) {
      await client.appendToStream(
        `${prefix}.cluster-${i % STREAMS}`,
        Array.from({ length: 10 }, (_, n) => event(i * 10 + n)),
      );
    }
  });
  const total = sizes.single + sizes.batches * 10;
  let seen = 0;
  const replay = await rate(total, async () => {
    for await (const resolved of client.readAll({ direction: FORWARDS, fromPosition: START })) {
      if (resolved.event?.streamId.startsWith(prefix)) seen += 1;
    }
  });
  if (seen !== total) throw new Error(`raw replay saw ${seen} events, expected ${total}`);
  return { single, batch, replay };
}

function table(rows: Array<{ backend: string; store: Rates; raw: Rates; rawLabel: string }>): string {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0)} %`;
  const lines = ['| backend | measure | Decom store (events/s) | raw driver (events/s) | store / raw |', '|---|---|---:|---:|---:|'];
  for (const { backend, store, raw, rawLabel } of rows) {
    lines.push(
      `| ${backend} | append, 1 event per append | ${fmt(store.single)} | ${fmt(raw.single)} | ${pct(store.single, raw.single)} |`,
    );
    lines.push(`| ${backend} | append, batches of 10 | ${fmt(store.batch)} | ${fmt(raw.batch)} | ${pct(store.batch, raw.batch)} |`);
    lines.push(
      `| ${backend} | replay (\`readAll\`, pages of ${PAGE}) | ${fmt(store.replay)} | ${fmt(raw.replay)} | ${pct(store.replay, raw.replay)} |`,
    );
    lines.push(`| ${backend} | raw baseline | | ${rawLabel} | |`);
  }
  return lines.join('\n');
}

/** Best of this many fresh runs per column, store and raw interleaved, so a busy moment on a shared box hits both. */
const FULL_ROUNDS = { sqlite: 3, postgres: 3, esdb: 1 } as const;
const QUICK_ROUNDS = { sqlite: 1, postgres: 1, esdb: 1 } as const;

function best(samples: readonly Rates[]): Rates {
  return {
    single: Math.max(...samples.map((s) => s.single)),
    batch: Math.max(...samples.map((s) => s.batch)),
    replay: Math.max(...samples.map((s) => s.replay)),
  };
}

export default async function eventStoreBench(ctx: BenchContext): Promise<string> {
  const SIZES = ctx.quick ? QUICK_SIZES : FULL_SIZES;
  const ROUNDS = ctx.quick ? QUICK_ROUNDS : FULL_ROUNDS;
  const loadAtStart = loadavg();
  const rows: Array<{ backend: string; store: Rates; raw: Rates; rawLabel: string }> = [];
  const notes: string[] = [];

  const folder = mkdtempSync(join(tmpdir(), 'decom-bench-'));
  try {
    const stores: Rates[] = [];
    const raws: Rates[] = [];
    for (let round = 0; round < ROUNDS.sqlite; round += 1) {
      // Alternate which goes first, so neither always inherits the other's garbage to collect.
      const runStore = async () => {
        const store = new SqliteEventStore(join(folder, `store-${round}.sqlite`));
        stores.push(await measureStore(store, SIZES.sqlite));
        await store.close();
      };
      const runRaw = async () => void raws.push(await measureRawSqlite(join(folder, `raw-${round}.sqlite`), SIZES.sqlite));
      if (round % 2 === 0) (await runStore(), await runRaw());
      else (await runRaw(), await runStore());
    }
    rows.push({
      backend: 'SQLite',
      store: best(stores),
      raw: best(raws),
      rawLabel: 'better-sqlite3 prepared INSERT, one transaction per append; keyset SELECT + JSON.parse',
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  const postgres = await usePostgres();
  const pool = new pg.Pool({ connectionString: postgres.connectionString, max: 4 });
  try {
    const stores: Rates[] = [];
    const raws: Rates[] = [];
    for (let round = 0; round < ROUNDS.postgres; round += 1) {
      const schema = await postgres.newSchema();
      const store = new PostgresEventStore({ pool, schema });
      await store.init();
      stores.push(await measureStore(store, SIZES.postgres));
      await store.close();
      raws.push(await measureRawPostgres(pool, schema, SIZES.postgres));
      await postgres.dropSchema(schema);
    }
    const store = best(stores);
    const raw = best(raws);
    rows.push({ backend: 'PostgreSQL', store, raw, rawLabel: '`pg` INSERT (multi-row for batches), autocommit; keyset SELECT' });
    const events = (n: number) => `${Math.round(n).toLocaleString('en-US')} events/s`;
    ctx.target({
      id: 'P7',
      measure: 'PostgreSQL append, 1 event per append',
      figure: events(store.single),
      ceiling: `${events(raw.single)} (\`pg\`)`,
      ratio: `${Math.round((store.single / raw.single) * 100)} %`,
      target: '≥ 50 % of raw',
      met: store.single / raw.single >= 0.5,
    });
    ctx.target({
      id: 'P7',
      measure: 'PostgreSQL append, batches of 10',
      figure: events(store.batch),
      ceiling: `${events(raw.batch)} (\`pg\`)`,
      ratio: `${Math.round((store.batch / raw.batch) * 100)} %`,
      target: '≥ 70 % of raw',
      met: store.batch / raw.batch >= 0.7,
    });
  } finally {
    await pool.end();
    await postgres.stop();
  }
  notes.push(
    process.env['DATABASE_URL']
      ? 'PostgreSQL: the server named by DATABASE_URL.'
      : 'PostgreSQL: a throw-away local cluster with fsync, synchronous_commit and full_page_writes off (test/support/postgres.ts), so commits cost no disk flush for either column.',
  );

  // Bench infrastructure, not app config: a server is only used when one is named.
  const esdbUrl = process.env['EVENTSTORE_CONNECTION_STRING'];
  if (esdbUrl) {
    const client = EventStoreDBClient.connectionString(esdbUrl);
    try {
      const namespace = `bench${randomUUID().replace(/-/g, '')}`;
      const store = new EsdbEventStore({ client, namespace });
      const esdbStore = await measureStore(store, SIZES.esdb);
      await store.close();
      const esdbRaw = await measureRawEsdb(client, `raw${namespace}`, SIZES.esdb);
      rows.push({
        backend: 'EventStoreDB',
        store: esdbStore,
        raw: esdbRaw,
        rawLabel: '`appendToStream` with expected revision ANY; `readAll` streamed',
      });
    } finally {
      await client.dispose();
    }
  } else {
    notes.push('EventStoreDB: skipped, EVENTSTORE_CONNECTION_STRING is not set (no server can be installed on this machine).');
  }

  return [
    '## Event store',
    '',
    `Appends go through the \`EventStore\` port with exact expected revisions over ${STREAMS} streams (what the command handlers do); replay reads \`$all\` from the start.`,
    `Sizes: SQLite ${SIZES.sqlite.single} single + ${SIZES.sqlite.batches}×10, PostgreSQL ${SIZES.postgres.single} + ${SIZES.postgres.batches}×10, EventStoreDB ${SIZES.esdb.single} + ${SIZES.esdb.batches}×10 events. One client, sequential; best of ${ROUNDS.sqlite} (SQLite) / ${ROUNDS.postgres} (PostgreSQL) fresh runs per column, store and raw interleaved.`,
    `Load average when the bench started: ${loadAtStart.map((n) => n.toFixed(2)).join(', ')} (the box may be shared: compare ratios, not absolutes).`,
    '',
    table(rows),
    '',
    ...notes.map((note) => `- ${note}`),
    "- PostgreSQL: an append is one round trip, a call of the server-side `decom_append` function (advisory lock, expected revision, gap-safe positions, reservations, notify: docs/event-stores.md), against the raw INSERT's one autocommit round trip with a sequence (not gap-safe). (Four round trips per append, the earlier design, measured 39 % (single) and 69 % (batches of 10) of raw.)",
  ].join('\n');
}
