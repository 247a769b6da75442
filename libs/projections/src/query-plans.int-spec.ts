/**
 * Every read-model look-up a command or a list makes is an index search on SQLite, never
 * a scan of every resource (the create's name check once scanned every cluster; a sweep page once skipped
 * OFFSET rows). The SQL is the one ResourceQueries really sends (recorded), its plan SQLite's own.
 */
import Database from 'better-sqlite3';
import { ResourceQueries } from './resource-queries.js';
import { pendingWork } from './queries/pending-work.js';
import { RESOURCE_VIEW_SCHEMA } from './resource-view.schema.js';
import type { ReadModelQueries } from './runner/read-model-store.port.js';
import { SqliteReadModelStore } from './runner/sqlite-read-model-store.js';

describe('read-model query plans (SQLite)', () => {
  const db = new Database(':memory:');
  const store = new SqliteReadModelStore(db);
  const sent: [string, readonly unknown[]][] = [];
  const recording: ReadModelQueries = {
    dialect: 'sqlite',
    query: (sql, params = []) => (sent.push([sql, params]), store.query(sql, params)),
  };
  const queries = new ResourceQueries(recording);

  beforeAll(() => {
    for (const statement of RESOURCE_VIEW_SCHEMA) db.exec(statement);
  });
  afterAll(() => db.close());

  /** The plan lines of every statement `run` sent. */
  async function plans(run: () => Promise<unknown>): Promise<string[]> {
    sent.length = 0;
    await run();
    expect(sent.length).toBeGreaterThan(0);
    return sent.flatMap(([sql, params]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map((p) => (p === undefined ? null : p))) as { detail: string }[]).map(
        (r) => r.detail,
      ),
    );
  }

  it('would see a scan', () => {
    expect((db.prepare('EXPLAIN QUERY PLAN SELECT * FROM resources WHERE spec = ?').all('x') as { detail: string }[])[0]!.detail).toMatch(
      /^SCAN resources\b/,
    );
  });

  it.each<[string, () => Promise<unknown>]>([
    ['the create name check, top level', () => queries.findByName('Cluster', 'prod-eu-1')],
    ['the create name check under a parent', () => queries.findByName('NodePool', 'np-a', 'c1')],
    ['GET one', () => queries.get('c1')],
    ['locate (routing, history)', () => queries.locate('c1')],
    ['a list page (default order) and its total', () => queries.list({ kind: 'Cluster', page: 1, size: 20 })],
    ['a deep list page', () => queries.list({ kind: 'Cluster', page: 900, size: 20 })],
    ['a list ordered by name', () => queries.list({ kind: 'Cluster', page: 1, size: 20, order: [{ field: 'name', direction: 'asc' }] })],
    ['a list searched by label', () => queries.list({ kind: 'Cluster', page: 1, size: 20, search: "labels.env = 'prod'" })],
    ['a list searched by deleted_time', () => queries.list({ kind: 'Cluster', page: 1, size: 20, search: 'deleted_time IS NOT NULL' })],
    ['children of one parent', () => queries.list({ kind: 'NodePool', ownerId: 'c1', page: 1, size: 20 })],
    ['the pending-work gauge (batches by id)', () => pendingWork(recording)],
    [
      'a sweep page (keyset)',
      () => queries.pageAfter({ kind: 'Cluster', size: 100, after: { created_time: '2026-01-01T00:00:00.000Z', id: 'c1' } }),
    ],
  ])('%s searches an index', async (_, run) => {
    const lines = await plans(run);
    expect(lines.filter((line) => /^SCAN (resources|resource_index|resource_labels)\b/.test(line))).toEqual([]);
  });
});
