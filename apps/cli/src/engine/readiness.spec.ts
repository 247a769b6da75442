import { SqliteEventStore, type LoopStatus } from '@decom/event-store';
import { checkReadiness } from './readiness.js';

const status = (name: string, state: LoopStatus['state']): LoopStatus => ({ name, state, since: '2026-01-01T00:00:00.000Z', restarts: 0 });

describe('checkReadiness', () => {
  let store: SqliteEventStore;
  beforeEach(async () => {
    store = new SqliteEventStore(':memory:');
    await store.append('cluster-a', [{ type: 'A', data: {} }, { type: 'B', data: {} }, { type: 'C', data: {} }]);
  });
  afterEach(() => store.close());

  it('is ready when the store answers, every loop runs within the lag bound and writes are accepted', async () => {
    const report = await checkReadiness({
      store,
      loops: [{ status: () => status('projections', 'running'), position: () => 3 }],
      writeRefusal: () => undefined,
    });
    expect(report).toEqual({
      status: 'ready',
      checks: {
        event_store: { status: 'up', head_position: 3 },
        loops: [{ ...status('projections', 'running'), lag_events: 0, ready: true }],
      },
      writes: { accepted: true },
      max_lag_events: 1000,
    });
  });

  it('lists the adapter watches as information only: a watch down (retrying) leaves the process ready (issue #16)', async () => {
    const down = { name: 'v1 ConfigMap (all namespaces)', label_selector: 'decom.io/managed-by in (validation)', state: 'retrying' as const, since: '2026-01-01T00:00:00.000Z', error: '403 Forbidden', restarts: 4, lists: 1, events: 0 };
    const report = await checkReadiness({ store, loops: [{ status: () => status('projections', 'running'), position: () => 3 }], writeRefusal: () => undefined, watches: () => [down] });
    expect(report.status).toBe('ready');
    expect((report['checks'] as { kube_watches: unknown[] }).kube_watches).toEqual([down]);
    const none = await checkReadiness({ store, loops: [], writeRefusal: () => undefined, watches: () => [] });
    expect(none['checks']).not.toHaveProperty('kube_watches');
  });

  it('is not ready when a loop recovers, lags beyond the bound, or writes are refused; the JSON names why', async () => {
    const lagging = await checkReadiness({
      store,
      loops: [
        { status: () => status('projections', 'running'), position: () => 0 },
        { status: () => ({ ...status('dispatch', 'recovering'), error: 'Connection terminated unexpectedly' }), position: () => 3 },
      ],
      writeRefusal: () => 'the read models are catching up after start (position 0 of 3)',
      maxLagEvents: 2,
    });
    expect(lagging).toMatchObject({
      status: 'not_ready',
      checks: { loops: [{ name: 'projections', lag_events: 3, ready: false }, { name: 'dispatch', state: 'recovering', error: 'Connection terminated unexpectedly', ready: false }] },
      writes: { accepted: false, reason: 'the read models are catching up after start (position 0 of 3)' },
    });
  });

  it('reports a store that does not answer as down', async () => {
    await store.close();
    const report = await checkReadiness({ store, loops: [], writeRefusal: () => undefined });
    expect(report).toMatchObject({ status: 'not_ready', checks: { event_store: { status: 'down' } } });
  });
});
