/**
 * Deletion order across the tree: one describe per seed section / rule.
 */
import {
  CascadeThroughLiveReference,
  DependencyCycle,
  KindRegistry,
  LiveReferrers,
  computeResourceConditions,
  decide,
  findWaitCycle,
  fold,
  referenceEdgeFrom,
  type ReferenceEdge,
  type ResourceEvent,
} from '@decom/domain';
import { deciderSpec } from '../testing/given-when-then.js';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'], deletion_propagation: 'Foreground' },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', required_adapters: ['np-configmap'] },
]);
const spec = deciderSpec(kinds);
const T0 = '2026-12-01T10:00:00.000Z';
const T1 = '2026-12-01T10:01:00.000Z';
const T2 = '2026-12-01T10:02:00.000Z';
const meta = (now = T1) => ({ now, caller: 'alice@example.com' });
const C = 'c1';
const C2 = 'c2';

const cluster = (id: string, extra: object = {}): ResourceEvent => ({
  type: 'ResourceCreated',
  data: { id, kind: 'Cluster', name: `cluster-${id}`, spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'a', ...extra },
});
const nodepool = (id: string, owner = C, extra: object = {}): ResourceEvent => ({
  type: 'ResourceCreated',
  data: {
    id,
    kind: 'NodePool',
    name: id,
    spec: {},
    labels: {},
    owner_references: { id: owner, kind: 'Cluster' },
    generation: 1,
    created_time: T0,
    created_by: 'a',
    ...extra,
  },
});
const dependsOn = (...ids: string[]) => ({ references: { depends_on: ids.map((id) => ({ id, kind: 'NodePool' })) } });
const deletionOf = (events: ResourceEvent[], id: string) =>
  events.find((e): e is Extract<ResourceEvent, { type: 'DeletionRequested' }> => e.type === 'DeletionRequested' && e.data.id === id)!.data;

describe('propagation (seed 004 "The order"; seed 000 "Subresource Deletion")', () => {
  it('a kind declared Foreground records it on the whole cascade; the request overrides it', () => {
    const events = spec
      .given([cluster(C), nodepool('np1')])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .thenEvents();
    expect(deletionOf(events, C).deletion_propagation).toBe('Foreground');
    // NodePool declares nothing: its own default (Background) — the cluster waits for it either way.
    expect(deletionOf(events, 'np1').deletion_propagation).toBe('Background');
    const background = spec
      .given([cluster(C), nodepool('np1')])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', propagation_policy: 'Background', metadata: meta() })
      .thenEvents();
    expect([deletionOf(background, C).deletion_propagation, deletionOf(background, 'np1').deletion_propagation]).toEqual([
      'Background',
      'Background',
    ]);
  });

  it('Foreground: dependents hold the adapters (DeletionBlocked=True/DependentsExist with count and ids); Background holds nothing', () => {
    const conditions = computeResourceConditions({
      generation: 2,
      deleted_time: T1,
      required_adapters: ['validation'],
      adapter_statuses: {},
      child_record_count: 2,
      created_time: T0,
      updated_time: T1,
      previous: [],
      blockers: [{ reason: 'DependentsExist', ids: ['np1', 'np2'] }],
    });
    const blocked = conditions.find((c) => c.type === 'DeletionBlocked')!;
    expect(blocked).toMatchObject({
      status: 'True',
      reason: 'DependentsExist',
      message: expect.stringContaining('2 dependent resource(s) must be hard-deleted first (propagationPolicy Foreground): [np1, np2]'),
    });
  });
});

describe('the adapter set is frozen at DeletionRequested', () => {
  it('records the required adapters of the moment', () => {
    const events = spec
      .given([cluster(C), nodepool('np1')])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .thenEvents();
    expect(deletionOf(events, C).required_adapters).toEqual(['validation']);
    expect(deletionOf(events, 'np1').required_adapters).toEqual(['np-configmap']);
  });

  const history = (): ResourceEvent[] => [
    cluster(C),
    ...decide({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() }, fold([cluster(C)]), kinds),
  ];
  const finalized = (adapter: string) => ({
    type: 'ReportAdapterStatus' as const,
    id: C,
    kind: 'Cluster',
    adapter,
    observed_generation: 2,
    observed_time: T2,
    conditions: [
      { type: 'Applied', status: 'False' },
      { type: 'Available', status: 'False' },
      { type: 'Health', status: 'True' },
      { type: 'Finalized', status: 'True' },
    ],
    metadata: meta(T2),
  });

  it('a later config change (monitoring added) neither strands nor shortcuts it: the hard delete follows the frozen set', () => {
    const later = new KindRegistry([{ kind: 'Cluster', plural: 'clusters', required_adapters: ['validation', 'monitoring'] }]);
    const reported = decide(finalized('validation'), fold(history()), later);
    const hard = decide({ type: 'HardDelete', id: C, kind: 'Cluster', metadata: meta(T2) }, fold([...history(), ...reported]), later);
    expect(hard.map((e) => e.type)).toEqual(['HardDeleted']);
  });

  it('a report from an adapter outside the set is recorded as discarded, not counted', () => {
    const events = decide(finalized('monitoring'), fold(history()), kinds);
    expect(events).toEqual([
      {
        type: 'AdapterStatusDiscarded',
        data: expect.objectContaining({
          id: C,
          adapter: 'monitoring',
          observed_generation: 2,
          reason: 'NotInDeletionAdapterSet',
          discarded_time: T2,
        }),
      },
    ]);
    expect(fold([...history(), ...events]).resources.get(C)!.adapter_statuses).toEqual({});
  });
});

describe('users before what they use (InUse)', () => {
  it('a deleting resource referenced by any stored resource waits for it, naming the referrers', () => {});

  it('referrers inside the same cascade let the DELETE through (they are deleted too)', () => {
    const events = spec
      .given([cluster(C), nodepool('op1'), nodepool('app1', C, dependsOn('op1'))])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .thenEvents();
    expect(events.map((e) => e.data.id)).toEqual([C, 'op1', 'app1']);
  });
});

describe('no cascade through a live reference (seed 004 guard, across the subtree)', () => {
  const live = (target_id: string, id: string, paused = false): ReferenceEdge => ({
    target_id,
    id,
    kind: 'NodePool',
    name: id,
    paused,
    deleting: false,
  });

  it('refuses a cascade whose subtree holds a resource a live resource outside references, naming referrer and child', () => {
    spec
      .given([cluster(C), nodepool('shared1'), cluster(C2), nodepool('user1', C2, dependsOn('shared1'))])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', referrers: [live('shared1', 'user1')], metadata: meta() })
      .thenThrows(CascadeThroughLiveReference, /NodePool 'shared1' \(shared1\), referenced by live NodePool 'user1' \(user1\)/);
  });

  it('a direct reference to the resource itself stays the seed 004 guard (LiveReferrers)', () => {
    spec
      .given([cluster(C), nodepool('shared1')])
      .when({ type: 'RequestDeletion', id: 'shared1', kind: 'NodePool', referrers: [live('shared1', 'user1')], metadata: meta() })
      .thenThrows(LiveReferrers);
  });

  it('?delete_for_move=true under the pause rule allows it', () => {
    const events = spec
      .given([cluster(C), nodepool('shared1')])
      .when({
        type: 'RequestDeletion',
        id: C,
        kind: 'Cluster',
        referrers: [live('shared1', 'user1', true)],
        delete_for_move: true,
        metadata: meta(),
      })
      .thenEvents();
    expect(events).toHaveLength(2);
  });

  it('a referrer that is itself deleting does not refuse (the child then waits for it: InUse)', () => {
    const events = spec
      .given([cluster(C), nodepool('shared1')])
      .when({
        type: 'RequestDeletion',
        id: C,
        kind: 'Cluster',
        referrers: [{ ...live('shared1', 'user1'), deleting: true }],
        metadata: meta(),
      })
      .thenEvents();
    expect(events).toHaveLength(2);
  });
});

describe('cycles are diagnosed', () => {
  it('findWaitCycle returns the members in order, the first repeated last', () => {
    const graph: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'] };
    expect(findWaitCycle('a', (x) => graph[x] ?? [])).toEqual(['a', 'b', 'c', 'a']);
    expect(findWaitCycle('d', (x) => graph[x] ?? [])).toBeUndefined();
  });

  it('refuses a DELETE whose resources would wait on each other (two nodepools referencing each other), naming every member', () => {
    spec
      .given([cluster(C), nodepool('a1', C, dependsOn('b1')), nodepool('b1', C, dependsOn('a1'))])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .thenThrows(DependencyCycle, /dependency cycle NodePool 'a1' \(a1\) → NodePool 'b1' \(b1\) → NodePool 'a1' \(a1\)/);
  });

  it('Background: an owner that uses its own child is refused, the bottom-up record wait named as an edge of the cycle', () => {
    spec
      .given([cluster(C, { references: { uses: [{ id: 'np1', kind: 'NodePool' }] } }), nodepool('np1')])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', propagation_policy: 'Background', metadata: meta() })
      .thenThrows(DependencyCycle, /dependency cycle Cluster 'cluster-c1' \(c1\) → NodePool 'np1' \(np1\) → Cluster 'cluster-c1' \(c1\)/);
  });

  it('a child using its parent is no cycle under Background', () => {
    const events = spec
      .given([cluster(C), nodepool('np1', C, { references: { uses: [{ id: C, kind: 'Cluster' }] } })])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', propagation_policy: 'Background', metadata: meta() })
      .thenEvents();
    expect(events).toHaveLength(2);
  });

  it('a self-reference is no cycle (a resource never waits for itself)', () => {
    const events = spec
      .given([cluster(C), nodepool('self1', C, dependsOn('self1'))])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .thenEvents();
    expect(events).toHaveLength(2);
  });

  it('refuses a DELETE that can never succeed across trees (live references both ways), naming the cycle', () => {
    const edges: ReferenceEdge[] = [
      { target_id: 'x1', id: 'y1', kind: 'NodePool', name: 'y1', paused: false, deleting: false },
      { target_id: 'y1', id: 'x1', kind: 'NodePool', name: 'x1', paused: false, deleting: false },
    ];
    spec
      .given([cluster(C), nodepool('x1')])
      .when({ type: 'RequestDeletion', id: 'x1', kind: 'NodePool', referrers: edges, metadata: meta() })
      .thenThrows(DependencyCycle, /x1.*→.*y1.*→.*x1/);
  });

  it('a cycle among deleting resources shows as DeletionBlocked=True/DependencyCycle first', () => {
    const blockers = [
      { reason: 'DependencyCycle' as const, ids: ['a1', 'b1', 'a1'] },
      { reason: 'InUse' as const, ids: ['b1'] },
    ];
    const conditions = computeResourceConditions({
      generation: 2,
      deleted_time: T1,
      required_adapters: [],
      adapter_statuses: {},
      child_record_count: 0,
      created_time: T0,
      updated_time: T1,
      previous: [],
      blockers,
    });
    expect(conditions.find((c) => c.type === 'DeletionBlocked')).toMatchObject({
      status: 'True',
      reason: 'DependencyCycle',
      message: expect.stringContaining('dependency cycle through 2 resource(s)'),
    });
    // Members are counted, not named: the condition is read by every tenant that sees the resource.
    expect(conditions.find((c) => c.type === 'DeletionBlocked')?.message).not.toMatch(/b1/);
  });
});

describe('effective policy with its source (seed 003)', () => {
  it('DeletionRequested records the policy and where it comes from', () => {
    const events = spec
      .given([cluster(C, { deletion_policy: 'Orphan' }), nodepool('np1'), nodepool('np2', C, { deletion_policy: 'Delete' })])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .thenEvents();
    expect(deletionOf(events, C)).toMatchObject({ deletion_policy: 'Orphan', deletion_policy_source: 'own' });
    expect(deletionOf(events, 'np1')).toMatchObject({ deletion_policy: 'Orphan', deletion_policy_source: `inherited from Cluster/${C}` });
    expect(deletionOf(events, 'np2')).toMatchObject({ deletion_policy: 'Delete', deletion_policy_source: 'own' });
  });
});

describe('the delete guard weighs each referrer by its own tree (seed 004 "Delete guard"; referrer-facts.ts)', () => {
  const deep = new KindRegistry([
    { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] },
    { kind: 'Org', plural: 'orgs', required_adapters: [] },
    { kind: 'Team', plural: 'teams', parent_kind: 'Org', required_adapters: [] },
    { kind: 'App', plural: 'apps', parent_kind: 'Team', required_adapters: [] },
  ]);
  const created = (id: string, kind: string, owner?: { id: string; kind: string }, extra: object = {}): ResourceEvent => ({
    type: 'ResourceCreated',
    data: {
      id,
      kind,
      name: `${kind.toLowerCase()}-${id}`,
      spec: {},
      labels: {},
      generation: 1,
      created_time: T0,
      created_by: 'a',
      ...(owner ? { owner_references: owner } : {}),
      ...extra,
    },
  });
  const paused = (id: string, kind: string): ResourceEvent => ({
    type: 'ResourcePaused',
    data: { id, kind, caller: 'bob@example.com', reason: 'clusterctl move', paused_time: T0 },
  });
  const orgTree = (pausedOrg: boolean) =>
    fold([
      created('o1', 'Org'),
      created('t1', 'Team', { id: 'o1', kind: 'Org' }),
      created('a1', 'App', { id: 't1', kind: 'Team' }, { references: { uses: [{ id: C, kind: 'Cluster' }] } }),
      ...(pausedOrg ? [paused('o1', 'Org')] : []),
    ]);

  it('a referrer paused by its grandparent counts as paused (a move may go on); by nobody, it refuses', () => {
    expect(referenceEdgeFrom(orgTree(true), 'a1', C)).toEqual({
      id: 'a1',
      kind: 'App',
      name: 'app-a1',
      paused: true,
      deleting: false,
      target_id: C,
    });
    expect(referenceEdgeFrom(orgTree(false), 'a1', C)).toMatchObject({ paused: false, deleting: false });
    expect(referenceEdgeFrom(orgTree(true), 'gone', C)).toBeUndefined();
    const deepSpec = deciderSpec(deep);
    const move = (tree: ReturnType<typeof orgTree>) =>
      deepSpec.given([cluster(C)]).when({
        type: 'RequestDeletion',
        id: C,
        kind: 'Cluster',
        referrers: [referenceEdgeFrom(tree, 'a1', C)!],
        delete_for_move: true,
        metadata: meta(),
      });
    expect(move(orgTree(true)).thenEvents()).toHaveLength(1);
    move(orgTree(false)).thenThrows(LiveReferrers);
  });

  it('for a referrer inside the tree, the state decides, whatever the handler’s edge says', () => {
    // np-user (in the cluster's own tree) is paused by its cluster; an edge claiming it is live and unpaused loses.
    const events = spec
      .given([cluster(C2), nodepool('shared1', C2), nodepool('np-user', C2, dependsOn('shared1')), paused(C2, 'Cluster')])
      .when({
        type: 'RequestDeletion',
        id: 'shared1',
        kind: 'NodePool',
        referrers: [{ target_id: 'shared1', id: 'np-user', kind: 'NodePool', name: 'np-user', paused: false, deleting: false }],
        delete_for_move: true,
        metadata: meta(),
      })
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['DeletionRequested']);
  });
});
