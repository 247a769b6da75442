import {
  KindRegistry,
  LiveReferrers,
  NotFinalizing,
  ValidationFailed,
  decide,
  effectiveDeletionPolicy,
  fold,
  type ResourceCommand,
  type ResourceEvent,
} from '@decom/domain';
import { deciderSpec } from '../testing/given-when-then.js';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', on_parent_delete: 'cascade', required_adapters: ['np-configmap'] },
]);
const spec = deciderSpec(kinds);
const T0 = '2026-11-29T10:00:00.000Z';
const T1 = '2026-11-29T10:01:00.000Z';
const meta = (now = T1, caller = 'alice@example.com') => ({ now, caller });
const C = 'c1';
const NP = 'n1';
const created = (id: string, kind: string, extra: object = {}, owner?: string): ResourceEvent =>
  ({
    type: 'ResourceCreated',
    data: {
      id,
      kind,
      name: id,
      spec: {},
      labels: {},
      generation: 1,
      created_time: T0,
      created_by: 'a',
      ...(owner ? { owner_references: { id: owner, kind: 'Cluster' } } : {}),
      ...extra,
    },
  }) as ResourceEvent;
const del = (id: string, kind: string): ResourceCommand => ({ type: 'RequestDeletion', id, kind, metadata: meta() });
const run = (history: ResourceEvent[], command: ResourceCommand) => [...history, ...decide(command, fold(history), kinds)];

describe('seed 003 › deletion policy', () => {
  it('defaults to Delete and records the policy each deletion runs with', () => {
    const events = spec
      .given([created(C, 'Cluster'), created(NP, 'NodePool', {}, C)])
      .when(del(C, 'Cluster'))
      .thenEvents();
    expect(events.map((e) => (e.data as { deletion_policy?: string }).deletion_policy)).toEqual(['Delete', 'Delete']);
  });

  it('cascades Orphan to children unless they say otherwise', () => {
    const history = [
      created(C, 'Cluster', { deletion_policy: 'Orphan' }),
      created(NP, 'NodePool', {}, C),
      created('n2', 'NodePool', { deletion_policy: 'Delete' }, C),
    ];
    const events = spec.given(history).when(del(C, 'Cluster')).thenEvents();
    expect(events.map((e) => [e.data.id, (e.data as { deletion_policy?: string }).deletion_policy])).toEqual([
      [C, 'Orphan'],
      [NP, 'Orphan'],
      ['n2', 'Delete'],
    ]);
  });

  it('force-orphan is allowed only while Finalizing, needs a reason, and beats every declared policy below it', () => {
    const history = [created(C, 'Cluster'), created(NP, 'NodePool', { deletion_policy: 'Delete' }, C)];
    spec
      .given(history)
      .when({ type: 'ForceOrphan', id: C, kind: 'Cluster', reason: 'QM gone', metadata: meta() })
      .thenThrows(NotFinalizing);
    const deleting = run(history, del(C, 'Cluster'));
    spec
      .given(deleting)
      .when({ type: 'ForceOrphan', id: C, kind: 'Cluster', reason: ' ', metadata: meta() })
      .thenThrows(ValidationFailed, /reason is required/);
    const orphaned = run(deleting, {
      type: 'ForceOrphan',
      id: C,
      kind: 'Cluster',
      reason: 'backend decommissioned',
      metadata: meta(T1, 'admin'),
    });
    expect(orphaned.at(-1)).toMatchObject({ type: 'ForceOrphaned', data: { caller: 'admin', reason: 'backend decommissioned' } });
    const tree = fold(orphaned);
    expect(effectiveDeletionPolicy(tree, tree.resources.get(NP)!)).toBe('Orphan');
    spec.given(orphaned).when({ type: 'ForceOrphan', id: C, kind: 'Cluster', reason: 'again', metadata: meta() }).then([]);
  });

  it('records Orphaned when an adapter confirms with Finalized=True/Orphaned', () => {
    const deleting = run([created(C, 'Cluster', { deletion_policy: 'Orphan' })], del(C, 'Cluster'));
    const events = spec
      .given(deleting)
      .when({
        type: 'ReportAdapterStatus',
        id: C,
        kind: 'Cluster',
        adapter: 'validation',
        observed_generation: 2,
        observed_time: T1,
        conditions: [
          { type: 'Applied', status: 'True' },
          { type: 'Available', status: 'True' },
          { type: 'Health', status: 'True' },
          { type: 'Finalized', status: 'True', reason: 'Orphaned', message: 'objects left in place' },
        ],
        metadata: meta(),
      })
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['DeletionStarted', 'AdapterStatusReported', 'Orphaned', 'AdapterFinalized']);
  });
});

describe('seed 004 › delete guard', () => {
  const referrer = { id: 'm1', kind: 'Machine', name: 'machine-1', paused: false };

  it('refuses a DELETE while a live resource references it, naming the referrer', () => {
    spec
      .given([created(C, 'Cluster')])
      .when({ ...del(C, 'Cluster'), live_referrers: [referrer] } as ResourceCommand)
      .thenThrows(LiveReferrers, "delete the Machine 'machine-1' instead");
  });

  it('ignores referrers inside the cascade (they are deleted too)', () => {
    const events = spec
      .given([created(C, 'Cluster'), created(NP, 'NodePool', {}, C)])
      .when({ ...del(C, 'Cluster'), live_referrers: [{ id: NP, kind: 'NodePool', name: NP, paused: false }] } as ResourceCommand)
      .thenEvents();
    expect(events).toHaveLength(2);
  });

  it('honours delete_for_move only while every referrer is paused', () => {
    spec
      .given([created(C, 'Cluster')])
      .when({ ...del(C, 'Cluster'), live_referrers: [referrer], delete_for_move: true } as ResourceCommand)
      .thenThrows(LiveReferrers);
    const events = spec
      .given([created(C, 'Cluster')])
      .when({ ...del(C, 'Cluster'), live_referrers: [{ ...referrer, paused: true }], delete_for_move: true } as ResourceCommand)
      .thenEvents();
    expect(events[0]!.type).toBe('DeletionRequested');
  });
});

describe('seed 004 › pause stops a deletion', () => {
  it('pause/unpause need a reason, are recorded once, and work in any state', () => {
    spec
      .given([created(C, 'Cluster')])
      .when({ type: 'SetPaused', id: C, kind: 'Cluster', paused: true, reason: '', metadata: meta() })
      .thenThrows(ValidationFailed);
    const paused = run([created(C, 'Cluster')], {
      type: 'SetPaused',
      id: C,
      kind: 'Cluster',
      paused: true,
      reason: 'clusterctl move',
      metadata: meta(),
    });
    expect(paused.at(-1)).toMatchObject({ type: 'ResourcePaused', data: { reason: 'clusterctl move', caller: 'alice@example.com' } });
    spec.given(paused).when({ type: 'SetPaused', id: C, kind: 'Cluster', paused: true, reason: 'again', metadata: meta() }).then([]);
    spec
      .given(paused)
      .when({ type: 'SetPaused', id: C, kind: 'Cluster', paused: false, reason: 'move done', metadata: meta() })
      .thenEvents();
  });

  it('holds the hard delete of a resource under a paused parent until unpause', () => {
    let history = run([created(C, 'Cluster'), created(NP, 'NodePool', {}, C)], del(C, 'Cluster'));
    history = run(history, { type: 'SetPaused', id: C, kind: 'Cluster', paused: true, reason: 'hold', metadata: meta() });
    history = run(history, {
      type: 'ReportAdapterStatus',
      id: NP,
      kind: 'NodePool',
      adapter: 'np-configmap',
      observed_generation: 2,
      observed_time: T1,
      conditions: [
        { type: 'Applied', status: 'False' },
        { type: 'Available', status: 'False' },
        { type: 'Health', status: 'True' },
        { type: 'Finalized', status: 'True' },
      ],
      metadata: meta(),
    });
    spec.given(history).when({ type: 'HardDelete', id: NP, kind: 'NodePool', metadata: meta() }).then([]);
    history = run(history, { type: 'SetPaused', id: C, kind: 'Cluster', paused: false, reason: 'go', metadata: meta() });
    expect(spec.given(history).when({ type: 'HardDelete', id: NP, kind: 'NodePool', metadata: meta() }).thenEvents()).toMatchObject([
      { type: 'HardDeleted', data: { id: NP } },
    ]);
  });
});
