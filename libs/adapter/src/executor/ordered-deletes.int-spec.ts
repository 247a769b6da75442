import type { AdapterExecutor, ExecutionRun } from './adapter-executor.js';
import type { ExecutionResult } from './execution-result.js';
import { ExecutorHarness, ownedBy } from '../testing/executor-harness.js';

/**
 * The worker's runs go on through the ordered deletes within one pass (`continueDeletes`):
 * the seed's task config (config/adapters/validation.yaml, Namespace listed before the ConfigMap and the
 * Job in it) deletes Job → ConfigMap → Namespace in one pass when each delete is confirmed at once, in the
 * same order HyperFleet's passes would; it stops at a delete that leaves its object present. An object
 * already being deleted is waited for, not deleted again (a terminating Namespace answers 409 to it).
 * Real local Kubernetes server and a recorded-response API server, over HTTP.
 */
const CLUSTER = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
const GET = `GET /api/hyperfleet/v1/clusters/${CLUSTER}`;
const PUT = `PUT /api/hyperfleet/v1/clusters/${CLUSTER}/statuses`;
const event = { id: CLUSTER, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${CLUSTER}`, generation: 2 };
const JOB = `Job/validation-${CLUSTER}-gen2`;
const CONFIG_MAP = `ConfigMap/cluster-${CLUSTER}-config`;
const NAMESPACE = `Namespace/${CLUSTER}`;

type Condition = { type: string; status: string; reason: string };
const finalized = (report: unknown) => (report as { conditions: Condition[] }).conditions.find((c) => c.type === 'Finalized');

describe('ordered deletes within one pass (continueDeletes)', () => {
  let h: ExecutorHarness;
  let executor: AdapterExecutor;
  const cluster = (deleted: boolean) =>
    h.api.on(GET, {
      status: 200,
      body: { id: CLUSTER, kind: 'Cluster', name: 'c-two', generation: 2, ...(deleted && { deleted_time: '2026-03-25T09:59:00Z' }) },
    });

  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(PUT, { status: 201, body: {} });
    executor = await h.executor('config/adapters/validation.yaml', 'validation');
    cluster(false);
    await executor.execute(event);
    cluster(true);
  });
  afterEach(() => h.close());

  async function pass(run: ExecutionRun = { continueDeletes: true }): Promise<ExecutionResult & { report: unknown }> {
    const result = await executor.execute(event, run);
    expect(result.celResults.filter((r) => 'error' in r)).toEqual([]);
    return { ...result, report: h.api.requests('PUT').at(-1)?.body };
  }

  it('one pass deletes Job → ConfigMap → Namespace in order, each after the one before is confirmed gone', async () => {
    const only = await pass();
    expect(h.deletedKinds()).toEqual([JOB, CONFIG_MAP, NAMESPACE]);
    // The first sweep (HyperFleet's pass) keeps Namespace and ConfigMap; the rest of the pass deletes them in
    // order. The Namespace is gone at once or still terminating, as the namespace controller's timing has it.
    expect(only.operations.map((o) => `${o.operation} ${o.resource}`).slice(0, 4)).toEqual([
      'skip clusterNamespace',
      'skip clusterConfigMap',
      'delete clusterJob',
      'delete clusterConfigMap',
    ]);
    expect(only.operations[4]).toMatchObject({ resource: 'clusterNamespace', operation: expect.stringMatching(/^(delete|wait)$/) });
    expect(only.operations).toHaveLength(5);
    await h.kube.settle();
    const confirmed = await pass();
    expect(h.deletedKinds()).toHaveLength(3);
    expect(finalized(confirmed.report)).toMatchObject({ status: 'True', reason: 'CleanupConfirmed' });
  });

  it("without it (dry runs, deletion plans) a pass is HyperFleet's: one step of the order per pass", async () => {
    await pass({});
    expect(h.deletedKinds()).toEqual([JOB]);
    await pass({});
    expect(h.deletedKinds()).toEqual([JOB, CONFIG_MAP]);
  });

  it('stops at a delete that leaves its object present; the next pass waits for the terminating Namespace instead of deleting it again (no 409)', async () => {
    h.kube.pauseControllers(); // the Namespace stays Terminating after its DELETE
    const first = await pass();
    expect(h.deletedKinds()).toEqual([JOB, CONFIG_MAP, NAMESPACE]);
    expect(first.operations.at(-1)).toMatchObject({ resource: 'clusterNamespace', operation: 'wait' });
    expect(finalized(first.report)).toMatchObject({ status: 'False', reason: 'CleanupInProgress' });

    const second = await pass();
    expect(h.deletedKinds()).toHaveLength(3); // no second DELETE of the Namespace
    expect(second.status).toBe('success');
    expect(second.operations[0]).toMatchObject({
      resource: 'clusterNamespace',
      operation: 'wait',
      reason: expect.stringContaining('deletion in progress since'),
    });
    expect(finalized(second.report)).toMatchObject({ status: 'False', reason: 'CleanupInProgress' });

    h.kube.resumeControllers();
    await h.kube.settle();
    const last = await pass();
    expect(finalized(last.report)).toMatchObject({ status: 'True', reason: 'CleanupConfirmed' });
  });

  it('a ConfigMap held by a finalizer stops the pass before the Namespace: the order is kept', async () => {
    const [namespace, name] = [CLUSTER, `cluster-${CLUSTER}-config`];
    const current = h.kube.peek('v1', 'ConfigMap', namespace, name) as { metadata: Record<string, unknown> };
    const held = { ...current, metadata: { ...current.metadata, finalizers: ['example.com/hold'] } };
    const put = await fetch(`${h.kube.url}/api/v1/namespaces/${namespace}/configmaps/${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(held),
    });
    expect(put.status).toBe(200);

    const first = await pass();
    expect(h.deletedKinds()).toEqual([JOB, CONFIG_MAP]);
    expect(first.operations.at(-1)).toMatchObject({ resource: 'clusterConfigMap', operation: 'wait' });
    expect(finalized(first.report)).toMatchObject({ status: 'False' });
    // The report names what holds it, in its free data: the ConfigMap, its finalizer, since when.
    const since = (h.kube.peek('v1', 'ConfigMap', namespace, name) as { metadata: { deletionTimestamp: string } }).metadata
      .deletionTimestamp;
    expect((first.report as { data?: unknown }).data).toEqual({
      holding: [{ kind: 'ConfigMap', namespace, name, finalizers: ['example.com/hold'], deletion_timestamp: since }],
    });
    // The next pass waits for it (already being deleted) and still names it.
    expect((await pass()).report).toMatchObject({ data: { holding: [{ kind: 'ConfigMap', name, finalizers: ['example.com/hold'] }] } });

    h.kube.removeFinalizer('v1', 'ConfigMap', namespace, name, 'example.com/hold');
    await h.kube.settle();
    const released = await pass();
    expect(h.deletedKinds()).toEqual([JOB, CONFIG_MAP, NAMESPACE]);
    expect(
      (released.report as { data?: { holding?: unknown[] } }).data?.holding?.some((o) => (o as { kind: string }).kind === 'ConfigMap'),
    ).not.toBe(true);
  });

  it('objects of a shared kind found by ownership under other names wait for the resource still held back', async () => {
    // Three ConfigMap resources: `b` (named by generation) waits for `gate` (held by a finalizer); `a` goes at
    // once. The stale b-gen1 and b-gen2 carry the marker like `a` does; deleting `a` must not take them early.
    const NS = 'shared-kind';
    const cm = (name: string, nameTpl: string, when: string) => `
  - name: ${name}
    manifest:
      apiVersion: v1
      kind: ConfigMap
      metadata: { name: '${nameTpl}', namespace: ${NS} }
      data: { k: v }
    discovery: { by_name: '${nameTpl}', namespace: ${NS} }
    lifecycle:
      delete:
        when:
          expression: "${when}"`;
    const config = `
params:
  - { name: clusterId, required: true, source: event.id, type: string }
preconditions:
  - name: clusterStatus
    api_call: { method: GET, url: '/clusters/{{ .clusterId }}' }
    capture:
      - { name: generation, field: generation }
resources:${cm('gate', 'gate', 'deleted_time != null')}${cm('b', 'b-gen{{ .generation }}', 'deleted_time != null && !resources.?gate.hasValue()')}${cm('a', 'a', 'deleted_time != null')}
`;
    h.api.on(GET, {
      status: 200,
      body: { id: CLUSTER, kind: 'Cluster', name: 'c-two', generation: 3, deleted_time: '2026-03-25T09:59:00Z' },
    });
    h.kube.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    const shared = await h.executor(config, 'shared');
    const seedOwned = (name: string, extra: Record<string, unknown> = {}) =>
      h.kube.seed(
        ownedBy(
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, ...extra }, data: { k: 'v' } },
          { kind: 'Cluster', id: CLUSTER },
          'shared',
        ),
      );
    const exists = (name: string) => h.kube.peek('v1', 'ConfigMap', NS, name) !== undefined;
    seedOwned('gate', { finalizers: ['example.com/hold'] });
    seedOwned('b-gen1');
    seedOwned('b-gen2');
    seedOwned('a');
    const deletes = () => h.kube.requestsMatching({ method: 'DELETE' }).map((r) => r.name);

    const first = await shared.execute({ ...event, generation: 3 }, { continueDeletes: true });
    expect(first.status).toBe('success');
    expect(exists('a')).toBe(false);
    expect([exists('gate'), exists('b-gen1'), exists('b-gen2')]).toEqual([true, true, true]);
    expect(deletes()).not.toEqual(expect.arrayContaining(['b-gen1']));
    expect(deletes()).not.toEqual(expect.arrayContaining(['b-gen2']));
    expect(first.logs.map((l) => l.message)).toEqual(expect.arrayContaining([expect.stringContaining('are left for b')]));

    h.kube.removeFinalizer('v1', 'ConfigMap', NS, 'gate', 'example.com/hold');
    await h.kube.settle();
    await shared.execute({ ...event, generation: 3 }, { continueDeletes: true });
    await shared.execute({ ...event, generation: 3 }, { continueDeletes: true });
    expect([exists('gate'), exists('b-gen1'), exists('b-gen2'), exists('b-gen3')]).toEqual([false, false, false, false]);
  });
});
