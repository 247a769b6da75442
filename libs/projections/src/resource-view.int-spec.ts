/**
 * Projection spec against a real SQLite read model: given events, then rows.
 */
import Database from 'better-sqlite3';
import { KindRegistry, type ResourceEvent } from '@decom/domain';
import { SqliteEventStore } from '@decom/event-store';
import { ProjectionRunner, ResourceQueries, ResourceViewProjection, SqliteReadModelStore } from '@decom/projections';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'], deletion_timeout_seconds: 600 },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', on_parent_delete: 'cascade', required_adapters: ['np-configmap'] },
]);
const T0 = '2026-11-29T10:00:00.000Z';
const T1 = '2026-11-29T10:01:00.000Z';
const C = '0190b6a4-0000-7000-8000-00000000000c';
const NP = '0190b6a4-0000-7000-8000-0000000000a1';

const events: ResourceEvent[] = [
  {
    type: 'ResourceCreated',
    data: { id: C, kind: 'Cluster', name: 'c1', spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'a' },
  },
  {
    type: 'ResourceCreated',
    data: {
      id: NP,
      kind: 'NodePool',
      name: 'np1',
      spec: {},
      labels: {},
      owner_references: { id: C, kind: 'Cluster' },
      generation: 1,
      created_time: T0,
      created_by: 'a',
      references: { uses: [{ id: C, kind: 'Cluster' }] },
    },
  },
  {
    type: 'DeletionRequested',
    data: { id: C, kind: 'Cluster', generation: 2, deleted_time: T1, deleted_by: 'alice', deletion_policy: 'Delete' },
  },
  {
    type: 'DeletionRequested',
    data: { id: NP, kind: 'NodePool', generation: 2, deleted_time: T1, deleted_by: 'alice', cascaded_from: C, deletion_policy: 'Delete' },
  },
  {
    type: 'AdapterStatusReported',
    data: {
      id: C,
      kind: 'Cluster',
      status: {
        adapter: 'validation',
        observed_generation: 2,
        conditions: [
          { type: 'Available', status: 'False', last_transition_time: T1 },
          { type: 'Health', status: 'False', reason: 'DeletionError', message: 'RBAC denied', last_transition_time: T1 },
          { type: 'Finalized', status: 'True', last_transition_time: T1 },
        ],
        created_time: T1,
        last_report_time: T1,
      },
    },
  },
];

describe('ResourceViewProjection (real SQLite read model)', () => {
  let db: Database.Database;
  let store: SqliteEventStore;
  let runner: ProjectionRunner;
  let now = new Date(T1);
  let queries: ResourceQueries;

  beforeEach(async () => {
    db = new Database(':memory:');
    store = new SqliteEventStore(db);
    const readModels = new SqliteReadModelStore(db);
    runner = new ProjectionRunner(store, readModels, [new ResourceViewProjection(kinds)]);
    await runner.start();
    const result = await store.append(
      `cluster-${C}`,
      events.map((e) => ({ type: e.type, data: e.data })),
    );
    await runner.waitFor(result.position);
    queries = new ResourceQueries(readModels, kinds, () => now);
  });
  afterEach(async () => {
    await runner.stop();
    await store.close();
    db.close();
  });

  it('keeps the parent Reconciled=False while a child record remains, with DeletionBlocked counting it', async () => {
    const cluster = await queries.get(C);
    const byType = Object.fromEntries(cluster!.status.conditions.map((c) => [c.type, c]));
    expect(byType['Reconciled']).toMatchObject({ status: 'False', reason: 'ReconciledWaitingForChildren', observed_generation: 2 });
    // The nodepool references its cluster (`uses`): users before what they use, so InUse names it.
    expect(byType['DeletionBlocked']).toMatchObject({
      status: 'True',
      reason: 'InUse',
      message: 'in use by 1 resource(s) that must be hard-deleted first (GET /api/decom/v1/finalizing names those you may see)',
    });
    expect(byType['ValidationSuccessful']).toMatchObject({ status: 'False' });
    expect(cluster).toMatchObject({ deleted_time: T1, deleted_by: 'alice', generation: 2, deletion_policy: 'Delete' });
  });

  it('lists Finalizing resources with what they wait on and unhealthy adapters', async () => {
    const rows = await queries.finalizing(new Date('2026-11-29T10:11:00.000Z'));
    expect(rows.map((r) => [r.id, r.waiting_on_adapters, r.children_remaining, r.finalizing_seconds])).toEqual([
      [C, [], 1, 600],
      [NP, ['np-configmap'], 0, 600],
    ]);
    expect(rows[0]!.unhealthy_adapters).toEqual([{ adapter: 'validation', reason: 'DeletionError', message: 'RBAC denied' }]);
  });

  it('shows DeletionTimedOut past the kind timeout, never implying success', async () => {
    expect((await queries.get(C))!.status.conditions.map((c) => c.type)).not.toContain('DeletionTimedOut');
    now = new Date('2026-11-29T10:11:00.001Z');
    const timedOut = (await queries.get(C))!.status.conditions.find((c) => c.type === 'DeletionTimedOut');
    expect(timedOut).toMatchObject({ status: 'True', reason: 'DeletionTimeoutExceeded' });
    expect(timedOut!.message).toContain('more than 600s');
    expect((await queries.get(C))!.deleted_time).toBe(T1);
  });

  it('indexes references for the delete guard: who references whom, also while the referrer is deleting (its tree says so)', async () => {
    expect(await queries.indexedReferences(C)).toEqual([{ target_id: C, id: NP, kind: 'NodePool' }]);
  });

  it('label search follows created, changed and hard-deleted labels (resource_labels)', async () => {
    const found = async (search: string) => (await queries.list({ page: 1, size: 10, search })).items.map((r) => r.id);
    const other = '0190b6a4-0000-7000-8000-0000000000c2';
    const created = await store.append(`cluster-${other}`, [
      {
        type: 'ResourceCreated',
        data: {
          id: other,
          kind: 'Cluster',
          name: 'c2',
          spec: {},
          labels: { env: 'prod', team: 'a' },
          generation: 1,
          created_time: T0,
          created_by: 'a',
        },
      },
    ]);
    await runner.waitFor(created.position);
    expect(await found("labels.env = 'prod'")).toEqual([other]);
    const changed = await store.append(`cluster-${other}`, [
      {
        type: 'SpecChanged',
        data: { id: other, kind: 'Cluster', spec: {}, labels: { env: 'stage' }, generation: 2, updated_time: T1, updated_by: 'a' },
      },
    ]);
    await runner.waitFor(changed.position);
    expect(await found("labels.env = 'prod'")).toEqual([]);
    expect(await found("labels.env = 'stage'")).toEqual([other]);
    expect(await found("labels.team = 'a'")).toEqual([]);
    const gone = await store.append(`cluster-${other}`, [
      { type: 'HardDeleted', data: { id: other, kind: 'Cluster', hard_deleted_time: T1, cause: 'Reconciled' } },
    ]);
    await runner.waitFor(gone.position);
    expect(await found("labels.env = 'stage'")).toEqual([]);
    expect(await db.prepare(`SELECT COUNT(*) AS n FROM resource_labels WHERE resource_id = ?`).get(other)).toEqual({ n: 0 });
  });

  it('removes rows on HardDeleted and keeps the index entry', async () => {
    const result = await store.append(`cluster-${C}`, [
      {
        type: 'HardDeleted',
        data: { id: NP, kind: 'NodePool', owner_references: { id: C, kind: 'Cluster' }, hard_deleted_time: T1, cause: 'Reconciled' },
      },
    ]);
    await runner.waitFor(result.position);
    expect(await queries.get(NP)).toBeUndefined();
    expect(await queries.locate(NP)).toMatchObject({ stream: `cluster-${C}`, hard_delete_cause: 'Reconciled' });
    const reconciled = (await queries.get(C))!.status.conditions.find((c) => c.type === 'Reconciled');
    expect(reconciled).toMatchObject({ status: 'True', reason: 'ReconciledAll' });
  });
});
