/**
 * Index-backed reads on real SQLite and PostgreSQL read models: the keyset walk the sweeper uses
 * (`ResourceQueries.pageAfter`) and list totals kept between writes (`CountCache`).
 */
import Database from 'better-sqlite3';
import { usePostgres, type PostgresForTests } from '../../../test/support/postgres.js';
import { ResourceQueries } from './resource-queries.js';
import { RESOURCE_VIEW_SCHEMA } from './resource-view.schema.js';
import { PostgresReadModelStore } from './runner/postgres-read-model-store.js';
import type { ReadModelStore, ReadModelTx } from './runner/read-model-store.port.js';
import { SqliteReadModelStore } from './runner/sqlite-read-model-store.js';

let postgres: PostgresForTests;
beforeAll(async () => void (postgres = await usePostgres()));
afterAll(() => postgres?.stop());

const backends: Array<[string, () => Promise<{ readModels: ReadModelStore; close(): Promise<void> }>]> = [
  [
    'SQLite',
    async () => {
      const db = new Database(':memory:');
      return { readModels: new SqliteReadModelStore(db), close: async () => void db.close() };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const schema = await postgres.newSchema();
      const readModels = new PostgresReadModelStore({ connectionString: postgres.connectionString, schema });
      return { readModels, close: async () => (await readModels.close(), await postgres.dropSchema(schema)) };
    },
  ],
];

/** Minute `n` after a fixed start; several resources share one created_time (the id breaks the tie). */
const at = (n: number) => new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString();

async function insert(tx: ReadModelTx, id: string, createdTime: string, kind = 'Cluster'): Promise<void> {
  await tx.execute(
    `INSERT INTO resources (id, kind, name, href, stream, spec, labels, generation, created_time, updated_time, created_by, updated_by, conditions)
     VALUES (?, ?, ?, ?, ?, '{}', '{}', 1, ?, ?, 'a', 'a', '[]')`,
    [id, kind, `n-${id}`, `/api/hyperfleet/v1/x/${id}`, `s-${id}`, createdTime, createdTime],
  );
}

describe.each(backends)('read path on %s', (_, open) => {
  let readModels: ReadModelStore;
  let close: () => Promise<void>;
  let queries: ResourceQueries;

  beforeEach(async () => {
    ({ readModels, close } = await open());
    await readModels.transaction(async (tx) => {
      for (const statement of RESOURCE_VIEW_SCHEMA) await tx.execute(statement);
      // 120 clusters, three per minute, inserted out of order; a few nodepools the walk of clusters skips.
      for (let i = 119; i >= 0; i--) await insert(tx, `c${String(i).padStart(3, '0')}`, at(Math.floor(i / 3)));
      for (let i = 0; i < 5; i++) await insert(tx, `np${i}`, at(i), 'NodePool');
    });
    queries = new ResourceQueries(readModels);
  });
  afterEach(() => close());

  it('a keyset walk visits every resource exactly once while others are created and hard-deleted during it', async () => {
    const seen: string[] = [];
    const deleted = new Set<string>();
    const created: string[] = [];
    let after: { created_time: string; id: string } | undefined;
    for (let round = 0; ; round++) {
      const page = await queries.pageAfter({ kind: 'Cluster', size: 7, ...(after ? { after } : {}) });
      seen.push(...page.map((r) => r.id));
      if (page.length < 7) break;
      after = { created_time: page[page.length - 1]!.created_time, id: page[page.length - 1]!.id };
      // Between pages: one new cluster (created now, so after the cursor), one visited and one unvisited deleted.
      await readModels.transaction(async (tx) => {
        const id = `new${String(round).padStart(2, '0')}`;
        await insert(tx, id, at(1000 + round));
        created.push(id);
        const visited = seen[round * 3];
        const ahead = `c${String(119 - round).padStart(3, '0')}`;
        for (const gone of [visited, ahead]) {
          if (gone === undefined || deleted.has(gone)) continue;
          await tx.execute(`DELETE FROM resources WHERE id = ?`, [gone]);
          deleted.add(gone);
        }
      });
    }
    expect(new Set(seen).size).toBe(seen.length);
    const survivors = Array.from({ length: 120 }, (_, i) => `c${String(i).padStart(3, '0')}`).filter((id) => !deleted.has(id));
    for (const id of [...survivors, ...created]) expect(seen).toContain(id);
    expect(seen.some((id) => id.startsWith('np'))).toBe(false);
    // (created_time, id) order: the walk is sorted.
    const keys = (await Promise.all(seen.filter((id) => !deleted.has(id)).map((id) => queries.get(id)))).map(
      (r) => `${r!.created_time} ${r!.id}`,
    );
    expect(keys).toEqual([...keys].sort());
  });

  it('list totals follow every write (kept only until the next one)', async () => {
    const total = async (search?: string) =>
      (await queries.list({ kind: 'Cluster', page: 1, size: 5, ...(search ? { search } : {}) })).total;
    expect(await total()).toBe(120);
    expect(await total()).toBe(120);
    expect(await total("name = 'n-c001'")).toBe(1);
    await readModels.transaction((tx) => insert(tx, 'late', at(2000)));
    expect(await total()).toBe(121);
    await readModels.transaction(async (tx) => void (await tx.execute(`DELETE FROM resources WHERE id IN ('c001', 'c002')`)));
    expect(await total()).toBe(119);
    expect(await total("name = 'n-c001'")).toBe(0);
    // A rolled-back write changes nothing, and the next answer is still right.
    await expect(
      readModels.transaction(async (tx) => (await insert(tx, 'doomed', at(3000)), Promise.reject(new Error('abort')))),
    ).rejects.toThrow('abort');
    expect(await total()).toBe(119);
  });

  it('getJson and listJson answer exactly the serialised get and list, before and after writes', async () => {
    const same = async () => {
      for (const id of ['c000', 'c050', 'np1', 'nope']) {
        const resource = await queries.get(id);
        const presented = await queries.getJson(id);
        expect(presented && { kind: presented.kind, json: JSON.parse(presented.text) as unknown }).toEqual(
          resource && { kind: resource.kind, json: resource },
        );
        if (resource) expect(presented!.text).toBe(JSON.stringify(resource));
        const kept = queries.keptJson(id);
        if (kept) expect(kept.text).toBe(JSON.stringify(resource));
      }
      for (const options of [
        { kind: 'Cluster', page: 1, size: 5 },
        { kind: 'Cluster', page: 3, size: 7, order: [{ field: 'name', direction: 'desc' as const }] },
        { page: 1, size: 4, search: "name like 'n-c0%'" },
      ]) {
        const expected = JSON.stringify(await queries.list(options));
        expect(await queries.listJson(options)).toBe(expected);
        expect(await queries.listJson(options)).toBe(expected);
        const kept = queries.keptListJson(options);
        if (kept !== undefined) expect(kept).toBe(expected);
      }
    };
    await same();
    await same();
    // Kept answers need a store that sees every write (SQLite); PostgreSQL compares each row as read.
    if (readModels.writeVersion?.() !== undefined) {
      expect(queries.keptJson('c000')?.text).toBe(JSON.stringify(await queries.get('c000')));
      expect(queries.keptListJson({ kind: 'Cluster', page: 1, size: 5 })).toBe(
        JSON.stringify(await queries.list({ kind: 'Cluster', page: 1, size: 5 })),
      );
    }
    await readModels.transaction(async (tx) => {
      await tx.execute(`UPDATE resources SET labels = '{"env":"prod"}', generation = 2 WHERE id = ?`, ['c000']);
      await insert(tx, 'c999', at(5000));
      await tx.execute(`DELETE FROM resources WHERE id = ?`, ['c050']);
    });
    expect(queries.keptJson('c000')).toBeUndefined();
    expect(queries.keptListJson({ kind: 'Cluster', page: 1, size: 5 })).toBeUndefined();
    expect(JSON.parse((await queries.getJson('c000'))!.text)).toMatchObject({ generation: 2, labels: { env: 'prod' } });
    expect(await queries.getJson('c050')).toBeUndefined();
    expect(JSON.parse(await queries.listJson({ kind: 'Cluster', page: 1, size: 5 })).items[0].id).toBe('c999');
    await same();
  });
});
