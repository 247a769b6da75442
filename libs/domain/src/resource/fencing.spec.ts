import { KindRegistry, decide, fold, type ResourceCommand, type ResourceEvent, type ReportFence } from '@decom/domain';
import { deciderSpec } from '../testing/given-when-then.js';

const kinds = new KindRegistry([{ kind: 'NodePool', plural: 'nodepools', required_adapters: ['np-configmap'] }]);
const spec = deciderSpec(kinds);
const T0 = '2026-12-01T10:00:00.000Z';
const T1 = '2026-12-01T10:01:00.000Z';
const T2 = '2026-12-01T10:02:00.000Z';
const NP = 'n0000000-0000-7000-8000-000000000001';

const created: ResourceEvent = {
  type: 'ResourceCreated',
  data: { id: NP, kind: 'NodePool', name: 'np-a', spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'alice@example.com' },
};
const deleted: ResourceEvent = {
  type: 'DeletionRequested',
  data: { id: NP, kind: 'NodePool', generation: 2, deleted_time: T1, deleted_by: 'alice@example.com', deletion_policy: 'Delete' },
};
const report = (generation: number, conds: Record<string, string>, fence?: ReportFence, now = T2): ResourceCommand => ({
  type: 'ReportAdapterStatus',
  id: NP,
  kind: 'NodePool',
  adapter: 'np-configmap',
  observed_generation: generation,
  observed_time: now,
  conditions: Object.entries(conds).map(([type, status]) => ({ type, status })),
  ...(fence && { fence }),
  metadata: { now, caller: 'adapter:np-configmap' },
});
const finalized = { Applied: 'False', Available: 'False', Health: 'True', Finalized: 'True' };
const inProgress = { Applied: 'True', Available: 'True', Health: 'True', Finalized: 'False' };
const after = (history: ResourceEvent[], command: ResourceCommand) => [...history, ...decide(command, fold(history), kinds)];

describe('Fencing › stale reports are recorded as discarded, never applied', () => {
  it('a report whose run was for an older generation is AdapterStatusDiscarded with reason StaleFence', () => {
    const events = spec
      .given([created, deleted])
      .when(report(2, inProgress, { generation: 1, sequence: 10 }))
      .thenEvents();
    expect(events).toEqual([
      {
        type: 'AdapterStatusDiscarded',
        data: expect.objectContaining({
          id: NP,
          adapter: 'np-configmap',
          reason: 'StaleFence',
          fence: { generation: 1, sequence: 10 },
          observed_generation: 2,
          discarded_time: T2,
        }),
      },
    ]);
    expect((events[0]!.data as { message: string }).message).toMatch(/run was for generation 1, the resource is at 2/);
  });

  it('after a later run (higher sequence) reported, an earlier run of the same generation is discarded', () => {
    const history = after([created, deleted], report(2, finalized, { generation: 2, sequence: 20 }));
    expect(fold(history).resources.get(NP)?.adapter_fences).toEqual({ 'np-configmap': 20 });
    const events = spec
      .given(history)
      .when(report(2, inProgress, { generation: 2, sequence: 19 }, '2026-12-01T10:03:00.000Z'))
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['AdapterStatusDiscarded']);
    // The stored Finalized=True stays.
    expect(
      fold([...history, ...events])
        .resources.get(NP)
        ?.adapter_statuses['np-configmap']?.conditions.find((c) => c.type === 'Finalized')?.status,
    ).toBe('True');
  });

  it('a current fence is applied and carried on AdapterStatusReported; a newer sequence wins', () => {
    const history = after([created, deleted], report(2, inProgress, { generation: 2, sequence: 20 }));
    const events = spec
      .given(history)
      .when(report(2, finalized, { generation: 2, sequence: 21 }, '2026-12-01T10:03:00.000Z'))
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['AdapterStatusReported', 'AdapterFinalized']);
    expect(events[0]!.data).toMatchObject({ fence: { generation: 2, sequence: 21 } });
  });

  it('a report without a fence (any HyperFleet adapter) follows the ingestion rules alone', () => {
    const history = after([created, deleted], report(2, inProgress, { generation: 2, sequence: 20 }));
    const events = spec
      .given(history)
      .when(report(2, finalized, undefined, '2026-12-01T10:03:00.000Z'))
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['AdapterStatusReported', 'AdapterFinalized']);
  });
});
