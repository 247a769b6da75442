/**
 * TSL search, table-driven, run unchanged on SQLite and PostgreSQL read models (hyperfleet-api `docs/search.md`): the
 * same fixture rows, the same searches, the same ids (or the same error) on both databases, plus injection attempts.
 */
import Database from 'better-sqlite3';
import { usePostgres, type PostgresForTests } from '../../../../test/support/postgres.js';
import { ResourceQueries } from '../resource-queries.js';
import { RESOURCE_VIEW_SCHEMA } from '../resource-view.schema.js';
import { PostgresReadModelStore } from '../runner/postgres-read-model-store.js';
import type { ReadModelStore } from '../runner/read-model-store.port.js';
import { SqliteReadModelStore } from '../runner/sqlite-read-model-store.js';
import { SearchFieldError, SearchSyntaxError } from './search-errors.js';

interface Fixture {
  id: string;
  kind?: string;
  name: string;
  generation: number;
  labels?: Record<string, string>;
  spec?: Record<string, unknown>;
  created_time: string;
  created_by: string;
  deleted_time?: string;
  owner_id?: string;
  reconciled?: { status: string; last_updated_time: string; observed_generation: number };
}

const RESOURCES: Fixture[] = [
  {
    id: 'c1',
    name: 'alpha',
    generation: 1,
    labels: { env: 'production', tier: 'gold', 'app.kubernetes.io/name': 'web' },
    spec: { release: { version: 10 }, region: 'us-east', enabled: true, items: [{ name: 'x' }] },
    created_time: '2026-03-01T10:00:00.000Z',
    created_by: 'alice',
    reconciled: { status: 'True', last_updated_time: '2026-03-06T13:00:00.000Z', observed_generation: 1 },
  },
  {
    id: 'c2',
    name: 'beta',
    generation: 3,
    labels: { env: 'staging' },
    spec: { release: { version: 9 }, region: 'eu-west', enabled: false, note: '10', nothing: null },
    created_time: '2026-03-02T10:00:00.000Z',
    created_by: 'bob',
    deleted_time: '2026-03-07T00:00:00.000Z',
    reconciled: { status: 'False', last_updated_time: '2026-03-06T15:00:00.000Z', observed_generation: 2 },
  },
  {
    id: 'c3',
    name: 'Gamma_1',
    generation: 2,
    spec: { release: { version: 9.5 } },
    created_time: '2026-03-03T10:00:00.000Z',
    created_by: 'alice',
    reconciled: { status: 'True', last_updated_time: '2026-03-06T14:30:00.000Z', observed_generation: 2 },
  },
  { id: 'c4', name: "o'brien", generation: 1, created_time: '2026-03-04T10:00:00.000Z', created_by: 'carol' },
  {
    id: 'np1',
    kind: 'NodePool',
    name: 'alpha',
    generation: 1,
    owner_id: 'c1',
    created_time: '2026-03-05T10:00:00.000Z',
    created_by: 'alice',
  },
];

/** [search, ids of Cluster resources found, in created_time asc order]. */
const FOUND: Array<[string, string[]]> = [
  ["name = 'alpha'", ['c1']],
  ["name != 'alpha'", ['c2', 'c3', 'c4']],
  ["name <> 'alpha'", ['c2', 'c3', 'c4']],
  ["NAME = 'alpha'", []], // field names are case-sensitive (no field NAME)... see ERRORS
  ["name = 'o''brien'", ['c4']],
  ["name in ['alpha', 'beta']", ['c1', 'c2']],
  ["name IN ('alpha', 'beta')", ['c1', 'c2']],
  ["name not in ['alpha', 'beta']", ['c3', 'c4']],
  ["id = 'c3'", ['c3']],
  ["kind = 'Cluster' and created_by = 'alice'", ['c1', 'c3']],
  ["updated_by = 'bob'", ['c2']],
  ['generation = 1', ['c1', 'c4']],
  ['generation > 1', ['c2', 'c3']],
  ['generation >= 2', ['c2', 'c3']],
  ['generation < 2', ['c1', 'c4']],
  ['generation <= 2', ['c1', 'c3', 'c4']],
  ['generation between 2 and 3', ['c2', 'c3']],
  ["created_time > '2026-03-02T10:00:00Z'", ['c3', 'c4']],
  ["created_time >= '2026-03-02T12:00:00+02:00'", ['c2', 'c3', 'c4']],
  ["created_time < '2026-03-02T10:00:00.000Z'", ['c1']],
  ["updated_time <= '2026-03-01T10:00:00Z'", ['c1']],
  ['deleted_time IS NULL', ['c1', 'c3', 'c4']],
  ['deleted_time is not null', ['c2']],
  ["deleted_time > '2026-03-01T00:00:00Z'", ['c2']],
  ['owner_id IS NULL', ['c1', 'c2', 'c3', 'c4']],
  ["labels.env = 'production'", ['c1']],
  ["labels.env != 'production'", ['c2']],
  ["labels.env in ['production', 'staging']", ['c1', 'c2']],
  ["labels.app.kubernetes.io/name = 'web'", ['c1']],
  // Label predicates read the resource_labels table; a missing label matches nothing, as in the JSON column.
  ['labels.env IS NULL', ['c3', 'c4']],
  ["labels.env like 'prod%'", ['c1']],
  ["labels.env like 'PROD%'", []],
  ["labels.env ilike 'PROD%'", ['c1']],
  ["labels.env between 'a' and 'q'", ['c1']],
  ["labels.tier = 'gold' or name = 'Gamma_1'", ['c1', 'c3']],
  ["labels.env = 'staging' and deleted_time is not null", ['c2']],
  ['labels.tier IS NULL', ['c2', 'c3', 'c4']],
  ['spec.release.version > 9', ['c1', 'c3']],
  ['spec.release.version = 9', ['c2']],
  ['spec.release.version >= 9.5', ['c1', 'c3']],
  ['spec.release.version between 9 and 9.9', ['c2', 'c3']],
  ["spec.release.version = '10'", []],
  ["spec.note = '10'", ['c2']],
  ['spec.note = 10', []],
  ["spec.region = 'us-east'", ['c1']],
  ["spec.region like 'us-%'", ['c1']],
  ["spec.region like 'US-%'", []],
  ["spec.region ilike 'US-%'", ['c1']],
  ['spec.enabled = true', ['c1']],
  ['spec.enabled = FALSE', ['c2']],
  ['spec.enabled != true', ['c2']],
  ["spec.items.0.name = 'x'", ['c1']],
  ['spec.region IS NULL', ['c3', 'c4']],
  ['spec.nothing IS NULL', ['c1', 'c2', 'c3', 'c4']],
  ['spec.release IS NOT NULL', ['c1', 'c2', 'c3']],
  ["name like 'Gamma_%'", ['c3']],
  ["name like 'gamma%'", []],
  ["name ilike 'gamma%'", ['c3']],
  ["name not like 'a%'", ['c2', 'c3', 'c4']],
  ["name like '%*%'", []],
  ["status.conditions.Reconciled = 'True'", ['c1', 'c3']],
  ["status.conditions.Reconciled = 'False'", ['c2']],
  ["status.conditions.Reconciled = 'Unknown'", []],
  ["status.conditions.Reconciled.last_updated_time < '2026-03-06T14:00:00Z'", ['c1']],
  ['status.conditions.Reconciled.observed_generation >= 2', ['c2', 'c3']],
  ['status.conditions.Reconciled.observed_generation in [1, 2]', ['c1', 'c2', 'c3']],
  ["status.conditions.Reconciled='True' and labels.environment='production'", []],
  ["status.conditions.Reconciled='True' and labels.env='production'", ['c1']],
  ["name = 'alpha' or name = 'beta' and generation = 3", ['c1', 'c2']],
  ["(name = 'alpha' or name = 'beta') and generation = 3", ['c2']],
  ["not (name = 'alpha' or generation = 2)", ['c2', 'c4']],
  ["NOT name = 'alpha' AND NOT generation = 3", ['c3', 'c4']],
  ['not deleted_time is null', ['c2']],
  ['  generation=1  ', ['c1', 'c4']],
  ["name='alpha'and generation=1", ['c1']],
  // The literal on the left reads as the same comparison from the field's side.
  ["'True' = status.conditions.Reconciled", ['c1', 'c3']],
  ["'alpha' = name", ['c1']],
  ['2 < generation', ['c2']],
  ['2 <= generation', ['c2', 'c3']],
  ['status.conditions.Reconciled IS NULL', ['c4']],
  ["created_time > '2026-03-03'", ['c3', 'c4']],
  ["created_time < '2026-03-02'", ['c1']],
  ['name = `alpha`', ['c1']],
];
// `NAME` is not a field: remove the placeholder row above and check it among the errors instead.
FOUND.splice(
  FOUND.findIndex(([s]) => s.startsWith('NAME')),
  1,
);

/** [search, error class, message fragment]. */
const ERRORS: Array<[string, typeof SearchSyntaxError | typeof SearchFieldError, string]> = [
  ['name = ', SearchSyntaxError, 'column 8'],
  ["name = 'alpha", SearchSyntaxError, 'column'],
  ["name == == 'a'", SearchSyntaxError, 'column'],
  ["(name = 'a'", SearchSyntaxError, 'column'],
  ["name = 'a' and", SearchSyntaxError, 'column'],
  ['name in []', SearchSyntaxError, 'column'],
  ["name ~ 'a'", SearchSyntaxError, 'column'],
  ["'a' = 'b'", SearchSyntaxError, 'column'],
  ['x'.repeat(4097), SearchSyntaxError, 'at most 4096'],
  ["NAME = 'alpha'", SearchFieldError, 'unknown'],
  ["stream = 'x'", SearchFieldError, 'unknown'],
  ['paused IS NULL', SearchFieldError, 'unknown'],
  ["spec = 'x'", SearchFieldError, 'unknown'],
  ["labels. = 'x'", SearchFieldError, 'label key'],
  ["spec.a..b = 'x'", SearchFieldError, 'path'],
  ["status.conditions.reconciled = 'True'", SearchFieldError, 'condition type'],
  ["status.conditions.Reconciled.reason = 'x'", SearchFieldError, 'subfield'],
  ["status.conditions.Reconciled != 'True'", SearchFieldError, 'only "="'],
  ["status.conditions.Reconciled = 'Yes'", SearchFieldError, "'True', 'False' or 'Unknown'"],
  ['status.conditions.Reconciled IS NOT NULL', SearchFieldError, '"not"'],
  ['labels.env is not null', SearchFieldError, '"not"'],
  ["labels.env not in ['production']", SearchFieldError, '"not"'],
  ["labels.env not like 'prod%'", SearchFieldError, '"not"'],
  ["labels.env not between 'a' and 'q'", SearchFieldError, '"not"'],
  ["spec.Provider = 'aws'", SearchFieldError, 'path'],
  ["created_time > '2026-3-1'", SearchFieldError, 'RFC 3339'],
  ["generation = '1'", SearchFieldError, 'integer'],
  ['generation = 1.5', SearchFieldError, 'integer'],
  ["created_time > 'yesterday'", SearchFieldError, 'RFC 3339'],
  ["created_time > '2026-13-45T99:00:00Z'", SearchFieldError, 'RFC 3339'],
  ['name = 1', SearchFieldError, 'quoted string'],
  ["name in ['a', 1]", SearchFieldError, 'one type'],
  ['spec.enabled > true', SearchFieldError, '= and !='],
  ['generation like 1', SearchSyntaxError, 'column'],
  ["generation like '1%'", SearchFieldError, 'text'],
  ["not labels.env = 'production'", SearchFieldError, '"not"'],
  ["not (name = 'a' and status.conditions.Reconciled = 'True')", SearchFieldError, '"not"'],
];

/** Injection attempts: each is either harmless data (found nothing) or refused; the table survives. */
const INJECTIONS: string[] = [
  "name = 'alpha'' OR ''1''=''1'",
  "name = ''; DROP TABLE resources; --'",
  "name = 'x' OR 1=1 --",
  "name = 'x'; DELETE FROM resources",
  "labels.env = 'x') OR (1=1",
  `labels.a"b = 'x'`,
  "labels.x') OR 1=1 -- = 'x'",
  `spec.a"]').b = 'x'`,
  'spec.release.version > 1) OR (1=1',
  "status.conditions.Reconciled = 'True'' OR ''1''=''1'",
  'name = "x" or "1"="1"',
  "name = '?'",
  "name like '%' ESCAPE '\\'",
];

let postgres: PostgresForTests;
beforeAll(async () => void (postgres = await usePostgres()));
afterAll(() => postgres?.stop());

const backends: Array<[string, () => Promise<{ readModels: ReadModelStore; close(): Promise<void> }>]> = [
  [
    'sqlite',
    async () => {
      const db = new Database(':memory:');
      return { readModels: new SqliteReadModelStore(db), close: async () => void db.close() };
    },
  ],
  [
    'postgres',
    async () => {
      const schema = await postgres.newSchema();
      const readModels = new PostgresReadModelStore({ connectionString: postgres.connectionString, schema });
      return { readModels, close: async () => (await readModels.close(), await postgres.dropSchema(schema)) };
    },
  ],
];

describe.each(backends)('TSL search on %s', (_, open) => {
  let readModels: ReadModelStore;
  let close: () => Promise<void>;
  let queries: ResourceQueries;

  beforeAll(async () => {
    ({ readModels, close } = await open());
    await readModels.transaction(async (tx) => {
      for (const statement of RESOURCE_VIEW_SCHEMA) await tx.execute(statement);
      for (const r of RESOURCES) await insertResource(tx, r);
      await insertStatus(
        tx,
        'c1',
        'adapter-a',
        1,
        [
          { type: 'Available', status: 'True' },
          { type: 'Finalized', status: 'False' },
        ],
        { phase: 'Ready', count: 3 },
      );
      await insertStatus(tx, 'c1', 'adapter-b', 2, [{ type: 'Available', status: 'False' }], null);
      await insertStatus(tx, 'c1', 'adapter-c', 2, [{ type: 'Available', status: 'Unknown' }], { phase: 'Pending' });
    });
    queries = new ResourceQueries(readModels);
  });
  afterAll(() => close());

  const clusters = async (search: string) =>
    (await queries.list({ kind: 'Cluster', page: 1, size: 100, order: [{ field: 'created_time', direction: 'asc' }], search })).items.map(
      (r) => r.id,
    );

  it.each(FOUND)('%s', async (search, ids) => {
    expect(await clusters(search)).toEqual(ids);
  });

  it.each(ERRORS)('refuses %s', async (search, errorClass, fragment) => {
    const failing = clusters(search);
    await expect(failing).rejects.toBeInstanceOf(errorClass);
    await expect(failing).rejects.toThrow(fragment);
  });

  it('counts only matches in total and pages them', async () => {
    const page = await queries.list({
      kind: 'Cluster',
      page: 2,
      size: 1,
      order: [{ field: 'created_time', direction: 'asc' }],
      search: "created_by = 'alice'",
    });
    expect({ total: page.total, size: page.size, ids: page.items.map((r) => r.id) }).toEqual({ total: 2, size: 1, ids: ['c3'] });
  });

  it('combines with the owner restriction of a child list', async () => {
    const found = await queries.list({ kind: 'NodePool', ownerId: 'c1', page: 1, size: 10, search: "name = 'alpha' and owner_id = 'c1'" });
    expect(found.items.map((r) => r.id)).toEqual(['np1']);
  });

  it.each(["owner_kind = 'Cluster'", "owner_href = '/api/hyperfleet/v1/x/c1'", "owner_href like '%/c1'"])(
    'searches the owner reference: %s',
    async (search) => {
      const found = await queries.list({ kind: 'NodePool', page: 1, size: 10, search });
      expect(found.items.map((r) => r.id)).toEqual(['np1']);
      expect(
        (await queries.list({ kind: 'NodePool', page: 1, size: 10, search: search.replace('Cluster', 'NodePool').replace('c1', 'c2') }))
          .items,
      ).toEqual([]);
    },
  );

  it('accepts exactly 4096 characters', async () => {
    const search = `name = '${'a'.repeat(4096 - 9)}'`;
    expect(search).toHaveLength(4096);
    expect(await clusters(search)).toEqual([]);
  });

  it('the longest chain 4096 characters allow, and the deepest nesting allowed, run on the database', async () => {
    const chain = Array.from({ length: 372 }, () => "name=''").join(' or ');
    expect(chain.length).toBeLessThanOrEqual(4096);
    expect(await clusters(chain)).toEqual([]);
    expect(await clusters(`${'not '.repeat(63)}name = 'zzz'`)).toEqual(await clusters("not name = 'zzz'"));
    expect(await clusters(`${"(name = 'x' or ".repeat(32)}(not name = 'zzz' and ${"created_by = 'alice'"})${')'.repeat(32)}`)).toHaveLength(
      2,
    );
  });

  it.each(INJECTIONS)('injection attempt %s finds nothing or is refused, and changes nothing', async (search) => {
    const outcome = await clusters(search).then(
      (ids) => ids,
      (error: unknown) => {
        expect(error instanceof SearchSyntaxError || error instanceof SearchFieldError).toBe(true);
        return 'refused';
      },
    );
    expect(outcome === 'refused' || (Array.isArray(outcome) && outcome.length === 0)).toBe(true);
    expect(await readModels.query<{ n: number }>('SELECT COUNT(*) AS n FROM resources')).toEqual([{ n: RESOURCES.length }]);
  });

  it.each<[string, string[]]>([
    ["adapter = 'adapter-b'", ['adapter-b']],
    ['observed_generation = 2', ['adapter-b', 'adapter-c']],
    ["conditions.Available = 'True'", ['adapter-a']],
    ["conditions.Available = 'Unknown' or conditions.Finalized = 'False'", ['adapter-a', 'adapter-c']],
    ["data.phase = 'Ready'", ['adapter-a']],
    ['data.count > 2', ['adapter-a']],
    ['data.phase IS NULL', ['adapter-b']],
    ["last_report_time >= '2026-03-06T00:00:00Z'", ['adapter-a', 'adapter-b', 'adapter-c']],
  ])('status list: %s', async (search, adapters) => {
    expect((await queries.statuses('c1', 1, 100, search)).items.map((s) => s.adapter)).toEqual(adapters);
  });

  it('status list: refuses resource fields and counts matches only', async () => {
    await expect(queries.statuses('c1', 1, 100, "labels.env = 'x'")).rejects.toBeInstanceOf(SearchFieldError);
    await expect(queries.statuses('c1', 1, 100, 'adapter =')).rejects.toBeInstanceOf(SearchSyntaxError);
    expect((await queries.statuses('c1', 1, 1, 'observed_generation = 2')).total).toBe(2);
  });
});

async function insertResource(tx: { execute(sql: string, params?: readonly unknown[]): Promise<unknown> }, r: Fixture): Promise<void> {
  const conditions = r.reconciled
    ? [
        {
          type: 'Reconciled',
          status: r.reconciled.status,
          observed_generation: r.reconciled.observed_generation,
          last_updated_time: r.reconciled.last_updated_time,
          last_transition_time: r.reconciled.last_updated_time,
          created_time: r.created_time,
          reason: '',
          message: '',
        },
      ]
    : [];
  await tx.execute(
    `INSERT INTO resources (id, kind, name, href, stream, owner_id, owner_kind, owner_href, spec, labels, generation, created_time, updated_time, created_by, updated_by, deleted_time, conditions)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      r.id,
      r.kind ?? 'Cluster',
      r.name,
      `/api/hyperfleet/v1/x/${r.id}`,
      `s-${r.id}`,
      r.owner_id ?? null,
      r.owner_id ? 'Cluster' : null,
      r.owner_id ? `/api/hyperfleet/v1/x/${r.owner_id}` : null,
      JSON.stringify(r.spec ?? {}),
      JSON.stringify(r.labels ?? {}),
      r.generation,
      r.created_time,
      r.created_time,
      r.created_by,
      r.created_by,
      r.deleted_time ?? null,
      JSON.stringify(conditions),
    ],
  );
  // As the projection mirrors them (resource-view.projection.ts indexLabels).
  for (const [key, value] of Object.entries(r.labels ?? {})) {
    await tx.execute(`INSERT INTO resource_labels (resource_id, key, value) VALUES (?, ?, ?)`, [r.id, key, value]);
  }
}

async function insertStatus(
  tx: { execute(sql: string, params?: readonly unknown[]): Promise<unknown> },
  resourceId: string,
  adapter: string,
  observedGeneration: number,
  conditions: { type: string; status: string }[],
  data: Record<string, unknown> | null,
): Promise<void> {
  const at = '2026-03-06T10:00:00.000Z';
  await tx.execute(
    `INSERT INTO adapter_statuses (resource_id, adapter, observed_generation, conditions, metadata, data, created_time, last_report_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      resourceId,
      adapter,
      observedGeneration,
      JSON.stringify(conditions.map((c) => ({ ...c, reason: '', message: '', last_transition_time: at }))),
      null,
      data === null ? null : JSON.stringify(data),
      at,
      at,
    ],
  );
}
