import { DeletionBudgetExceeded, KindRegistry, deletionBudgetOf, refuseOverBudget, type ResourceEvent } from '@decom/domain';
import { deciderSpec } from '../testing/given-when-then.js';

const NOW = '2026-12-01T12:00:00.000Z';
const budgets = { Cluster: { max_in_flight: 2, max_per_hour: 3 }, '*': { max_per_hour: 10 } };

describe('deletion budget › which budget applies', () => {
  it("a kind's own budget, else '*', else none", () => {
    expect(deletionBudgetOf(budgets, 'Cluster')).toEqual({ max_in_flight: 2, max_per_hour: 3 });
    expect(deletionBudgetOf(budgets, 'NodePool')).toEqual({ max_per_hour: 10 });
    expect(deletionBudgetOf({ Cluster: { max_in_flight: 1 } }, 'NodePool')).toBeUndefined();
    expect(deletionBudgetOf(undefined, 'Cluster')).toBeUndefined();
  });
});

describe('deletion budget › beyond it a DELETE is refused with how long to wait', () => {
  const refusal = (use: Parameters<typeof refuseOverBudget>[3]): DeletionBudgetExceeded | undefined => {
    try {
      refuseOverBudget('Cluster', '{"org":"a"}', budgets.Cluster, use, NOW);
      return undefined;
    } catch (error) {
      return error as DeletionBudgetExceeded;
    }
  };

  it('within both bounds: allowed', () =>
    expect(refusal({ in_flight: 1, in_last_hour: 2, oldest_in_last_hour: '2026-12-01T11:30:00.000Z' })).toBeUndefined());

  it('in-flight bound reached: refused first, Retry-After 60 s', () => {
    expect(refusal({ in_flight: 2, in_last_hour: 5 })).toMatchObject({
      budget: 'max_in_flight',
      limit: 2,
      used: 2,
      retry_after_seconds: 60,
    });
  });

  it('hourly bound reached: Retry-After is when the oldest counted deletion leaves the hour', () => {
    const error = refusal({ in_flight: 0, in_last_hour: 3, oldest_in_last_hour: '2026-12-01T11:15:00.500Z' });
    expect(error).toBeInstanceOf(DeletionBudgetExceeded);
    expect(error).toMatchObject({ budget: 'max_per_hour', limit: 3, used: 3, retry_after_seconds: 901 });
    expect(error!.message).toBe(
      'deletion budget limits.deletions.Cluster.max_per_hour = 3 reached for tenant {"org":"a"}: 3 top-level Cluster deletion(s) in the last hour; retry after 901 s, or an administrator may override it with a reason',
    );
  });

  it('no budget: never refused', () =>
    expect(() => refuseOverBudget('Cluster', undefined, undefined, { in_flight: 1000, in_last_hour: 1000 }, NOW)).not.toThrow());
});

describe('deletion budget › an override is recorded on the DELETEd resource only', () => {
  const kinds = new KindRegistry([
    { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] },
    { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', on_parent_delete: 'cascade', required_adapters: ['np-configmap'] },
  ]);
  const C = 'c0000000-0000-7000-8000-000000000001';
  const NP = 'n0000000-0000-7000-8000-000000000001';
  const history: ResourceEvent[] = [
    {
      type: 'ResourceCreated',
      data: { id: C, kind: 'Cluster', name: 'prod', spec: {}, labels: {}, generation: 1, created_time: NOW, created_by: 'a@x.test' },
    },
    {
      type: 'ResourceCreated',
      data: {
        id: NP,
        kind: 'NodePool',
        name: 'np',
        spec: {},
        labels: {},
        owner_references: { id: C, kind: 'Cluster' },
        generation: 1,
        created_time: NOW,
        created_by: 'a@x.test',
      },
    },
  ];
  it('DeletionRequested of the target carries deletion_budget_override {caller, reason}; the cascaded nodepool does not', () => {
    const events = deciderSpec(kinds)
      .given(history)
      .when({
        type: 'RequestDeletion',
        id: C,
        kind: 'Cluster',
        budget_override_reason: ' region evacuation ',
        metadata: { now: NOW, caller: 'root@x.test' },
      })
      .thenEvents();
    expect(events.map((e) => (e.type === 'DeletionRequested' ? [e.data.id, e.data.deletion_budget_override] : []))).toEqual([
      [C, { caller: 'root@x.test', reason: 'region evacuation' }],
      [NP, undefined],
    ]);
  });
});
