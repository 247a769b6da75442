/**
 * The demo scenario (`decom demo`) through HTTP against the embedded engine with the shipped adapters
 * (config/adapters) and the bundled local Kubernetes API server.
 */
import { resolve } from 'node:path';
import { runDemoScenario } from '../../apps/cli/src/demo/demo-scenario.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

describe('demo scenario (seeds 000 and 001 end to end)', () => {
  let fixture: EngineFixture;

  beforeAll(async () => {
    fixture = await startTestEngine({ adaptersDir: resolve('config/adapters') });
  });
  afterAll(async () => fixture?.stop());

  it('runs every step: provision, DELETE with cascade, ordered cleanup, bottom-up hard delete, force delete with audit', async () => {
    const report = await runDemoScenario(fixture.engine.url, fixture.engine.localKube!);
    const ns = report.clusterId.toLowerCase();
    expect(report.clusterDeleteOrder).toEqual([
      `Job/validation-${report.clusterId}-gen2 (looked up, none: the Job is named after generation 1)`,
      `ConfigMap/cluster-${report.clusterId}-config`,
      `Namespace/${ns} (the namespace controller removes Job/validation-${report.clusterId}-gen1 inside it)`,
    ]);
    // Bottom-up: both nodepools were hard-deleted before the cluster (read back from the event store).
    const hardDeletes = (await fixture.engine.store.readStream(`cluster-${report.clusterId}`))
      .filter((e) => e.type === 'HardDeleted')
      .map((e) => (e.data as { id: string }).id);
    expect(hardDeletes).toHaveLength(3);
    // A first run is clean: np-configmap waits for its cluster's Namespace (a precondition)
    // instead of having its POST refused with 404: it never reports Health=False.
    const nodepoolHealth = (await fixture.engine.store.readStream(`cluster-${report.clusterId}`))
      .filter((e) => e.type === 'AdapterStatusReported')
      .map((e) => (e.data as { status: { adapter: string; conditions: { type: string; status: string; reason?: string }[] } }).status)
      .filter((status) => status.adapter === 'np-configmap')
      .map((status) => status.conditions.find((c) => c.type === 'Health'));
    expect(nodepoolHealth.length).toBeGreaterThanOrEqual(4);
    expect(nodepoolHealth.filter((c) => c?.status !== 'True')).toEqual([]);
    expect(hardDeletes[2]).toBe(report.clusterId);
    expect(new Set(hardDeletes.slice(0, 2))).toEqual(new Set(report.nodepoolIds));
    // Nodepool ConfigMaps were deleted by their adapter (or with the namespace) and nothing is left behind.
    for (const id of report.nodepoolIds) expect(fixture.engine.localKube!.peek('v1', 'ConfigMap', ns, `nodepool-${id}`)).toBeUndefined();
    expect(report.forceDeleteAudit.data).toMatchObject({
      kind: 'Cluster',
      id: report.stuckClusterId,
      caller: 'operator@example.com',
      adapter_statuses: { [report.stuckClusterId]: [expect.objectContaining({ adapter: 'validation' })] },
    });
  }, 90_000);
});
