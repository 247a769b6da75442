import {
  AdapterNotPending,
  KindRegistry,
  NotFinalizing,
  ResourceNotFound,
  ValidationFailed,
  decide,
  decideLeakInventory,
  fold,
  type ResourceCommand,
  type ResourceEvent,
} from '@decom/domain';
import { deciderSpec } from '../testing/given-when-then.js';

const kinds = new KindRegistry([{ kind: 'Cluster', plural: 'clusters', required_adapters: ['validation', 'dns'] }]);
const spec = deciderSpec(kinds);
const T0 = '2026-12-01T10:00:00.000Z';
const T1 = '2026-12-01T10:01:00.000Z';
const T2 = '2026-12-01T10:02:00.000Z';
const T3 = '2026-12-01T10:03:00.000Z';
const C = 'c0000000-0000-7000-8000-000000000001';
const meta = (now = T2, caller = 'root@example.com') => ({ now, caller });

const created: ResourceEvent = {
  type: 'ResourceCreated',
  data: { id: C, kind: 'Cluster', name: 'prod', spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'alice@example.com' },
};
const deleting: ResourceEvent = {
  type: 'DeletionRequested',
  data: {
    id: C,
    kind: 'Cluster',
    generation: 2,
    deleted_time: T1,
    deleted_by: 'alice@example.com',
    deletion_policy: 'Delete',
    required_adapters: ['validation', 'dns'],
  },
};
const abandon = (adapter: string, reason = 'DNS zone deleted out of band'): ResourceCommand => ({
  type: 'AbandonAdapter',
  id: C,
  kind: 'Cluster',
  adapter,
  reason,
  metadata: meta(),
});
const report = (adapter: string, finalized: string, now = T2): ResourceCommand => ({
  type: 'ReportAdapterStatus',
  id: C,
  kind: 'Cluster',
  adapter,
  observed_generation: 2,
  observed_time: now,
  conditions: [
    { type: 'Applied', status: 'False' },
    { type: 'Available', status: 'False' },
    { type: 'Health', status: 'True' },
    { type: 'Finalized', status: finalized },
  ],
  metadata: meta(now, `adapter:${adapter}`),
});
const run = (history: ResourceEvent[], command: ResourceCommand) => [...history, ...decide(command, fold(history), kinds)];

describe('abandon one adapter › records a forced AdapterFinalized for that adapter only', () => {
  it('records the abandoned status (Finalized=True/AdapterAbandoned) and AdapterFinalized forced with caller and reason', () => {
    const message = 'abandoned by root@example.com: DNS zone deleted out of band';
    spec
      .given([created, deleting])
      .when(abandon('dns'))
      .then([
        {
          type: 'AdapterStatusReported',
          data: {
            id: C,
            kind: 'Cluster',
            status: {
              adapter: 'dns',
              observed_generation: 2,
              conditions: [
                { type: 'Available', status: 'False', reason: 'AdapterAbandoned', message, last_transition_time: T2 },
                { type: 'Finalized', status: 'True', reason: 'AdapterAbandoned', message, last_transition_time: T2 },
              ],
              created_time: T2,
              last_report_time: T2,
            },
          },
        },
        {
          type: 'AdapterFinalized',
          data: {
            id: C,
            kind: 'Cluster',
            adapter: 'dns',
            observed_generation: 2,
            finalized_time: T2,
            forced: true,
            caller: 'root@example.com',
            reason: 'DNS zone deleted out of band',
          },
        },
      ]);
  });

  it('the rest of the deletion goes on: the gate still waits for the other adapter, then hard-deletes', () => {
    const afterAbandon = run([created, deleting], abandon('dns'));
    expect(decide({ type: 'HardDelete', id: C, kind: 'Cluster', metadata: meta(T3) }, fold(afterAbandon), kinds)).toEqual([]);
    const afterValidation = run(afterAbandon, report('validation', 'True', T3));
    const hard = decide({ type: 'HardDelete', id: C, kind: 'Cluster', metadata: meta(T3) }, fold(afterValidation), kinds);
    expect(hard.map((e) => e.type)).toEqual(['HardDeleted']);
  });

  it('a late report of the abandoned adapter is discarded (AdapterAbandoned) and cannot reopen the gate', () => {
    const afterAbandon = run([created, deleting], abandon('dns'));
    const events = decide(report('dns', 'False', T3), fold(afterAbandon), kinds);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'AdapterStatusDiscarded',
        data: expect.objectContaining({ adapter: 'dns', reason: 'AdapterAbandoned' }),
      }),
    ]);
  });

  it('a leak inventory with trigger AdapterAbandoned is allowed for that adapter, also after the hard delete, and only once', () => {
    const gone = run(run(run([created, deleting], abandon('dns')), report('validation', 'True', T3)), {
      type: 'HardDelete',
      id: C,
      kind: 'Cluster',
      metadata: meta(T3),
    });
    const inventory = {
      type: 'RecordLeakInventory',
      id: C,
      kind: 'Cluster',
      adapter: 'dns',
      trigger: 'AdapterAbandoned',
      objects: [],
      metadata: meta(T3),
    } as const;
    const recorded = decideLeakInventory(inventory, fold(gone));
    expect(recorded.map((e) => e.type)).toEqual(['LeakInventoryRecorded']);
    expect(decideLeakInventory(inventory, fold([...gone, ...recorded]))).toEqual([]);
    expect(() => decideLeakInventory({ ...inventory, adapter: 'validation' }, fold(gone))).toThrow(ValidationFailed);
  });
});

describe('abandon one adapter › refusals', () => {
  it('400 without a reason', () =>
    spec
      .given([created, deleting])
      .when(abandon('dns', '  '))
      .thenThrows(ValidationFailed, /reason is required/));
  it('404 for an unknown resource', () => spec.given([]).when(abandon('dns')).thenThrows(ResourceNotFound));
  it('409 while not Finalizing', () => spec.given([created]).when(abandon('dns')).thenThrows(NotFinalizing));
  it('409 for an adapter outside the frozen set', () =>
    spec
      .given([created, deleting])
      .when(abandon('np-configmap'))
      .thenThrows(AdapterNotPending, /not in the adapter set frozen when the deletion was requested: \[validation, dns\]/));
  it('409 for an adapter already finalized, a second abandon included', () => {
    spec
      .given(run([created, deleting], report('dns', 'True')))
      .when(abandon('dns'))
      .thenThrows(AdapterNotPending, /already reported Finalized=True/);
    spec
      .given(run([created, deleting], abandon('dns')))
      .when(abandon('dns'))
      .thenThrows(AdapterNotPending, /already reported Finalized=True/);
  });
});
