import type { AdapterExecutor } from './adapter-executor.js';
import type { ExecutionResult } from './execution-result.js';
import { ExecutorHarness } from '../testing/executor-harness.js';

/**
 * seeds/000 "Example Task Config with Deletion" (config/adapters/validation.yaml: the seed's config
 * with a pod template in its Job, which a real API server requires) against the local Kubernetes
 * API server over HTTP. The HyperFleet API is a recorded-response
 * HTTP server (the real API is built separately).
 */
const CLUSTER = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const GET = `GET /api/hyperfleet/v1/clusters/${CLUSTER}`;
const PUT = `PUT /api/hyperfleet/v1/clusters/${CLUSTER}/statuses`;
const DELETED_TIME = '2026-03-25T09:59:00Z';
const event = { id: CLUSTER, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${CLUSTER}`, generation: 2 };

type Condition = { type: string; status: string; reason: string; message: string };
const conditions = (report: unknown) =>
  Object.fromEntries((report as { conditions: Condition[] }).conditions.map((c) => [c.type, `${c.status}/${c.reason}`]));

describe('seed 000 example task config', () => {
  let h: ExecutorHarness;
  let executor: AdapterExecutor;
  const cluster = (generation: number, deleted: boolean) =>
    h.api.on(GET, {
      status: 200,
      body: { id: CLUSTER, kind: 'Cluster', name: 'c-one', generation, ...(deleted && { deleted_time: DELETED_TIME }) },
    });

  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(PUT, { status: 201, body: {} });
    executor = await h.executor('config/adapters/validation.yaml', 'validation');
  });
  afterEach(() => h.close());

  /** Runs one event; the seed's payload must evaluate without a single CEL error in any state. */
  async function pass(): Promise<ExecutionResult & { report: unknown }> {
    const before = h.api.requests('PUT').length;
    const result = await executor.execute(event);
    expect(result.celResults.filter((r) => 'error' in r)).toEqual([]);
    expect(h.api.requests('PUT')).toHaveLength(before + 1);
    return { ...result, report: h.api.requests('PUT').at(-1)?.body };
  }

  it('creates, then deletes children before parents across passes: Job → ConfigMap → Namespace → Finalized=True', async () => {
    // Not deleting: create everything; Available=True, Finalized=False.
    cluster(2, false);
    const created = await pass();
    expect(created.operations.map((o) => `${o.operation} ${o.kind}`)).toEqual(['create Namespace', 'create ConfigMap', 'create Job']);
    expect(created.report).toEqual({
      adapter: 'validation',
      conditions: [
        { type: 'Applied', status: 'True', reason: 'ConfigMapApplied', message: 'Applied' },
        { type: 'Available', status: 'True', reason: 'ConfigMapAvailable', message: 'ConfigMap available' },
        { type: 'Finalized', status: 'False', reason: '', message: '' },
        { type: 'Health', status: 'True', reason: 'NoErrors', message: 'Adapter is healthy' },
      ],
      observed_generation: 2,
      observed_time: '2026-03-25T10:00:00Z',
    });
    // The bundled server validates like kube-apiserver: the Job it accepted runs a real pod template,
    // and carries the server's defaults and generated selector.
    expect(h.kube.peek('batch/v1', 'Job', CLUSTER, `validation-${CLUSTER}-gen2`)).toMatchObject({
      spec: {
        backoffLimit: 2,
        completions: 1,
        parallelism: 1,
        selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': expect.any(String) } },
        template: {
          metadata: { labels: { 'batch.kubernetes.io/job-name': `validation-${CLUSTER}-gen2` } },
          spec: {
            restartPolicy: 'Never',
            containers: [
              {
                name: 'validate',
                image: 'busybox:1.36',
                env: [
                  { name: 'CLUSTER_ID', value: CLUSTER },
                  { name: 'GENERATION', value: '2' },
                ],
              },
            ],
          },
        },
      },
    });

    // Deleting. The generation is held at 2 here so the Job of the current generation exists,
    // which is the ordering the seed describes (see the next test for a real generation bump).
    cluster(2, true);
    const pass1 = await pass();
    expect(h.deletedKinds()).toEqual([`Job/validation-${CLUSTER}-gen2`]);
    expect(pass1.operations.map((o) => `${o.operation} ${o.kind}`)).toEqual(['skip Namespace', 'skip ConfigMap', 'delete Job']);
    expect(conditions(pass1.report)).toMatchObject({
      Applied: 'True/ConfigMapApplied',
      Finalized: 'False/CleanupInProgress',
      Health: 'True/NoErrors',
    });

    const pass2 = await pass();
    expect(h.deletedKinds()).toEqual([`Job/validation-${CLUSTER}-gen2`, `ConfigMap/cluster-${CLUSTER}-config`]);
    expect(conditions(pass2.report)).toMatchObject({
      Applied: 'False/ConfigMapPending',
      Available: 'False/ConfigMapPending',
      Finalized: 'False/CleanupInProgress',
    });

    // Hold the namespace controller so the Namespace stays Terminating after its DELETE.
    h.kube.pauseControllers();
    const pass3 = await pass();
    expect(h.deletedKinds()).toEqual([`Job/validation-${CLUSTER}-gen2`, `ConfigMap/cluster-${CLUSTER}-config`, `Namespace/${CLUSTER}`]);
    expect(pass3.operations[0]).toMatchObject({ resource: 'clusterNamespace', operation: 'wait' });
    expect(conditions(pass3.report)).toMatchObject({ Finalized: 'False/CleanupInProgress', Health: 'True/NoErrors' });
    h.kube.resumeControllers();
    await h.kube.settle();

    const pass4 = await pass();
    expect(pass4.operations.map((o) => `${o.operation} ${o.resource}: ${o.reason}`)).toEqual([
      'delete clusterNamespace: already gone (not found)',
      'delete clusterConfigMap: already gone (not found)',
      'delete clusterJob: already gone (not found)',
    ]);
    expect(h.deletedKinds()).toHaveLength(3);
    expect(pass4.report).toMatchObject({
      observed_generation: 2,
      conditions: [
        { type: 'Applied', status: 'False' },
        { type: 'Available', status: 'False' },
        { type: 'Finalized', status: 'True', reason: 'CleanupConfirmed', message: 'All managed resources deleted and verified' },
        { type: 'Health', status: 'True', reason: 'NoErrors' },
      ],
    });
  });

  it('with a real generation bump the Job name changes (gen2 → gen3): the old Job is found by its ownership marker and goes first (seed 000 edge case #10)', async () => {
    cluster(2, false);
    await pass();
    cluster(3, true);
    const pass1 = await pass();
    // The seed's by_name discovery looks for validation-…-gen3, which never existed; the gen2 Job
    // carries our marker, so it stands for clusterJob and the ConfigMap waits for it (Job → ConfigMap → Namespace).
    expect(pass1.operations.map((o) => `${o.operation} ${o.resource}`)).toEqual([
      'skip clusterNamespace',
      'skip clusterConfigMap',
      'delete clusterJob',
      'delete clusterJob',
    ]);
    expect(pass1.operations[3]).toMatchObject({
      name: `validation-${CLUSTER}-gen2`,
      reason: expect.stringContaining('discovery by ownership'),
    });
    expect(h.deletedKinds()).toEqual([`Job/validation-${CLUSTER}-gen2`]);
    await pass();
    await pass();
    await h.kube.settle();
    expect(h.deletedKinds()).toEqual([`Job/validation-${CLUSTER}-gen2`, `ConfigMap/cluster-${CLUSTER}-config`, `Namespace/${CLUSTER}`]);
    expect(h.kube.peek('batch/v1', 'Job', CLUSTER, `validation-${CLUSTER}-gen2`)).toBeUndefined();
    const last = await pass();
    expect(conditions(last.report)).toMatchObject({ Finalized: 'True/CleanupConfirmed' });
  });

  it('#11: a 403 on delete → Health=False, Finalized=False, resourceErrors set, later resources still processed', async () => {
    cluster(2, false);
    await pass();
    cluster(2, true);
    await pass(); // Job deleted
    h.kube.faults.add({ method: 'DELETE', kind: 'ConfigMap', status: 403, reason: 'Forbidden', message: 'RBAC denied' });
    const failed = await pass();
    expect(failed.status).toBe('failed');
    expect(failed.adapter.resourceErrors).toEqual({
      clusterConfigMap: { phase: 'resources', step: 'clusterConfigMap', message: expect.stringContaining('Forbidden: RBAC denied') },
    });
    // clusterJob comes after the failing ConfigMap and was still processed.
    expect(failed.operations.map((o) => `${o.operation} ${o.resource}`)).toEqual([
      'skip clusterNamespace',
      'delete clusterConfigMap',
      'delete clusterJob',
    ]);
    expect(conditions(failed.report)).toEqual({
      Applied: 'True/ConfigMapApplied',
      Available: 'True/ConfigMapAvailable',
      Finalized: 'False/',
      Health: 'False/ResourceFailed',
    });
    expect(h.kube.peek('v1', 'ConfigMap', CLUSTER, `cluster-${CLUSTER}-config`)).toBeDefined();
  });

  it('a discovery 500 fails the phase before anything is deleted; the report says unhealthy', async () => {
    cluster(2, false);
    await pass();
    cluster(2, true);
    h.kube.faults.add({ method: 'GET', kind: 'ConfigMap', status: 500, message: 'etcdserver: request timed out' });
    const failed = await pass();
    expect(h.deletedKinds()).toEqual([]);
    expect(failed.operations).toEqual([]);
    expect(failed.adapter).toMatchObject({
      executionStatus: 'failed',
      errorReason: 'ResourceFailed',
      executionError: { phase: 'resources', step: 'clusterConfigMap', message: expect.stringContaining('discovery failed') },
    });
    expect(conditions(failed.report)).toMatchObject({ Finalized: 'False/', Health: 'False/ResourceFailed' });
  });

  it('a precondition 404 (cluster already hard-deleted) stops quietly: no Kubernetes calls, no status PUT', async () => {
    h.api.on(GET, { status: 404, body: { code: 'HYPERFLEET-NTF-001', detail: 'Cluster not found' } });
    const result = await executor.execute(event);
    expect(result.adapter).toMatchObject({ executionStatus: 'success', resourcesSkipped: true, skipReason: 'ResourceNotFound' });
    expect(result.phases.map((p) => `${p.phase}:${p.status}`)).toEqual([
      'param_extraction:success',
      'preconditions:success',
      'resources:skipped',
      'post_actions:skipped',
    ]);
    expect(h.api.requests('PUT')).toEqual([]);
    expect(h.kube.requests.filter((r) => r.verb !== undefined)).toEqual([]);
  });

  it('deleted_time comes from the cluster response: missing → not deleting, so nothing is deleted (required test case)', async () => {
    cluster(2, false);
    await pass();
    const again = await pass();
    expect(
      again.celResults.filter((r) => r.where.endsWith('lifecycle.delete.when.expression')).map((r) => 'value' in r && r.value),
    ).toEqual([false, false, false]);
    expect(h.deletedKinds()).toEqual([]);
  });
});
