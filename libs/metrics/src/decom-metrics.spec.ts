import { Registry } from 'prom-client';
import { DecomMetrics } from './decom-metrics.js';
import { routeLabel } from './route-label.js';

const info = { component: 'api', version: '1.2.3', commit: 'abc' };

describe('DecomMetrics', () => {
  it('labels routes with ids replaced by - and unmatched requests as such', () => {
    expect(routeLabel('/api/hyperfleet/v1/clusters/:id/nodepools/:np')).toBe('/api/hyperfleet/v1/clusters/-/nodepools/-');
    expect(routeLabel(undefined)).toBe('unmatched');
  });

  it("keeps the parameters `literal` accepts (a kind-agnostic route's plurals) and replaces the rest by -", () => {
    const plurals = new Set(['clusters', 'nodepools']);
    const literal = (param: string, value: string) => param.endsWith('lural') && plurals.has(value);
    const route = '/api/hyperfleet/v1/:plural/:pid/:childPlural/:id/statuses';
    expect(routeLabel(route, { plural: 'clusters', pid: 'c1', childPlural: 'nodepools', id: 'n1' }, literal)).toBe(
      '/api/hyperfleet/v1/clusters/-/nodepools/-/statuses',
    );
    // An id that happens to equal a plural is still an id; an unknown plural is `-`.
    expect(routeLabel('/api/hyperfleet/v1/:plural/:id', { plural: 'bogus', id: 'clusters' }, literal)).toBe('/api/hyperfleet/v1/-/-');
    expect(routeLabel('/api/hyperfleet/v1/:plural/:id', { plural: 'clusters', id: 'x' })).toBe('/api/hyperfleet/v1/-/-');
  });

  it('shows each adapter watch as up (1) or retrying (0) at scrape, and counts watch-triggered runs', async () => {
    const metrics = new DecomMetrics(new Registry(), info);
    metrics.watchKubeWatches(() => [
      { name: 'v1 ConfigMap (all namespaces)', state: 'running' },
      { name: 'batch/v1 Job (all namespaces)', state: 'retrying' },
    ]);
    metrics.watchTriggeredRuns.inc({ adapter: 'validation' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('decom_kube_watch_up{watch="v1 ConfigMap (all namespaces)"} 1');
    expect(text).toContain('decom_kube_watch_up{watch="batch/v1 Job (all namespaces)"} 0');
    expect(text).toContain('decom_adapter_watch_triggered_runs_total{adapter="validation"} 1');
  });

  it('computes pending and stuck gauges at scrape from the source; series absent at zero', async () => {
    let now = 1_000_000;
    const metrics = new DecomMetrics(new Registry(), info, 60, () => now);
    let pending = [
      { kind: 'Cluster', deleting: true, sinceMs: now - 120_000 },
      { kind: 'Cluster', deleting: true, sinceMs: now - 10_000 },
      { kind: 'NodePool', deleting: false, sinceMs: now - 5_000 },
    ];
    metrics.watchPending(async () => pending);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'hyperfleet_api_resource_pending_reconciliation{resource_type="Cluster",is_delete="true",component="api",version="1.2.3"} 2',
    );
    expect(text).toContain(
      'hyperfleet_api_resource_pending_reconciliation_stuck{resource_type="Cluster",is_delete="true",component="api",version="1.2.3"} 1',
    );
    expect(text).toContain(
      'hyperfleet_api_resource_pending_reconciliation_stuck_duration_seconds{resource_type="Cluster",is_delete="true",component="api",version="1.2.3"} 120',
    );
    expect(text).not.toMatch(/pending_reconciliation_stuck\{resource_type="NodePool"/);
    pending = [];
    now += 5_000;
    expect(await metrics.registry.metrics()).not.toMatch(/^hyperfleet_api_resource_pending_reconciliation\{/m);
  });

  it('tracks adapter deletions in progress per adapter until a run succeeds', async () => {
    const metrics = new DecomMetrics(new Registry(), info);
    metrics.observeAdapterRun({ adapter: 'a', resourceId: 'r1', operation: 'delete', outcome: 'in_progress', seconds: 0.1 });
    metrics.observeAdapterRun({ adapter: 'a', resourceId: 'r2', operation: 'delete', outcome: 'in_progress', seconds: 0.1 });
    expect(await metrics.registry.metrics()).toContain('decom_adapter_deletions_in_progress{adapter="a"} 2');
    metrics.observeAdapterRun({ adapter: 'a', resourceId: 'r1', operation: 'delete', outcome: 'success', seconds: 0.1 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('decom_adapter_deletions_in_progress{adapter="a"} 1');
    expect(text).toContain('decom_adapter_runs_total{adapter="a",operation="delete",outcome="in_progress"} 2');
  });

  it('forgets a hard-deleted resource whose last deletion run was still in progress (a force delete)', async () => {
    const metrics = new DecomMetrics(new Registry(), info);
    metrics.observeAdapterRun({ adapter: 'a', resourceId: 'r1', operation: 'delete', outcome: 'in_progress', seconds: 0.1 });
    metrics.observeAdapterRun({ adapter: 'b', resourceId: 'r1', operation: 'delete', outcome: 'transient_error', seconds: 0.1 });
    metrics.resourceGone('r1');
    // A run that was still in flight reports after the hard delete: not counted again.
    metrics.observeAdapterRun({ adapter: 'a', resourceId: 'r1', operation: 'delete', outcome: 'in_progress', seconds: 0.1 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('decom_adapter_deletions_in_progress{adapter="a"} 0');
    expect(text).toContain('decom_adapter_deletions_in_progress{adapter="b"} 0');
  });

  it('a source that fails or hangs keeps its gauge at its last values, is counted, and the scrape still answers in time', async () => {
    const metrics = new DecomMetrics(new Registry(), info, 600, Date.now, 50);
    let mode: 'ok' | 'fail' | 'hang' = 'ok';
    let reads = 0;
    const read =
      <T>(value: T) =>
      async (): Promise<T> => {
        reads += 1;
        if (mode === 'fail') throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        if (mode === 'hang') return new Promise<T>(() => undefined);
        return value;
      };
    metrics.watchFinalizing(read([{ kind: 'Cluster' }, { kind: 'Cluster' }]));
    metrics.watchQueues(read([{ queue: 'adapter-run', waiting: 3, delayed: 1, active: 2, failed: 0 }]));
    metrics.watchQueueWorkers(
      read([
        { queue: 'adapter-run.validation', workers: 0 },
        { queue: 'hard-delete', workers: 2 },
      ]),
    );
    metrics.watchLag('projections', read(7));
    metrics.deletionsRequested.inc({ kind: 'Cluster' });
    const healthy = await metrics.registry.metrics();
    expect(healthy).toMatch(/^decom_resources_finalizing\{kind="Cluster"\} 2$/m);
    expect(healthy).toMatch(/^decom_queue_workers\{queue="adapter-run.validation"\} 0$/m);
    expect(healthy).toMatch(/^decom_queue_workers\{queue="hard-delete"\} 2$/m);
    // Like the counters, the staleness gauge is read before the gauges collect: it shows in the next scrape.
    expect(await metrics.registry.metrics()).toMatch(
      /^decom_scrape_collector_last_success_timestamp_seconds\{collector="decom_resources_finalizing"\} \d+$/m,
    );

    for (const next of ['fail', 'hang'] as const) {
      mode = next;
      const started = Date.now();
      await metrics.registry.metrics();
      const text = await metrics.registry.metrics();
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(text).toMatch(/^decom_resources_finalizing\{kind="Cluster"\} 2$/m);
      expect(text).toMatch(/^decom_queue_depth\{queue="adapter-run"\} 4$/m);
      expect(text).toMatch(/^decom_queue_workers\{queue="hard-delete"\} 2$/m);
      expect(text).toMatch(/^decom_subscription_lag_events\{subscriber="projections"\} 7$/m);
      expect(text).toContain('decom_deletions_requested_total{kind="Cluster"} 1');
    }
    const text = await metrics.registry.metrics();
    // 2 failed + 2 timed-out scrapes before this one (counters are read while the gauges collect).
    expect(text).toMatch(/^decom_scrape_collector_errors_total\{collector="decom_resources_finalizing"\} 4$/m);
    expect(text).toMatch(/^decom_scrape_collector_errors_total\{collector="decom_subscription_lag_events"\} 4$/m);
    const readsWhileHanging = reads;
    await metrics.registry.metrics();
    // A hanging read is awaited again, not started again.
    expect(reads).toBe(readsWhileHanging);
  });

  it('exports decom_dependency_up from the probe results it is given (1 up, 0 down or unknown)', async () => {
    const metrics = new DecomMetrics(new Registry(), info);
    expect(await metrics.registry.metrics()).not.toMatch(/^decom_dependency_up\{/m);
    metrics.watchDependencies(() => [
      { dependency: 'sqlite', status: 'up' },
      { dependency: 'redis', status: 'down' },
      { dependency: 'jwks', status: 'unknown' },
    ]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('decom_dependency_up{dependency="sqlite"} 1');
    expect(text).toContain('decom_dependency_up{dependency="redis"} 0');
    expect(text).toContain('decom_dependency_up{dependency="jwks"} 0');
  });

  it('keeps every engine on its own registry (no default-registry singleton)', async () => {
    const one = new DecomMetrics(new Registry(), info);
    const two = new DecomMetrics(new Registry(), info);
    one.deletionsRequested.inc({ kind: 'Cluster' });
    expect(await one.registry.metrics()).toContain('decom_deletions_requested_total{kind="Cluster"} 1');
    expect(await two.registry.metrics()).not.toContain('decom_deletions_requested_total{kind="Cluster"}');
  });
});
