import { ExecutorHarness } from '../testing/executor-harness.js';

/**
 * The shipped NodePool adapter (config/adapters/np-configmap.yaml) against the local Kubernetes
 * API server; the HyperFleet API is a recorded-response HTTP server.
 */
const CLUSTER = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const NODEPOOL = '0190a1b2-ffff-7e5f-8a9b-0c1d2e3f4a5b';
const BASE = `/api/hyperfleet/v1/clusters/${CLUSTER}/nodepools/${NODEPOOL}`;
const event = {
  id: NODEPOOL,
  kind: 'NodePool',
  href: BASE,
  generation: 1,
  owner_references: { id: CLUSTER, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${CLUSTER}` },
};
const validationApplied = (status: string) => ({
  kind: 'AdapterStatusList',
  items: [{ adapter: 'validation', observed_generation: 1, conditions: [{ type: 'Applied', status, reason: 'R', message: 'm' }] }],
});
const conditions = (report: unknown) =>
  Object.fromEntries(
    (report as { conditions: { type: string; status: string; reason: string }[] }).conditions.map((c) => [
      c.type,
      `${c.status}/${c.reason}`,
    ]),
  );

describe('np-configmap adapter', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(`PUT ${BASE}/statuses`, { status: 201, body: {} });
    h.kube.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: CLUSTER } });
    // The precondition `clusterNamespace`: validation has applied the cluster's Namespace.
    h.api.on(`GET /api/hyperfleet/v1/clusters/${CLUSTER}/statuses`, { status: 200, body: validationApplied('True') });
  });
  afterEach(() => h.close());

  it('creates the nodepool ConfigMap in the cluster namespace, then deletes it and confirms Finalized in one pass', async () => {
    const executor = await h.executor('config/adapters/np-configmap.yaml', 'np-configmap');
    h.api.on(`GET ${BASE}`, { status: 200, body: { id: NODEPOOL, kind: 'NodePool', name: 'np-one', generation: 1 } });
    const created = await executor.execute(event);
    expect(created.status).toBe('success');
    const cm = h.kube.peek('v1', 'ConfigMap', CLUSTER, `nodepool-${NODEPOOL}`) as {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      data: unknown;
    };
    expect(cm.data).toEqual({ nodepoolId: NODEPOOL, nodepoolName: 'np-one' });
    expect(cm.metadata.labels['hyperfleet.io/managed-by']).toBe('np-configmap');
    expect(cm.metadata.annotations['hyperfleet.io/generation']).toBe('1');
    expect(conditions(h.api.requests('PUT')[0]?.body)).toEqual({
      Applied: 'True/ConfigMapApplied',
      Available: 'True/ConfigMapAvailable',
      Health: 'True/NoErrors',
      Finalized: 'False/NotDeleting',
    });

    h.api.on(`GET ${BASE}`, {
      status: 200,
      body: { id: NODEPOOL, kind: 'NodePool', name: 'np-one', generation: 2, deleted_time: '2026-03-25T09:00:00Z' },
    });
    const deleted = await executor.execute({ ...event, generation: 2 });
    expect(h.deletedKinds()).toEqual([`ConfigMap/nodepool-${NODEPOOL}`]);
    const report = h.api.requests('PUT')[1]?.body;
    expect(report).toMatchObject({ adapter: 'np-configmap', observed_generation: 2, observed_time: '2026-03-25T10:00:00Z' });
    expect(conditions(report)).toEqual({
      Applied: 'False/ConfigMapNotFound',
      Available: 'False/ConfigMapNotFound',
      Health: 'True/NoErrors',
      Finalized: 'True/CleanupConfirmed',
    });
    expect(deleted.celResults.filter((r) => 'error' in r)).toEqual([]);
  });

  it('waits for the cluster Namespace (validation Applied=True) before creating its ConfigMap: no refused POST', async () => {
    const executor = await h.executor('config/adapters/np-configmap.yaml', 'np-configmap');
    h.api.on(`GET /api/hyperfleet/v1/clusters/${CLUSTER}/statuses`, { status: 200, body: validationApplied('False') });
    h.api.on(`GET ${BASE}`, { status: 200, body: { id: NODEPOOL, kind: 'NodePool', name: 'np-one', generation: 1 } });
    await executor.execute(event);
    expect(h.kube.peek('v1', 'ConfigMap', CLUSTER, `nodepool-${NODEPOOL}`)).toBeUndefined();
    const waiting = conditions(h.api.requests('PUT')[0]?.body);
    expect(waiting['Health']).toMatch(/^True\//);
    expect(waiting['Available']).toMatch(/^False\//);
  });

  it('reports Finalized=False/AdapterUnhealthy when the delete is forbidden (#11)', async () => {
    const executor = await h.executor('config/adapters/np-configmap.yaml', 'np-configmap');
    h.api.on(`GET ${BASE}`, { status: 200, body: { id: NODEPOOL, name: 'np-one', generation: 1 } });
    await executor.execute(event);
    h.api.on(`GET ${BASE}`, { status: 200, body: { id: NODEPOOL, name: 'np-one', generation: 2, deleted_time: '2026-03-25T09:00:00Z' } });
    h.kube.faults.add({ method: 'DELETE', kind: 'ConfigMap', status: 403, reason: 'Forbidden', message: 'RBAC denied' });
    await executor.execute({ ...event, generation: 2 });
    expect(conditions(h.api.requests('PUT')[1]?.body)).toEqual({
      Applied: 'True/ConfigMapApplied',
      Available: 'True/ConfigMapAvailable',
      Health: 'False/ResourceFailed',
      Finalized: 'False/AdapterUnhealthy',
    });
  });
});
