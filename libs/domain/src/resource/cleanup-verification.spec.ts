import {
  KindRegistry,
  decide,
  deletionStatus,
  fold,
  hardDeleteCandidates,
  type CleanupCheck,
  type DeletionGraph,
  type HardDelete,
  type LeftoverObject,
  type ResourceCommand,
  type ResourceEvent,
} from '@decom/domain';
import { deciderSpec } from '../testing/given-when-then.js';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation', 'dns'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', required_adapters: ['np-configmap'] },
  { kind: 'Trusted', plural: 'trusteds', required_adapters: ['validation'], verify_cleanup: false },
]);
const spec = deciderSpec(kinds);
const T0 = '2026-12-06T10:00:00.000Z';
const T1 = '2026-12-06T10:01:00.000Z';
const T2 = '2026-12-06T10:02:00.000Z';
const T3 = '2026-12-06T10:03:00.000Z';
const C = 'c0000000-0000-7000-8000-000000000001';
const NP = 'n0000000-0000-7000-8000-000000000001';
const meta = (now = T2, caller = 'decom-hard-delete') => ({ now, caller });

const created = (id: string, kind: string, owner?: { id: string; kind: string }): ResourceEvent => ({
  type: 'ResourceCreated',
  data: {
    id,
    kind,
    name: id.slice(0, 8),
    spec: {},
    labels: {},
    ...(owner ? { owner_references: owner } : {}),
    generation: 1,
    created_time: T0,
    created_by: 'alice@example.com',
  },
});
const deleting = (id: string, kind: string): ResourceEvent => ({
  type: 'DeletionRequested',
  data: {
    id,
    kind,
    generation: 2,
    deleted_time: T1,
    deleted_by: 'alice@example.com',
    deletion_policy: 'Delete',
    required_adapters: kinds.get(kind).required_adapters,
  },
});
const finalized = (id: string, kind: string, adapter: string): ResourceCommand => ({
  type: 'ReportAdapterStatus',
  id,
  kind,
  adapter,
  observed_generation: 2,
  observed_time: T1,
  conditions: [
    { type: 'Applied', status: 'False' },
    { type: 'Available', status: 'False' },
    { type: 'Health', status: 'True' },
    { type: 'Finalized', status: 'True' },
  ],
  metadata: meta(T1, `adapter:${adapter}`),
});
/** A history where every listed adapter reported `Finalized=True` at the deletion's generation. */
function history(base: ResourceEvent[], reports: [string, string, string][]): ResourceEvent[] {
  const out = [...base];
  for (const [id, kind, adapter] of reports) out.push(...decide(finalized(id, kind, adapter), fold(out), kinds));
  return out;
}
const cluster = history(
  [created(C, 'Cluster'), deleting(C, 'Cluster')],
  [
    [C, 'Cluster', 'validation'],
    [C, 'Cluster', 'dns'],
  ],
);
const configMap: LeftoverObject = { adapter: 'validation', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'prod', name: 'cluster-config' };
const namespace: LeftoverObject = { adapter: 'validation', apiVersion: 'v1', kind: 'Namespace', name: 'prod', terminating: true };
const clean = (adapters: string[]): CleanupCheck => ({ adapters, objects: [], unverified: [] });
const hardDelete = (
  id: string,
  kind: string,
  checks: Record<string, CleanupCheck> | undefined,
  hosted = ['validation'],
  now = T2,
): HardDelete => ({
  type: 'HardDelete',
  id,
  kind,
  hosted_adapters: hosted,
  ...(checks ? { cleanup_checks: checks } : {}),
  metadata: meta(now),
});

describe('verify before hard delete (cleanup-verification.ts)', () => {
  it('given Finalized=True from every adapter, when the check of the hosted adapter finds nothing, then the resource is hard-deleted', () => {
    const events = spec
      .given(cluster)
      .when(hardDelete(C, 'Cluster', { [C]: clean(['validation']) }))
      .thenEvents();
    expect(events).toMatchObject([{ type: 'HardDeleted', data: { id: C, cause: 'Reconciled' } }]);
  });

  it('given Finalized=True, when objects the hosted adapter created remain (a terminating one included), then it stays Finalizing with LeftoverObjectsFound naming them', () => {
    spec
      .given(cluster)
      .when(hardDelete(C, 'Cluster', { [C]: { adapters: ['validation'], objects: [configMap, namespace], unverified: [] } }))
      .then([
        {
          type: 'LeftoverObjectsFound',
          data: { id: C, kind: 'Cluster', objects: [configMap, namespace], unverified: [], checked_time: T2 },
        },
      ]);
  });

  it('given leftovers already recorded, when a later check finds the same, then nothing new is recorded; when they are gone, then it is hard-deleted', () => {
    const found = decide(
      hardDelete(C, 'Cluster', { [C]: { adapters: ['validation'], objects: [namespace], unverified: [] } }),
      fold(cluster),
      kinds,
    );
    spec
      .given([...cluster, ...found])
      .when(hardDelete(C, 'Cluster', { [C]: { adapters: ['validation'], objects: [namespace], unverified: [] } }, ['validation'], T3))
      .then([]);
    const fewer = spec
      .given([...cluster, ...found])
      .when(hardDelete(C, 'Cluster', { [C]: { adapters: ['validation'], objects: [], unverified: [] } }, ['validation'], T3))
      .thenEvents();
    expect(fewer.map((e) => e.type)).toEqual(['HardDeleted']);
  });

  it('given Kubernetes could not be listed, when the check comes back unverified, then it is never hard-deleted on the unknown', () => {
    const unverified = [{ adapter: 'validation', reason: 'Kubernetes is not connected yet' }];
    spec
      .given(cluster)
      .when(hardDelete(C, 'Cluster', { [C]: { adapters: ['validation'], objects: [], unverified } }))
      .then([{ type: 'LeftoverObjectsFound', data: { id: C, kind: 'Cluster', objects: [], unverified, checked_time: T2 } }]);
  });

  it('given hosted adapters, when the command carries no check for the resource, then nothing is decided (the next check gathers it)', () => {
    spec
      .given(cluster)
      .when(hardDelete(C, 'Cluster', undefined))
      .then([]);
    // A check that does not cover every hosted adapter is no verification either.
    spec
      .given(cluster)
      .when(hardDelete(C, 'Cluster', { [C]: clean(['validation']) }, ['validation', 'dns']))
      .then([]);
  });

  it('given adapters Decom does not host (HyperFleet adapters over HTTP), then their Finalized=True is trusted as before', () => {
    const events = spec
      .given(cluster)
      .when(hardDelete(C, 'Cluster', undefined, []))
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['HardDeleted']);
  });

  it('given verify_cleanup: false on the kind, then a hosted adapter is trusted without a check', () => {
    const trusted = history([created('t1', 'Trusted'), deleting('t1', 'Trusted')], [['t1', 'Trusted', 'validation']]);
    expect(
      spec
        .given(trusted)
        .when(hardDelete('t1', 'Trusted', undefined))
        .thenEvents()
        .map((e) => e.type),
    ).toEqual(['HardDeleted']);
  });

  it('given the deletion policy Orphan, then its adapters are trusted without a check (their objects stay by design)', () => {
    const base = created(C, 'Cluster');
    const orphan: ResourceEvent = { ...base, data: { ...(base.data as object), deletion_policy: 'Orphan' } } as ResourceEvent;
    const orphaned = history(
      [orphan, deleting(C, 'Cluster')],
      [
        [C, 'Cluster', 'validation'],
        [C, 'Cluster', 'dns'],
      ],
    );
    expect(
      spec
        .given(orphaned)
        .when(hardDelete(C, 'Cluster', undefined))
        .thenEvents()
        .map((e) => e.type),
    ).toEqual(['HardDeleted']);
  });

  it('given an abandoned adapter, then its objects are not verified (its leak inventory records them instead)', () => {
    const abandoned = history([created(C, 'Cluster'), deleting(C, 'Cluster')], [[C, 'Cluster', 'validation']]);
    const withAbandon = [
      ...abandoned,
      ...decide(
        { type: 'AbandonAdapter', id: C, kind: 'Cluster', adapter: 'dns', reason: 'zone gone', metadata: meta(T1, 'root') },
        fold(abandoned),
        kinds,
      ),
    ];
    const events = spec
      .given(withAbandon)
      .when(hardDelete(C, 'Cluster', { [C]: clean(['validation']) }, ['validation', 'dns']))
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['HardDeleted']);
  });

  it('given a nodepool and its cluster both due, when the cluster still has leftovers, then the nodepool goes and the walk stops at the cluster', () => {
    const tree = history(
      [created(C, 'Cluster'), created(NP, 'NodePool', { id: C, kind: 'Cluster' }), deleting(C, 'Cluster'), deleting(NP, 'NodePool')],
      [
        [C, 'Cluster', 'validation'],
        [C, 'Cluster', 'dns'],
        [NP, 'NodePool', 'np-configmap'],
      ],
    );
    const hosted = ['validation', 'np-configmap'];
    expect(hardDeleteCandidates(fold(tree), NP, kinds, hosted)).toEqual([
      { id: NP, kind: 'NodePool', adapters: ['np-configmap'] },
      { id: C, kind: 'Cluster', adapters: ['validation'] },
    ]);
    const events = spec
      .given(tree)
      .when(
        hardDelete(
          NP,
          'NodePool',
          { [NP]: clean(['np-configmap']), [C]: { adapters: ['validation'], objects: [configMap], unverified: [] } },
          hosted,
        ),
      )
      .thenEvents();
    expect(events.map((e) => [e.type, e.data.id])).toEqual([
      ['HardDeleted', NP],
      ['LeftoverObjectsFound', C],
    ]);
  });

  it('given no gate (an adapter not finalized), then there is nothing to verify', () => {
    const notYet = history([created(C, 'Cluster'), deleting(C, 'Cluster')], [[C, 'Cluster', 'validation']]);
    expect(hardDeleteCandidates(fold(notYet), C, kinds, ['validation'])).toEqual([]);
  });
});

describe('deletion status › LeftoverObjects and CleanupUnverified blockers', () => {
  const graph = (
    leftovers: { objects: LeftoverObject[]; unverified: { adapter: string; reason: string }[] } | undefined,
    finalizedAdapters = ['validation'],
  ): DeletionGraph => {
    const state = fold(
      history(
        [created(C, 'Cluster'), deleting(C, 'Cluster')],
        finalizedAdapters.map((a) => [C, 'Cluster', a]),
      ),
    );
    const c = state.resources.get(C)!;
    return {
      nodes: new Map([
        [
          C,
          {
            id: C,
            kind: 'Cluster',
            name: 'prod',
            generation: 2,
            deleted_time: T1,
            deletion_required_adapters: ['validation'],
            adapter_statuses: c.adapter_statuses,
            references: [],
            ...(leftovers ? { leftovers: { ...leftovers, checked_time: T2 } } : {}),
          },
        ],
      ]),
      requiredAdaptersOf: () => ['validation'],
    };
  };

  it('names every leftover object, terminating ones marked, once the gate holds', () => {
    const status = deletionStatus(graph({ objects: [configMap, namespace], unverified: [] }), C)!;
    expect(status.blockers).toEqual([
      {
        type: 'LeftoverObjects',
        objects: [configMap, namespace],
        checked_time: T2,
        message: `2 object(s) still carry this resource's ownership marker at ${T2}, although their adapters reported Finalized=True: validation: ConfigMap prod/cluster-config, validation: Namespace prod (terminating); the hard delete waits until they are gone`,
      },
    ]);
  });

  it('says when the cleanup could not be verified, and why', () => {
    const status = deletionStatus(graph({ objects: [], unverified: [{ adapter: 'validation', reason: 'connect ECONNREFUSED' }] }), C)!;
    expect(status.blockers).toMatchObject([
      { type: 'CleanupUnverified', adapters: [{ adapter: 'validation', reason: 'connect ECONNREFUSED' }] },
    ]);
    expect(status.blockers[0]!.message).toMatch(/cleanup not verified for validation \(connect ECONNREFUSED\)/);
  });

  it('shows no verification blocker while an adapter has not finalized (a new deletion generation, say)', () => {
    const status = deletionStatus(graph({ objects: [configMap], unverified: [] }, []), C)!;
    expect(status.blockers.map((b) => b.type)).toEqual(['AdapterNotFinalized']);
  });
});
