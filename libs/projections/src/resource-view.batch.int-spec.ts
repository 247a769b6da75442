/**
 * Batched application against real read models (SQLite and PostgreSQL): the resource view left by one
 * transaction per event and by batches of any size (`applyBatch`, what the runner does on catch-up, live
 * read-ahead and rebuild) is the same, row for row, in every table. The log mixes the recorded histories
 * with a fleet exercising every event type and every cross-resource refresh (owners, references, pauses,
 * force orphan, a wait cycle, hard deletes), so a row the batch's memory got wrong shows up in the dump.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KindRegistry, type KindDescriptor } from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import { usePostgres, type PostgresForTests } from '../../../test/support/postgres.js';
import { readModelBackends } from './testing/read-model-backends.js';
import { RESOURCE_VIEW_TABLES } from './resource-view.schema.js';
import { ResourceViewProjection } from './resource-view.projection.js';
import type { ReadModelStore } from './runner/read-model-store.port.js';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', on_parent_delete: 'cascade', required_adapters: ['np-configmap'] },
] as KindDescriptor[]);

const id = (n: number) => `0190b6a4-0000-7000-8000-${String(n).padStart(12, '0')}`;
const time = (s: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, s)).toISOString();
const [A, A1, A2, B, B1, C1, C2, D] = [1, 2, 3, 4, 5, 6, 7, 8].map(id) as [string, string, string, string, string, string, string, string];

type Fact = readonly [type: string, data: Record<string, unknown>];

const created = (rid: string, kind: string, name: string, extra: Record<string, unknown> = {}): Fact => [
  'ResourceCreated',
  {
    id: rid,
    kind,
    name,
    spec: { n: name },
    labels: { env: 'prod', team: name },
    generation: 1,
    created_time: time(0),
    created_by: 'a',
    ...extra,
  },
];
const owner = (rid: string) => ({ owner_references: { id: rid, kind: 'Cluster' } });
const deleted = (rid: string, kind: string, generation: number, s: number, extra: Record<string, unknown> = {}): Fact => [
  'DeletionRequested',
  { id: rid, kind, generation, deleted_time: time(s), deleted_by: 'alice', deletion_policy: 'Delete', ...extra },
];
const report = (rid: string, kind: string, adapter: string, generation: number, finalized: boolean, s: number): Fact => [
  'AdapterStatusReported',
  {
    id: rid,
    kind,
    status: {
      adapter,
      observed_generation: generation,
      conditions: [
        { type: 'Applied', status: finalized ? 'False' : 'True', reason: 'R', message: 'm', last_transition_time: time(s) },
        { type: 'Available', status: 'True', reason: 'R', message: 'm', last_transition_time: time(s) },
        { type: 'Health', status: s % 2 === 0 ? 'True' : 'False', reason: 'H', message: 'h', last_transition_time: time(s) },
        { type: 'Finalized', status: finalized ? 'True' : 'False', reason: 'F', message: 'f', last_transition_time: time(s) },
      ],
      created_time: time(s),
      last_report_time: time(s),
    },
  },
];
const hardDeleted = (rid: string, kind: string, s: number, extra: Record<string, unknown> = {}): Fact => [
  'HardDeleted',
  { id: rid, kind, hard_deleted_time: time(s), cause: 'Reconciled', ...extra },
];

/** A fleet touching every event type the projection handles and each of its cross-resource refreshes. */
const fleet: readonly Fact[] = [
  created(A, 'Cluster', 'a'),
  created(A1, 'NodePool', 'a1', owner(A)),
  created(A2, 'NodePool', 'a2', owner(A)),
  created(B, 'Cluster', 'b', { deletion_policy: 'Orphan' }),
  created(B1, 'NodePool', 'b1', { ...owner(B), references: { network: [{ id: A, kind: 'Cluster' }] } }),
  report(A, 'Cluster', 'validation', 1, false, 1),
  report(A1, 'NodePool', 'np-configmap', 1, false, 2),
  [
    'SpecChanged',
    {
      id: B1,
      kind: 'NodePool',
      spec: { n: 2 },
      labels: { env: 'dev' },
      generation: 2,
      updated_time: time(3),
      updated_by: 'b',
      references: {
        network: [
          { id: A2, kind: 'NodePool' },
          { id: A, kind: 'Cluster' },
        ],
      },
    },
  ],
  ['ResourcePaused', { id: A1, kind: 'NodePool', caller: 'op', reason: 'hold', paused_time: time(4) }],
  deleted(A, 'Cluster', 2, 5, { deletion_propagation: 'Foreground', required_adapters: ['validation'] }),
  deleted(A1, 'NodePool', 2, 5, { cascaded_from: A }),
  deleted(A2, 'NodePool', 2, 5, { cascaded_from: A }),
  ['DeletionStarted', { id: A2, kind: 'NodePool', generation: 2, started_time: time(6), adapter: 'np-configmap' }],
  report(A2, 'NodePool', 'np-configmap', 2, true, 7),
  ['ResourceUnpaused', { id: A1, kind: 'NodePool', caller: 'op', reason: 'go', unpaused_time: time(8) }],
  report(A1, 'NodePool', 'np-configmap', 2, true, 9),
  ['SpecChanged', { id: B1, kind: 'NodePool', spec: { n: 3 }, labels: {}, generation: 3, updated_time: time(10), updated_by: 'b' }],
  hardDeleted(A1, 'NodePool', 11, owner(A)),
  hardDeleted(A2, 'NodePool', 11, owner(A)),
  report(A, 'Cluster', 'validation', 2, true, 12),
  hardDeleted(A, 'Cluster', 13),
  ['ForceOrphaned', { id: B, kind: 'Cluster', caller: 'op', reason: 'gone', force_orphaned_time: time(14), generation: 1 }],
  deleted(B, 'Cluster', 2, 15),
  deleted(B1, 'NodePool', 4, 15, { cascaded_from: B }),
  created(C1, 'Cluster', 'c1', { references: { peer: [{ id: C2, kind: 'Cluster' }] } }),
  created(C2, 'Cluster', 'c2', { references: { peer: [{ id: C1, kind: 'Cluster' }] } }),
  deleted(C1, 'Cluster', 2, 16),
  deleted(C2, 'Cluster', 2, 17),
  report(C1, 'Cluster', 'validation', 2, false, 18),
  created(D, 'Cluster', 'd', { references: { peer: [{ id: C1, kind: 'Cluster' }] } }),
  ['AdapterFinalized', { id: C2, kind: 'Cluster', adapter: 'validation', observed_generation: 2, finalized_time: time(19) }],
  report(D, 'Cluster', 'validation', 1, false, 19),
  deleted(D, 'Cluster', 2, 19, { required_adapters: ['validation'] }),
  report(D, 'Cluster', 'validation', 2, true, 19),
  [
    'LeftoverObjectsFound',
    {
      id: D,
      kind: 'Cluster',
      objects: [{ adapter: 'validation', apiVersion: 'v1', kind: 'Namespace', name: 'd', terminating: true }],
      unverified: [],
      checked_time: time(19),
    },
  ],
  hardDeleted(B1, 'NodePool', 20, owner(B)),
];

function log(): RecordedEvent[] {
  const folder = resolve('test/fixtures/histories');
  const recorded = readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => (JSON.parse(readFileSync(join(folder, file), 'utf8')) as { events: RecordedEvent[] }).events);
  const synthetic = fleet.map(([type, data], n) => ({
    id: id(1000 + n),
    stream: `cluster-${String(data['id'])}`,
    revision: n,
    position: 0,
    type,
    data,
    metadata: { schema_version: 2 },
    recorded_time: time(100 + n),
  }));
  return [...recorded, ...synthetic].map((event, n) => ({ ...event, position: n + 1 }));
}

/** Every table of the resource view, rows sorted by their full text (any column order difference shows). */
async function dump(readModels: ReadModelStore): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of RESOURCE_VIEW_TABLES) {
    const rows = await readModels.query<Record<string, unknown>>(`SELECT * FROM ${table}`);
    out[table] = rows.map((row) => JSON.stringify(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1)))).sort();
  }
  return out;
}

let postgres: PostgresForTests;
beforeAll(async () => void (postgres = await usePostgres()));
afterAll(() => postgres?.stop());

const backends = readModelBackends(() => postgres);

describe.each(backends)('resource view applied in batches on %s', (_, open) => {
  /** Applies the log in transactions of `size` events (`apply` per event when size is 1) and dumps the tables. */
  async function applied(size: number): Promise<Record<string, string[]>> {
    const { readModels, close } = await open();
    try {
      const projection = new ResourceViewProjection(kinds);
      await readModels.transaction(async (tx) => {
        for (const statement of projection.schema) await tx.execute(statement);
      });
      const events = log();
      for (let start = 0; start < events.length; start += size) {
        const batch = events.slice(start, start + size);
        await readModels.transaction(async (tx) => {
          if (size === 1) await projection.apply(batch[0]!, tx);
          else await projection.applyBatch(batch, tx);
        });
      }
      return await dump(readModels);
    } finally {
      await close();
    }
  }

  it('leaves the rows one transaction per event leaves, whatever the batch size', async () => {
    const perEvent = await applied(1);
    // The fleet leaves rows in every table (hard-deleted and live resources, statuses, references, labels, Finalizing).
    for (const table of RESOURCE_VIEW_TABLES) expect(perEvent[table]!.length).toBeGreaterThan(0);
    for (const size of [2, 5, 13, 1000]) expect({ size, tables: await applied(size) }).toEqual({ size, tables: perEvent });
  });
});
