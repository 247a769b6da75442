/**
 * The stored deletion status against real read models (SQLite and PostgreSQL): given events, the
 * projection stores the domain's `deletionStatus`, and `/finalizing` and dispatch read it.
 */
import Database from 'better-sqlite3';
import { KindRegistry, dispatchOf, type KindDescriptor, type ResourceEvent } from '@decom/domain';
import { SqliteEventStore } from '@decom/event-store';
import { ProjectionRunner, ResourceQueries, ResourceViewProjection, type ReadModelStore } from '@decom/projections';
import { usePostgres, type PostgresForTests } from '../../../test/support/postgres.js';
import { readModelBackends } from './testing/read-model-backends.js';

const T0 = '2026-12-01T10:00:00.000Z';
const T1 = '2026-12-01T10:01:00.000Z';
const C = '0190b6a4-0000-7000-8000-00000000000c';
const OP = '0190b6a4-0000-7000-8000-0000000000a1';
const APP = '0190b6a4-0000-7000-8000-0000000000a2';

const kindsWith = (clusterAdapters: string[]) =>
  new KindRegistry([
    { kind: 'Cluster', plural: 'clusters', required_adapters: clusterAdapters },
    { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', on_parent_delete: 'cascade', required_adapters: ['np-configmap'] },
  ] as KindDescriptor[]);

const cluster = (): ResourceEvent => ({
  type: 'ResourceCreated',
  data: { id: C, kind: 'Cluster', name: 'c1', spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'a' },
});
const nodepool = (id: string, name: string, references?: Record<string, { id: string; kind: string }[]>): ResourceEvent => ({
  type: 'ResourceCreated',
  data: {
    id,
    kind: 'NodePool',
    name,
    spec: {},
    labels: {},
    owner_references: { id: C, kind: 'Cluster' },
    generation: 1,
    created_time: T0,
    created_by: 'a',
    ...(references ? { references } : {}),
  },
});
const deletion = (id: string, kind: string, required: string[], extra: object = {}): ResourceEvent => ({
  type: 'DeletionRequested',
  data: {
    id,
    kind,
    generation: 2,
    deleted_time: T1,
    deleted_by: 'alice',
    deletion_policy: 'Delete',
    deletion_propagation: 'Background',
    required_adapters: required,
    ...extra,
  },
});

let postgres: PostgresForTests;
beforeAll(async () => void (postgres = await usePostgres()));
afterAll(() => postgres?.stop());

const backends = readModelBackends(() => postgres);

describe.each(backends)('stored deletion status on %s', (_, open) => {
  let store: SqliteEventStore;
  let runner: ProjectionRunner | undefined;
  let readModels: ReadModelStore;
  let close: () => Promise<void>;

  beforeEach(async () => {
    store = new SqliteEventStore(new Database(':memory:'));
    ({ readModels, close } = await open());
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    await store.close();
    await close();
  });

  /** Appends `events` to the cluster's stream and projects them with `kinds` (today's configuration). */
  const project = async (kinds: KindRegistry, events: readonly ResourceEvent[]) => {
    runner = new ProjectionRunner(store, readModels, [new ResourceViewProjection(kinds)]);
    await runner.start();
    const result = await store.append(
      `cluster-${C}`,
      events.map((e) => ({ type: e.type, data: e.data })),
    );
    await runner.waitFor(result.position);
    return new ResourceQueries(readModels, kinds, () => new Date(T1));
  };
  const blockersOf = async (queries: ResourceQueries, id: string) =>
    (await queries.finalizing(new Date(T1))).find((f) => f.id === id)!.blockers;

  it('seed 000 "Hard-Delete Signal": after required_adapters changed to monitoring, /finalizing names the frozen dns', async () => {
    // Recorded while the kind required `dns`; projected (a rebuild, a restart) with today's `monitoring`.
    const queries = await project(kindsWith(['monitoring']), [cluster(), deletion(C, 'Cluster', ['dns'])]);
    const adapters = (await blockersOf(queries, C))
      .filter((b) => b.type === 'AdapterNotFinalized')
      .map((b) => (b as { adapter: string }).adapter);
    expect(adapters).toEqual(['dns']);
    const [row] = await queries.finalizing(new Date(T1));
    expect(row!.waiting_on_adapters).toEqual(['dns']);
    expect(dispatchOf((await queries.get(C))!)).toEqual({ action: 'run', adapters: ['dns'] });
  });

  it('verify before hard delete: /finalizing names the leftover objects LeftoverObjectsFound recorded, and a rebuild stores the same', async () => {
    const kinds = kindsWith(['validation']);
    const finalized: ResourceEvent = {
      type: 'AdapterStatusReported',
      data: {
        id: C,
        kind: 'Cluster',
        status: {
          adapter: 'validation',
          observed_generation: 2,
          conditions: [
            { type: 'Applied', status: 'False', reason: 'Deleted', message: '', last_transition_time: T1 },
            { type: 'Available', status: 'False', reason: 'Deleted', message: '', last_transition_time: T1 },
            { type: 'Health', status: 'True', reason: 'OK', message: '', last_transition_time: T1 },
            { type: 'Finalized', status: 'True', reason: 'CleanupConfirmed', message: '', last_transition_time: T1 },
          ],
          created_time: T1,
          last_report_time: T1,
        },
      },
    };
    const leftover = { adapter: 'validation', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'c1', name: 'cluster-config' };
    const found: ResourceEvent = {
      type: 'LeftoverObjectsFound',
      data: { id: C, kind: 'Cluster', objects: [leftover], unverified: [], checked_time: T1 },
    };
    const queries = await project(kinds, [cluster(), deletion(C, 'Cluster', ['validation']), finalized, found]);
    const blockers = await blockersOf(queries, C);
    expect(blockers).toEqual([
      expect.objectContaining({
        type: 'LeftoverObjects',
        objects: [leftover],
        message: expect.stringContaining('validation: ConfigMap c1/cluster-config'),
      }),
    ]);
    // A rebuild: the same log projected into fresh read models stores the same deletion status.
    await runner!.stop();
    const fresh = await open();
    try {
      const again = new ProjectionRunner(store, fresh.readModels, [new ResourceViewProjection(kinds)]);
      await again.start();
      await again.waitFor(await store.headPosition());
      await again.stop();
      const rebuilt = new ResourceQueries(fresh.readModels, kinds, () => new Date(T1));
      expect(await blockersOf(rebuilt, C)).toEqual(blockers);
    } finally {
      await fresh.close();
    }
  });

  it('seed 004 "users before what they use": InUse names the deleting referrer and the referrer\'s own pause', async () => {
    const queries = await project(kindsWith(['validation']), [
      cluster(),
      nodepool(OP, 'op1'),
      nodepool(APP, 'app1', { depends_on: [{ id: OP, kind: 'NodePool' }] }),
      deletion(C, 'Cluster', ['validation']),
      deletion(OP, 'NodePool', ['np-configmap'], { cascaded_from: C }),
      deletion(APP, 'NodePool', ['np-configmap'], { cascaded_from: C }),
      // Paused after the deletion: the referrer's change must reach the target's stored status.
      { type: 'ResourcePaused', data: { id: APP, kind: 'NodePool', caller: 'bob', reason: 'hold', paused_time: T1 } },
    ]);
    const inUse = (await blockersOf(queries, OP)).find((b) => b.type === 'InUse');
    expect(inUse).toMatchObject({
      referrers: [
        {
          id: APP,
          kind: 'NodePool',
          name: 'app1',
          deleting: true,
          blockers: expect.arrayContaining([{ type: 'Paused', message: 'paused by bob: hold' }]),
        },
      ],
    });
    expect(inUse!.message).toContain("NodePool 'app1' (deleting; paused by bob: hold)");
    expect(dispatchOf((await queries.get(OP))!)).toEqual({ action: 'hold', reason: 'InUse' });
    // The condition still counts referrers only (they may live in a tenancy its readers cannot see).
    const blocked = (await queries.get(OP))!.status.conditions.find((c) => c.type === 'DeletionBlocked');
    expect(blocked).toMatchObject({ status: 'True', reason: 'InUse', message: expect.stringContaining('in use by 1 resource(s)') });
  });

  it('seed 004 "The order": an owner using its own child, deleted Background: both carry the cycle, members and edges', async () => {
    const queries = await project(kindsWith(['validation']), [
      cluster(),
      nodepool(OP, 'op1'),
      {
        type: 'SpecChanged',
        data: {
          id: C,
          kind: 'Cluster',
          spec: {},
          labels: {},
          generation: 2,
          updated_time: T0,
          updated_by: 'a',
          references: { uses: [{ id: OP, kind: 'NodePool' }] },
        },
      },
      deletion(C, 'Cluster', ['validation'], { generation: 3 }),
      deletion(OP, 'NodePool', ['np-configmap'], { cascaded_from: C }),
    ]);
    const cycleOf = async (id: string) => (await blockersOf(queries, id)).find((b) => b.type === 'DependencyCycle');
    expect(await cycleOf(OP)).toMatchObject({
      members: [{ id: OP, kind: 'NodePool', name: 'op1' }, { id: C, kind: 'Cluster', name: 'c1' }, { id: OP }],
      edges: [
        { from: OP, to: C, kind: 'InUse' },
        { from: C, to: OP, kind: 'RecordWait' },
      ],
    });
    expect(await cycleOf(C)).toMatchObject({
      members: [{ id: C }, { id: OP }, { id: C }],
      edges: [
        { from: C, to: OP, kind: 'RecordWait' },
        { from: OP, to: C, kind: 'InUse' },
      ],
    });
    for (const id of [C, OP]) expect(dispatchOf((await queries.get(id))!)).toEqual({ action: 'hold', reason: 'DependencyCycle' });
    // Breaking the cycle (a force delete of the child) clears it on the owner.
    const gone = await store.append(`cluster-${C}`, [
      {
        type: 'HardDeleted',
        data: { id: OP, kind: 'NodePool', owner_references: { id: C, kind: 'Cluster' }, hard_deleted_time: T1, cause: 'ForceDeleted' },
      },
    ]);
    await runner!.waitFor(gone.position);
    expect(await cycleOf(C)).toBeUndefined();
    expect(dispatchOf((await queries.get(C))!)).toEqual({ action: 'run', adapters: ['validation'] });
  });
});
