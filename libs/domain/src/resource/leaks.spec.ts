import {
  KindRegistry,
  ResourceNotFound,
  ValidationFailed,
  decide,
  decideLeakCleanup,
  decideLeakInventory,
  fold,
  type LeakedObject,
  type ResourceCommand,
  type ResourceEvent,
} from '@decom/domain';

/** Leak records on removed resources, and adoption records derived from reports. */
const kinds = new KindRegistry([{ kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] }]);
const T0 = '2026-12-01T10:00:00.000Z';
const T1 = '2026-12-01T10:01:00.000Z';
const C = 'c0000000-0000-7000-8000-0000000000aa';
const meta = { now: T1, caller: 'admin@example.com' };
const created: ResourceEvent = {
  type: 'ResourceCreated',
  data: { id: C, kind: 'Cluster', name: 'c', spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'a@example.com' },
};
const deleted: ResourceEvent = {
  type: 'DeletionRequested',
  data: { id: C, kind: 'Cluster', generation: 2, deleted_time: T0, deleted_by: 'a@example.com', deletion_policy: 'Delete' },
};
const hardDeleted = (cause: 'Reconciled' | 'ForceDeleted'): ResourceEvent => ({
  type: 'HardDeleted',
  data: { id: C, kind: 'Cluster', hard_deleted_time: T1, cause },
});
const objects: LeakedObject[] = [{ apiVersion: 'v1', kind: 'Namespace', name: 'ns', uid: 'u1', adapter: 'validation' }];
const inventory = {
  type: 'RecordLeakInventory',
  id: C,
  kind: 'Cluster',
  adapter: 'validation',
  trigger: 'ForceDeleted',
  objects,
  metadata: meta,
} as const;

describe('leak inventory', () => {
  it('records the inventory of a force-deleted resource once (a replayed reaction records nothing)', () => {
    const history = [created, deleted, hardDeleted('ForceDeleted')];
    const events = decideLeakInventory(inventory, fold(history));
    expect(events).toEqual([
      {
        type: 'LeakInventoryRecorded',
        data: { id: C, kind: 'Cluster', adapter: 'validation', trigger: 'ForceDeleted', objects, recorded_time: T1 },
      },
    ]);
    expect(decideLeakInventory(inventory, fold([...history, ...events]))).toEqual([]);
  });

  it('refuses an inventory for a resource that was not force-deleted, or never existed', () => {
    expect(() => decideLeakInventory(inventory, fold([created, deleted, hardDeleted('Reconciled')]))).toThrow(ValidationFailed);
    expect(() => decideLeakInventory(inventory, fold([]))).toThrow(ResourceNotFound);
  });

  it('an audited cleanup needs a reason and a resource that no longer exists', () => {
    const cleanup = { type: 'RecordLeakCleanup', id: C, kind: 'Cluster', reason: 'INC-7', objects, metadata: meta } as const;
    expect(decideLeakCleanup(cleanup, fold([created, deleted, hardDeleted('Reconciled')]))).toEqual([
      {
        type: 'LeakedObjectsDeleted',
        data: { id: C, kind: 'Cluster', caller: 'admin@example.com', reason: 'INC-7', objects, deleted_time: T1 },
      },
    ]);
    expect(() => decideLeakCleanup({ ...cleanup, reason: ' ' }, fold([created, deleted, hardDeleted('Reconciled')]))).toThrow(
      ValidationFailed,
    );
    expect(() => decideLeakCleanup(cleanup, fold([created]))).toThrow(/still exists/);
  });
});

describe('ownership records: Adopted', () => {
  const report = (reason: string, message: string, now = T1): ResourceCommand => ({
    type: 'ReportAdapterStatus',
    id: C,
    kind: 'Cluster',
    adapter: 'validation',
    observed_generation: 1,
    observed_time: now,
    conditions: [
      { type: 'Applied', status: 'True', reason, message },
      { type: 'Available', status: 'True' },
      { type: 'Health', status: 'True' },
    ],
    metadata: { now, caller: 'adapter:validation' },
  });
  const drift = 'ConfigMap default/web adopted as it is, differs from the manifest in data.replicas: manifest "5", object "3"';

  it('a report with Applied=True/AdoptedWithDrift records Adopted naming the drift; the same report again records nothing', () => {
    const events = decide(report('AdoptedWithDrift', drift), fold([created]), kinds);
    expect(events.map((e) => e.type)).toEqual(['AdapterStatusReported', 'Adopted']);
    expect(events[1]!.data).toEqual({
      id: C,
      kind: 'Cluster',
      adapter: 'validation',
      observed_generation: 1,
      reason: 'AdoptedWithDrift',
      message: drift,
      adopted_time: T1,
    });
    expect(decide(report('AdoptedWithDrift', drift, '2026-12-01T10:02:00.000Z'), fold([created, ...events]), kinds)).toEqual([]);
  });

  it('an ordinary Applied=True records no adoption', () => {
    expect(decide(report('ConfigMapApplied', 'Applied'), fold([created]), kinds).map((e) => e.type)).toEqual(['AdapterStatusReported']);
  });
});
