import {
  ActiveChildrenRestrict,
  KindRegistry,
  MutationWhileFinalizing,
  NotFinalizing,
  ResourceNotFound,
  ValidationFailed,
  computeReconciled,
  decide,
  fold,
  type ResourceCommand,
  type ResourceEvent,
} from '@decom/domain';
import { deciderSpec } from '../testing/given-when-then.js';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', on_parent_delete: 'cascade', required_adapters: ['np-configmap'] },
  { kind: 'Channel', plural: 'channels', required_adapters: [] },
  { kind: 'Version', plural: 'versions', parent_kind: 'Channel', on_parent_delete: 'restrict', required_adapters: [] },
]);
const spec = deciderSpec(kinds);
const T0 = '2026-11-29T10:00:00.000Z';
const T1 = '2026-11-29T10:01:00.000Z';
const T2 = '2026-11-29T10:02:00.000Z';
const meta = (now = T1, caller = 'alice@example.com') => ({ now, caller });

const C = 'c0000000-0000-7000-8000-000000000001';
const NP1 = 'n0000000-0000-7000-8000-000000000001';
const NP2 = 'n0000000-0000-7000-8000-000000000002';

const clusterCreated = {
  type: 'ResourceCreated',
  data: { id: C, kind: 'Cluster', name: 'prod', spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'alice@example.com' },
} as const satisfies ResourceEvent;
const npCreated = (id: string, name: string): ResourceEvent => ({
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
    created_by: 'alice@example.com',
  },
});
const deleted = (id: string, kind: string, generation: number, cascaded_from?: string): ResourceEvent => ({
  type: 'DeletionRequested',
  data: {
    id,
    kind,
    generation,
    deleted_time: T1,
    deleted_by: 'alice@example.com',
    ...(cascaded_from ? { cascaded_from } : {}),
    deletion_policy: 'Delete',
    deletion_policy_source: 'default',
    deletion_propagation: 'Background',
    required_adapters: kinds.get(kind).required_adapters,
  },
});
const report = (
  id: string,
  kind: string,
  adapter: string,
  generation: number,
  conds: Record<string, string>,
  now = T2,
): ResourceCommand => ({
  type: 'ReportAdapterStatus',
  id,
  kind,
  adapter,
  observed_generation: generation,
  observed_time: now,
  conditions: Object.entries(conds).map(([type, status]) => ({ type, status })),
  metadata: meta(now),
});
const finalizedReport = (id: string, kind: string, adapter: string, generation: number) =>
  report(id, kind, adapter, generation, { Applied: 'False', Available: 'False', Health: 'True', Finalized: 'True' });
/** Events recorded by a report command, for building histories. */
const recorded = (history: ResourceEvent[], command: ResourceCommand) => decide(command, fold(history), kinds);

describe('seed 000 › API Deletion Handling › Step 1: Mark for Deletion', () => {
  it('marks the cluster and cascades to nodepools with generation + 1', () => {
    spec
      .given([clusterCreated, npCreated(NP1, 'np-a'), npCreated(NP2, 'np-b')])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .then([deleted(C, 'Cluster', 2), deleted(NP1, 'NodePool', 2, C), deleted(NP2, 'NodePool', 2, C)]);
  });

  it('is idempotent: a second DELETE records nothing (same deleted_time and generation)', () => {
    spec
      .given([clusterCreated, deleted(C, 'Cluster', 2)])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta(T2) })
      .then([]);
  });

  it('leaves a nodepool that is already deleting untouched by the cascade', () => {
    spec
      .given([clusterCreated, npCreated(NP1, 'np-a'), deleted(NP1, 'NodePool', 2)])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta(T2) })
      .then([{ ...deleted(C, 'Cluster', 2), data: { ...deleted(C, 'Cluster', 2).data, deleted_time: T2 } } as ResourceEvent]);
  });

  it('404s an unknown resource', () => {
    spec.given([]).when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() }).thenThrows(ResourceNotFound);
  });

  it('refuses to delete a parent with an active child of a restrict kind', () => {
    const channel: ResourceEvent = { type: 'ResourceCreated', data: { ...clusterCreated.data, kind: 'Channel', id: 'ch1' } };
    const version: ResourceEvent = {
      type: 'ResourceCreated',
      data: { ...clusterCreated.data, kind: 'Version', id: 'v1', name: 'v1', owner_references: { id: 'ch1', kind: 'Channel' } },
    };
    spec
      .given([channel, version])
      .when({ type: 'RequestDeletion', id: 'ch1', kind: 'Channel', metadata: meta() })
      .thenThrows(ActiveChildrenRestrict, /active Version/);
  });
});

describe('seed 000 edge case #12 › API rejects mutations during Finalizing', () => {
  it('#12 rejects PATCH while Finalizing', () => {
    spec
      .given([clusterCreated, deleted(C, 'Cluster', 2)])
      .when({ type: 'PatchResource', id: C, kind: 'Cluster', spec: { a: 1 }, metadata: meta(T2) })
      .thenThrows(MutationWhileFinalizing, /marked for deletion/);
  });

  it('#12 rejects a nodepool create under a deleting cluster', () => {
    spec
      .given([clusterCreated, deleted(C, 'Cluster', 2)])
      .when({
        type: 'CreateResource',
        id: NP1,
        kind: 'NodePool',
        name: 'np-a',
        spec: {},
        labels: {},
        owner: { id: C, kind: 'Cluster' },
        metadata: meta(T2),
      })
      .thenThrows(MutationWhileFinalizing);
  });

  it('a no-op PATCH records nothing; a real change bumps generation', () => {
    spec.given([clusterCreated]).when({ type: 'PatchResource', id: C, kind: 'Cluster', spec: {}, metadata: meta() }).then([]);
    const events = spec
      .given([clusterCreated])
      .when({ type: 'PatchResource', id: C, kind: 'Cluster', labels: { env: 'prod' }, metadata: meta() })
      .thenEvents();
    expect(events).toMatchObject([{ type: 'SpecChanged', data: { generation: 2, labels: { env: 'prod' } } }]);
  });
});

describe('status ingestion', () => {
  const history = [clusterCreated];

  it('stores a valid report', () => {
    const events = spec
      .given(history)
      .when(report(C, 'Cluster', 'validation', 1, { Applied: 'True', Available: 'True', Health: 'True' }))
      .thenEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'AdapterStatusReported', data: { status: { adapter: 'validation', observed_generation: 1 } } });
  });

  it('400s a report missing a mandatory condition, naming it', () => {
    spec
      .given(history)
      .when(report(C, 'Cluster', 'validation', 1, { Applied: 'True', Health: 'True' }))
      .thenThrows(ValidationFailed, /missing mandatory condition 'Available'/);
  });

  it('400s an invalid status and an observed_time too far in the future', () => {
    spec
      .given(history)
      .when(report(C, 'Cluster', 'validation', 1, { Applied: 'Maybe', Available: 'True', Health: 'True' }))
      .thenThrows(ValidationFailed, /status must be one of/);
    const future = {
      ...(report(C, 'Cluster', 'validation', 1, { Applied: 'True', Available: 'True', Health: 'True' }) as object),
      observed_time: '2026-11-29T11:00:00Z',
    } as ResourceCommand;
    spec
      .given(history)
      .when(future)
      .thenThrows(ValidationFailed, /future/);
  });

  it('discards a report from the future generation (204)', () => {
    spec
      .given(history)
      .when(report(C, 'Cluster', 'validation', 2, { Applied: 'True', Available: 'True', Health: 'True' }))
      .then([]);
  });

  it('discards a stale generation once a newer one is stored', () => {
    const h = [
      clusterCreated,
      {
        type: 'SpecChanged',
        data: { id: C, kind: 'Cluster', spec: { x: 1 }, labels: {}, generation: 2, updated_time: T1, updated_by: 'a' },
      } as ResourceEvent,
    ];
    const stored = recorded(h, report(C, 'Cluster', 'validation', 2, { Applied: 'True', Available: 'True', Health: 'True' }));
    spec
      .given([...h, ...stored])
      .when(report(C, 'Cluster', 'validation', 1, { Applied: 'True', Available: 'True', Health: 'True' }))
      .then([]);
  });

  it('discards Available=Unknown when a report is stored, but not a Finalized report while deleting', () => {
    const stored = recorded(history, report(C, 'Cluster', 'validation', 1, { Applied: 'True', Available: 'True', Health: 'True' }));
    spec
      .given([...history, ...stored])
      .when(report(C, 'Cluster', 'validation', 1, { Applied: 'True', Available: 'Unknown', Health: 'True' }))
      .then([]);
    const deleting = [...history, ...stored, deleted(C, 'Cluster', 2)];
    const events = spec
      .given(deleting)
      .when(report(C, 'Cluster', 'validation', 2, { Applied: 'False', Available: 'Unknown', Health: 'True', Finalized: 'True' }))
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['DeletionStarted', 'AdapterStatusReported', 'AdapterFinalized']);
  });

  it('records AdapterFinalized only at the current generation and only once', () => {
    const h = [clusterCreated, deleted(C, 'Cluster', 2)];
    spec
      .given(h)
      .when(finalizedReport(C, 'Cluster', 'validation', 1))
      .thenEvents()
      .forEach((e) => expect(e.type).toBe('AdapterStatusReported'));
    const first = recorded(h, finalizedReport(C, 'Cluster', 'validation', 2));
    expect(first.map((e) => e.type)).toEqual(['DeletionStarted', 'AdapterStatusReported', 'AdapterFinalized']);
    // An identical repeat records nothing (transitions only); a changed report is stored, without a second AdapterFinalized.
    const same = spec
      .given([...h, ...first])
      .when(
        report(
          C,
          'Cluster',
          'validation',
          2,
          { Applied: 'False', Available: 'False', Health: 'True', Finalized: 'True' },
          '2026-11-29T10:03:00.000Z',
        ),
      )
      .thenEvents();
    expect(same).toEqual([]);
    const changed = spec
      .given([...h, ...first])
      .when(
        report(
          C,
          'Cluster',
          'validation',
          2,
          { Applied: 'False', Available: 'False', Health: 'False', Finalized: 'True' },
          '2026-11-29T10:03:00.000Z',
        ),
      )
      .thenEvents();
    expect(changed.map((e) => e.type)).toEqual(['AdapterStatusReported']);
  });

  it('keeps last_transition_time while a condition status is unchanged', () => {
    const first = recorded(history, report(C, 'Cluster', 'validation', 1, { Applied: 'True', Available: 'True', Health: 'True' }, T1));
    const second = recorded(
      [...history, ...first],
      report(C, 'Cluster', 'validation', 1, { Applied: 'True', Available: 'False', Health: 'True' }, T2),
    );
    const conds = (second[0] as Extract<ResourceEvent, { type: 'AdapterStatusReported' }>).data.status.conditions;
    expect(conds.find((c) => c.type === 'Applied')!.last_transition_time).toBe(T1);
    expect(conds.find((c) => c.type === 'Available')!.last_transition_time).toBe(T2);
  });
});

describe('seed 000 › Reconciled condition', () => {
  const base = { generation: 2, required_adapters: ['validation'], child_record_count: 0 };
  const status = (generation: number, conds: Record<string, string>) => ({
    validation: {
      adapter: 'validation',
      observed_generation: generation,
      conditions: Object.entries(conds).map(([type, s]) => ({ type, status: s as 'True', last_transition_time: T1 })),
      created_time: T1,
      last_report_time: T1,
    },
  });

  it('is computed from Available when not deleting', () => {
    expect(computeReconciled({ ...base, adapter_statuses: status(2, { Available: 'True' }) }).status).toBe('True');
    expect(computeReconciled({ ...base, adapter_statuses: status(1, { Available: 'True' }) }).status).toBe('False');
  });

  it('is computed from Finalized while deleting, whatever Available says (#2 stale Applied=False)', () => {
    const deleting = { ...base, deleted_time: T1 };
    expect(computeReconciled({ ...deleting, adapter_statuses: status(2, { Available: 'True', Finalized: 'False' }) }).status).toBe('False');
    expect(
      computeReconciled({ ...deleting, adapter_statuses: status(2, { Applied: 'False', Available: 'False', Finalized: 'True' }) }),
    ).toMatchObject({ status: 'True', reason: 'ReconciledAll' });
    expect(computeReconciled({ ...deleting, adapter_statuses: status(1, { Finalized: 'True' }) }).status).toBe('False');
  });

  it('stays False while any child record remains, soft-deleted ones included', () => {
    const verdict = computeReconciled({
      ...base,
      deleted_time: T1,
      child_record_count: 1,
      adapter_statuses: status(2, { Finalized: 'True' }),
    });
    expect(verdict).toMatchObject({ status: 'False', reason: 'ReconciledWaitingForChildren' });
  });

  it('names the missing adapters in the message', () => {
    expect(computeReconciled({ ...base, deleted_time: T1, adapter_statuses: {} }).message).toMatch(
      /not reporting Finalized=True: \[validation\]/,
    );
  });
});

describe('seed 000 › API Hard-Delete Signal (bottom-up)', () => {
  const tree = [clusterCreated, npCreated(NP1, 'np-a'), deleted(C, 'Cluster', 2), deleted(NP1, 'NodePool', 2, C)];

  it('does not hard-delete the cluster while a nodepool record remains', () => {
    const fin = recorded(tree, finalizedReport(C, 'Cluster', 'validation', 2));
    spec
      .given([...tree, ...fin])
      .when({ type: 'HardDelete', id: C, kind: 'Cluster', metadata: meta(T2) })
      .then([]);
  });

  it('hard-deletes the nodepool, then the cluster in the same decision when its gate now holds', () => {
    const finC = recorded(tree, finalizedReport(C, 'Cluster', 'validation', 2));
    const finNp = recorded([...tree, ...finC], finalizedReport(NP1, 'NodePool', 'np-configmap', 2));
    const events = spec
      .given([...tree, ...finC, ...finNp])
      .when({ type: 'HardDelete', id: NP1, kind: 'NodePool', metadata: meta(T2) })
      .thenEvents();
    expect(events.map((e) => [e.type, e.data.id])).toEqual([
      ['HardDeleted', NP1],
      ['HardDeleted', C],
    ]);
  });

  it('waits for every required adapter at the current generation', () => {
    const fin = recorded(tree, finalizedReport(NP1, 'NodePool', 'np-configmap', 1));
    spec
      .given([...tree, ...fin])
      .when({ type: 'HardDelete', id: NP1, kind: 'NodePool', metadata: meta(T2) })
      .then([]);
  });

  it('is a no-op for a resource already gone', () => {
    spec
      .given([])
      .when({ type: 'HardDelete', id: NP1, kind: 'NodePool', metadata: meta(T2) })
      .then([]);
  });

  it('hard-deletes a kind without required adapters at once after DELETE', () => {
    const channel: ResourceEvent = { type: 'ResourceCreated', data: { ...clusterCreated.data, kind: 'Channel', id: 'ch1' } };
    const events = spec
      .given([channel, deleted('ch1', 'Channel', 2)])
      .when({ type: 'HardDelete', id: 'ch1', kind: 'Channel', metadata: meta(T2) })
      .thenEvents();
    expect(events).toMatchObject([{ type: 'HardDeleted', data: { id: 'ch1', cause: 'Reconciled' } }]);
  });
});

describe('seed 001 › Force delete', () => {
  const tree = [clusterCreated, npCreated(NP1, 'np-a'), npCreated(NP2, 'np-b')];
  const force = (reason: string): ResourceCommand => ({
    type: 'ForceDelete',
    id: C,
    kind: 'Cluster',
    reason,
    metadata: meta(T2, 'admin@example.com'),
  });

  it('400s without a reason', () => {
    spec
      .given([...tree, deleted(C, 'Cluster', 2)])
      .when(force('  '))
      .thenThrows(ValidationFailed, /reason is required/);
  });

  it('409s when the resource is not Finalizing', () => {
    spec
      .given(tree)
      .when(force('stuck'))
      .thenThrows(NotFinalizing, /not in Finalizing state/);
  });

  it('404s an unknown or already removed resource', () => {
    spec.given([]).when(force('stuck')).thenThrows(ResourceNotFound);
  });

  it('removes children first and records the audit with caller, reason, subresources and adapter statuses', () => {
    const h = [...tree, deleted(C, 'Cluster', 2), deleted(NP1, 'NodePool', 2, C), deleted(NP2, 'NodePool', 2, C)];
    const st = recorded(
      h,
      report(C, 'Cluster', 'validation', 2, { Applied: 'True', Available: 'True', Health: 'False', Finalized: 'False' }),
    );
    const events = spec
      .given([...h, ...st])
      .when(force('adapter validation is gone for good'))
      .thenEvents();
    expect(events.map((e) => [e.type, e.data.id])).toEqual([
      ['ForceDeleted', C],
      ['HardDeleted', NP1],
      ['HardDeleted', NP2],
      ['HardDeleted', C],
    ]);
    expect(events[0]).toMatchObject({
      data: {
        caller: 'admin@example.com',
        reason: 'adapter validation is gone for good',
        kind: 'Cluster',
        subresources: [
          { id: NP1, kind: 'NodePool' },
          { id: NP2, kind: 'NodePool' },
        ],
        adapter_statuses: { [C]: [{ adapter: 'validation', observed_generation: 2 }], [NP1]: [], [NP2]: [] },
      },
    });
    expect(events.slice(1).every((e) => e.type === 'HardDeleted' && e.data.cause === 'ForceDeleted')).toBe(true);
  });
});
