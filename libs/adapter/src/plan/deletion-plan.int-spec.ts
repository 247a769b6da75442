import { HttpHyperfleetApiClient } from '../api-client/hyperfleet-api.client.js';
import { loadTaskConfigFile, parseTaskConfig } from '../config/task-config.parser.js';
import { ExecutorHarness, FIXED_NOW, ownedBy } from '../testing/executor-harness.js';
import { KubernetesTransport } from '../transport/kubernetes/kubernetes.transport.js';
import { planDeletion } from './deletion-plan.js';
import { formatDeletionPlan } from './deletion-plan.format.js';
import { PlanError } from './plan-event.js';

/**
 * `planDeletion` against the local Kubernetes API server (read only) and a recorded-response API
 * (GETs only): passes in order, when values, blockers, and nothing written anywhere.
 */
const ID = '0190c0de-0000-7000-8000-000000000001';
const CLUSTER = `/api/hyperfleet/v1/clusters/${ID}`;
const cluster = (generation: number, deleting: boolean) => ({
  id: ID,
  kind: 'Cluster',
  href: CLUSTER,
  name: 'plan-me',
  generation,
  ...(deleting && { deleted_time: '2026-03-25T09:00:00Z' }),
});

/** Keeps a ConfigMap whose delete.when never holds, and a Secret held by a finalizer. */
const STUCK = `
params:
  - {name: clusterId, source: event.id, required: true}
resources:
  - name: keeper
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: keeper, namespace: default}}
    discovery: {by_name: keeper, namespace: default}
    lifecycle:
      delete: {when: {expression: 'event.generation > 100'}}
  - name: held
    manifest: {apiVersion: v1, kind: Secret, metadata: {name: held, namespace: default}}
    discovery: {by_name: held, namespace: default}
    lifecycle:
      delete: {when: {expression: 'true'}}
`;

describe('planDeletion', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(`PUT ${CLUSTER}/statuses`, { status: 201, body: {} });
  });
  afterEach(() => h.close());

  const options = async (files: string[]) => ({
    adapters: await Promise.all(
      files.map(async (f) => ({ name: f.split('/').pop()?.replace('.yaml', '') as string, task: await loadTaskConfigFile(f) })),
    ),
    api: new HttpHyperfleetApiClient({ baseUrl: h.api.url, retryAttempts: 1 }),
    kubernetes: new KubernetesTransport(h.kube.kubeConfig()),
    now: () => FIXED_NOW,
  });

  it('orders the passes of the selector example: Job, then ConfigMap, then Namespace; complete; nothing written', async () => {
    h.api.on(`GET ${CLUSTER}`, { status: 200, body: cluster(2, false) });
    await (
      await h.executor('config/adapters/examples/validation-by-selector.yaml', 'validation-by-selector')
    ).execute({ id: ID, kind: 'Cluster' });
    h.api.on(`GET ${CLUSTER}`, { status: 200, body: cluster(3, true) });
    h.kube.clearRequests();
    const before = h.api.received.length;

    const plan = await planDeletion({ ...(await options(['config/adapters/examples/validation-by-selector.yaml'])), resource: CLUSTER });

    expect(plan.resource).toEqual({ id: ID, kind: 'Cluster', href: CLUSTER, generation: 3, deleted_time: '2026-03-25T09:00:00Z' });
    const deletes = plan.passes.map((p) =>
      p.adapters[0]?.operations
        .filter((o) => (o.operation === 'delete' && !o.reason.startsWith('already')) || o.operation === 'wait')
        .map((o) => `${o.operation} ${o.kind}`),
    );
    // The Namespace is terminating after its DELETE (namespace controller): gone by the next pass.
    expect(deletes).toEqual([['delete Job'], ['delete ConfigMap'], ['wait Namespace'], []]);
    expect(plan.passes[2]?.completedAfter).toEqual([`Namespace/${ID}`]);
    expect(plan.passes[0]?.adapters[0]?.deleteWhen.map((w) => [w.resource, 'value' in w ? w.value : w.error])).toEqual([
      ['clusterNamespace', false],
      ['clusterConfigMap', false],
      ['clusterJob', true],
    ]);
    expect(plan.passes.at(-1)?.adapters[0]?.finalized).toEqual({ status: 'True', reason: 'CleanupConfirmed' });
    expect(plan.outcome).toBe('complete');
    expect(plan.blockers).toEqual([]);
    // Read-only: no write reached Kubernetes or the API.
    expect(h.kube.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    // One GET for the event, one per pass (the adapter's precondition); the status PUTs are withheld.
    expect(h.api.received.slice(before).map((r) => r.method)).toEqual(['GET', ...plan.passes.map(() => 'GET')]);
    expect(h.kube.peek('batch/v1', 'Job', ID, `validation-${ID}-gen2`)).toBeDefined();
    const text = formatDeletionPlan(plan);
    expect(text).toContain(`Pass 1\n  validation-by-selector\n    keep     Namespace ${ID} (clusterNamespace)`);
    expect(text).toContain(
      `    DELETE   Job ${ID}/validation-${ID}-gen2 (clusterJob): deleted (propagationPolicy=Background) — delete.when = true`,
    );
    expect(text).toContain('Outcome: complete after 4 pass(es); nothing blocks.');
  });

  it('reports what blocks: a when that stays false, a finalizer, and a when that fails', async () => {
    h.api.on(`GET /api/hyperfleet/v1/resources/${ID}`, { status: 200, body: cluster(3, true) });
    // Both objects are the `stuck` adapter's: for `failing` they are not Decom's, so never deleted and never waited on.
    h.kube.seed(
      ownedBy(
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keeper', namespace: 'default' } },
        { kind: 'Cluster', id: ID },
        'stuck',
      ),
    );
    h.kube.seed(
      ownedBy(
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'held', namespace: 'default', finalizers: ['example.com/protect'] } },
        { kind: 'Cluster', id: ID },
        'stuck',
      ),
    );
    const failing = parseTaskConfig(STUCK.replace("'event.generation > 100'", "'int(event.kind) > 1'"), 'failing.yaml');
    const base = await options([]);
    const plan = await planDeletion({
      ...base,
      adapters: [
        { name: 'stuck', task: parseTaskConfig(STUCK, 'stuck.yaml') },
        { name: 'failing', task: failing },
      ],
      resource: ID,
    });
    expect(plan.outcome).toBe('blocked');
    expect(plan.blockers).toEqual([
      { adapter: 'stuck', resource: 'keeper', reason: 'lifecycle.delete.when stays false: event.generation > 100' },
      { adapter: 'stuck', resource: 'held', reason: 'terminating (finalizers: example.com/protect)' },
      { adapter: 'failing', resource: 'keeper', reason: expect.stringContaining('lifecycle.delete.when could not be evaluated') },
    ]);
    expect(formatDeletionPlan(plan)).toContain(
      `not-ours Secret default/held (held): not Decom's (no decom.io/owner: Cluster/${ID}/failing): left in place, never deleted`,
    );
    expect(h.kube.peek('v1', 'Secret', 'default', 'held')).toBeDefined();
    expect(h.api.requests('GET').map((r) => r.path)[0]).toBe(`/api/hyperfleet/v1/resources/${ID}`);
  });

  it('refuses a resource that is not marked for deletion', async () => {
    h.api.on(`GET ${CLUSTER}`, { status: 200, body: cluster(2, false) });
    await expect(planDeletion({ ...(await options([])), resource: CLUSTER })).rejects.toThrow(
      new PlanError(`Cluster ${ID} is not marked for deletion (no deleted_time): DELETE it first`),
    );
  });
});
