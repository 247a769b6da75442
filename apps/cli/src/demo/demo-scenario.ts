/**
 * The demo scenario (seeds 000 and 001 end to end), used by `npm run demo` and by the e2e
 * test. Each step checks what it claims and throws `DemoCheckFailed` otherwise.
 */
import type { LocalKube } from '@decom/kube-local';
import { DemoApi, eventually } from './api-client.js';

export class DemoCheckFailed extends Error {
  override readonly name = 'DemoCheckFailed';
}

export interface DemoStep {
  readonly title: string;
  readonly time: string;
}

export interface DemoReport {
  readonly steps: DemoStep[];
  readonly clusterId: string;
  readonly nodepoolIds: readonly string[];
  readonly stuckClusterId: string;
  /** Kubernetes DELETEs of the healthy cluster's adapter, in order: `Kind/name`. */
  readonly clusterDeleteOrder: readonly string[];
  /** The `ForceDeleted` audit event read back from history after the resource was gone. */
  readonly forceDeleteAudit: any;
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new DemoCheckFailed(message);
}

const condition = (resource: any, type: string) => resource?.status?.conditions?.find((c: any) => c.type === type);

export async function runDemoScenario(
  baseUrl: string,
  kube: LocalKube,
  log: (line: string) => void = () => undefined,
): Promise<DemoReport> {
  const api = new DemoApi(baseUrl);
  const steps: DemoStep[] = [];
  const step = (title: string) => {
    steps.push({ title, time: new Date().toISOString() });
    log(`\n── ${title}`);
  };
  const reconciled = (path: string) =>
    eventually(`${path} Reconciled=True`, async () => {
      const r = await api.get(path);
      return condition(r.body, 'Reconciled')?.status === 'True' ? r.body : undefined;
    });

  step('1. create a cluster and two nodepools; adapters provision them');
  const cluster = await api.call('POST', '/clusters', {
    kind: 'Cluster',
    name: 'prod-eu-1',
    spec: { region: 'eu-west-1' },
    labels: { env: 'prod' },
  });
  check(cluster.status === 201, `create cluster: expected 201, got ${cluster.status} ${JSON.stringify(cluster.body)}`);
  const clusterId: string = cluster.body.id;
  const nodepoolIds: string[] = [];
  for (const name of ['np-a', 'np-b']) {
    const np = await api.call('POST', `/clusters/${clusterId}/nodepools`, { kind: 'NodePool', name, spec: { replicas: 2 } });
    check(np.status === 201, `create nodepool ${name}: expected 201, got ${np.status} ${JSON.stringify(np.body)}`);
    nodepoolIds.push(np.body.id);
  }
  await reconciled(`/clusters/${clusterId}`);
  for (const id of nodepoolIds) await reconciled(`/clusters/${clusterId}/nodepools/${id}`);
  const ns = clusterId.toLowerCase();
  check(kube.peek('v1', 'Namespace', undefined, ns), `namespace ${ns} exists`);
  check(kube.peek('v1', 'ConfigMap', ns, `cluster-${clusterId}-config`), 'cluster ConfigMap exists');
  check(kube.peek('batch/v1', 'Job', ns, `validation-${clusterId}-gen1`), 'validation Job exists');
  for (const id of nodepoolIds) check(kube.peek('v1', 'ConfigMap', ns, `nodepool-${id}`), `nodepool ConfigMap ${id} exists`);
  log(`   cluster ${clusterId} and nodepools ${nodepoolIds.join(', ')} are Reconciled=True`);

  step('2. DELETE the cluster: 202, deleted_time cascades to the nodepools, PATCH is refused');
  // By sequence number, not index: the engine's request log is bounded and may drop its oldest entries.
  const requestLogStart = kube.requests.at(-1)?.seq ?? 0;
  const deleted = await api.call('DELETE', `/clusters/${clusterId}`);
  check(deleted.status === 202, `DELETE: expected 202, got ${deleted.status}`);
  check(
    deleted.body.deleted_time && deleted.body.generation === 2,
    `DELETE: deleted_time set and generation 2, got ${JSON.stringify(deleted.body)}`,
  );
  const again = await api.call('DELETE', `/clusters/${clusterId}`);
  check(
    again.status === 202 && again.body.deleted_time === deleted.body.deleted_time && again.body.generation === 2,
    'a repeated DELETE is idempotent',
  );
  for (const id of nodepoolIds) {
    const np = await api.get(`/clusters/${clusterId}/nodepools/${id}`);
    check(np.status === 404 || np.body.deleted_time, `nodepool ${id} has deleted_time`);
  }
  const patch = await api.call('PATCH', `/clusters/${clusterId}`, { labels: { env: 'dev' } });
  check(
    patch.status === 409 && patch.body.code === 'HYPERFLEET-CNF-003',
    `PATCH while Finalizing: expected 409 HYPERFLEET-CNF-003, got ${patch.status} ${patch.body?.code}`,
  );
  log(`   deleted_time=${deleted.body.deleted_time} generation=${deleted.body.generation}; PATCH → 409 ${patch.body.code}`);

  step('3. adapters clean up in order (Job → ConfigMap → Namespace) and report Finalized=True');
  step('4. nodepools are hard-deleted, then the cluster: GET → 404');
  await eventually(
    'cluster hard delete',
    async () => ((await api.get(`/clusters/${clusterId}`)).status === 404 ? true : undefined),
    30_000,
  );
  for (const id of nodepoolIds) {
    const np = await api.get(`/nodepools/${id}`);
    check(np.status === 404, `nodepool ${id}: expected 404 after hard delete, got ${np.status}`);
  }
  // The seed's Job is named after the generation (`...-gen{{ .generation }}`): at deletion (generation 2)
  // the adapter looks up `-gen2`, finds it absent and moves on; the generation-1 Job goes with its namespace
  // (seed 000 edge case #10 — docs/seed-000-example.md explains, and an example config uses label selectors).
  const requestLog = kube.requests.filter((r) => r.seq > requestLogStart);
  const firstIndex = (match: (r: (typeof requestLog)[number]) => boolean) => requestLog.findIndex(match);
  const jobGone = firstIndex((r) => r.kind === 'Job' && r.name === `validation-${clusterId}-gen2` && r.status === 404);
  const configMapDeleted = firstIndex(
    (r) => r.method === 'DELETE' && r.kind === 'ConfigMap' && r.name === `cluster-${clusterId}-config` && r.status < 300,
  );
  const namespaceDeleted = firstIndex((r) => r.method === 'DELETE' && r.kind === 'Namespace' && r.name === ns && r.status < 300);
  check(
    jobGone >= 0 && configMapDeleted > jobGone && namespaceDeleted > configMapDeleted,
    `cluster adapter order Job → ConfigMap → Namespace (request log indexes ${jobGone}, ${configMapDeleted}, ${namespaceDeleted})`,
  );
  const clusterDeleteOrder = [
    `Job/validation-${clusterId}-gen2 (looked up, none: the Job is named after generation 1)`,
    `ConfigMap/cluster-${clusterId}-config`,
    `Namespace/${ns} (the namespace controller removes Job/validation-${clusterId}-gen1 inside it)`,
  ];
  const job1Deleted = kube.changes.find((c) => c.type === 'DELETED' && c.kind === 'Job' && c.name === `validation-${clusterId}-gen1`);
  check(job1Deleted, 'the generation-1 Job was removed with its namespace');
  for (const id of nodepoolIds) {
    const npDelete = firstIndex((r) => r.method === 'DELETE' && r.kind === 'ConfigMap' && r.name === `nodepool-${id}`);
    const npGone = kube.changes.find((c) => c.type === 'DELETED' && c.kind === 'ConfigMap' && c.name === `nodepool-${id}`);
    check(npDelete >= 0 || npGone, `nodepool ConfigMap ${id} was deleted`);
  }
  check(!kube.peek('v1', 'Namespace', undefined, ns), 'namespace is gone');
  const history = await api.get(`/resources/${clusterId}/events`);
  const types: string[] = history.body.items.map((e: any) => e.type);
  check(
    types.includes('AdapterFinalized') && types[types.length - 1] === 'HardDeleted',
    `history ends with HardDeleted: ${types.join(',')}`,
  );
  log(`   Kubernetes deletes: ${clusterDeleteOrder.join(' → ')}`);
  log(`   GET cluster and both nodepools → 404; history kept: ${history.body.total} events`);

  step('5. a cluster whose adapter cannot delete (Kubernetes answers 403) stays Finalizing; force delete');
  const stuck = await api.call('POST', '/clusters', { kind: 'Cluster', name: 'stuck-1', spec: {} });
  check(stuck.status === 201, 'create stuck cluster');
  const stuckId: string = stuck.body.id;
  await reconciled(`/clusters/${stuckId}`);
  const fault = kube.faults.add({
    method: 'DELETE',
    pathPattern: stuckId.toLowerCase(),
    status: 403,
    message: 'RBAC: adapter may not delete',
  });
  check((await api.call('DELETE', `/clusters/${stuckId}`)).status === 202, 'DELETE stuck cluster');
  const unhealthy = await eventually('stuck cluster adapter Health=False', async () => {
    const statuses = await api.get(`/clusters/${stuckId}/statuses`);
    const validation = statuses.body?.items?.find((s: any) => s.adapter === 'validation');
    const health = validation?.observed_generation === 2 ? validation.conditions.find((c: any) => c.type === 'Health') : undefined;
    return health?.status === 'False' ? validation : undefined;
  });
  const stuckView = (await api.get(`/clusters/${stuckId}`)).body;
  const rc = condition(stuckView, 'Reconciled');
  check(
    stuckView.deleted_time && rc.status === 'False' && /validation/.test(rc.message),
    `stuck cluster: Finalizing, Reconciled=False naming the adapter: ${JSON.stringify(rc)}`,
  );
  const finalized = unhealthy.conditions.find((c: any) => c.type === 'Finalized');
  check(finalized?.status === 'False', 'stuck adapter reports Finalized=False');
  const health = unhealthy.conditions.find((c: any) => c.type === 'Health');
  log(`   Reconciled=False: ${rc.message}`);
  log(
    `   adapter validation: Health=False (${health.reason}: ${health.message}); Finalized=False (${finalized.reason || 'no reason given by the task config'})`,
  );
  const noReason = await api.call('POST', `/clusters/${stuckId}/force-delete`, {});
  check(
    noReason.status === 400 && noReason.contentType.startsWith('application/problem+json'),
    `force delete without reason → 400, got ${noReason.status}`,
  );
  const forced = await api.call('POST', `/clusters/${stuckId}/force-delete`, {
    reason: 'INC-4711: RBAC for the validation adapter was revoked; infra cleaned up by hand',
  });
  check(forced.status === 204, `force delete → 204, got ${forced.status}`);
  check((await api.get(`/clusters/${stuckId}`)).status === 404, 'GET after force delete → 404');
  fault.remove();
  const audit = (await api.get(`/resources/${stuckId}/events`)).body.items.find((e: any) => e.type === 'ForceDeleted');
  check(audit?.data.reason?.startsWith('INC-4711') && audit.data.caller === 'operator@example.com', 'audit record read back from history');
  log(`   force-delete without reason → 400 ${noReason.body.code}; with reason → 204; GET → 404`);
  log(`   audit: ForceDeleted by ${audit.data.caller}: "${audit.data.reason}"`);
  return { steps, clusterId, nodepoolIds, stuckClusterId: stuckId, clusterDeleteOrder, forceDeleteAudit: audit };
}
