import { readFileSync } from 'node:fs';
import { loadAdapterConfigFile } from '../config/adapter-config.parser.js';
import { loadTaskConfigFile } from '../config/task-config.parser.js';
import { rawYaml } from '../dry-run/dry-run-inputs.js';
import { runDryRun } from '../dry-run/dry-run.js';
import { formatDryRun } from '../dry-run/dry-run-report.format.js';
import type { AdapterExecutor } from '../executor/adapter-executor.js';
import type { ExecutionResult } from '../executor/execution-result.js';
import { ExecutorHarness, MAESTRO_SOURCE } from '../testing/executor-harness.js';
import { maestroTransports } from '../transport/maestro/maestro-transport.factory.js';

/**
 * config/adapters/examples: together they use every DSL feature. Each one validates, dry-runs on
 * its recorded files (config/adapters/examples/dry-run/<name>/), and runs end to end (create,
 * update, delete until Finalized=True) against the local Kubernetes and Maestro servers and a
 * recorded-response API over HTTP.
 */
const DIR = 'config/adapters/examples';
const EXAMPLES = ['validation-by-selector', 'cluster-bootstrap', 'maestro-workload', 'tenant-namespace'] as const;
const ID = '0190b2c3-d4e5-7f60-8a9b-1c2d3e4f5a6b';
const CLUSTER = `/api/hyperfleet/v1/clusters/${ID}`;
const event = { id: ID, kind: 'Cluster', href: CLUSTER };

type Condition = { type: string; status: string; reason?: string };
const conditions = (report: unknown) =>
  Object.fromEntries(((report as { conditions: Condition[] }).conditions ?? []).map((c) => [c.type, `${c.status}/${c.reason ?? ''}`]));

/** The recorded cluster of the dry-run fixtures, at a generation, deleting or not. */
function recordedCluster(generation: number, deleting: boolean): Record<string, unknown> {
  const file = JSON.parse(readFileSync(`${DIR}/dry-run/cluster-bootstrap/api-responses.json`, 'utf8')) as {
    responses: { responses: { body: Record<string, unknown> }[] }[];
  };
  const body = structuredClone(file.responses[0]?.responses[0]?.body) as Record<string, unknown>;
  return { ...body, generation, ...(deleting && { deleted_time: '2026-03-25T09:59:00Z', deleted_by: 'alice@example.com' }) };
}

describe('example adapter configs', () => {
  it.each(EXAMPLES)('%s validates (task and deployment config)', async (name) => {
    const task = await loadTaskConfigFile(`${DIR}/${name}.yaml`);
    const deployment = await loadAdapterConfigFile(`${DIR}/${name}.adapter.yaml`);
    expect(deployment.adapter.name).toBe(name);
    expect(task.resources.length).toBeGreaterThan(0);
  });

  it('together they use every DSL feature', async () => {
    const tasks = await Promise.all(EXAMPLES.map((n) => loadTaskConfigFile(`${DIR}/${n}.yaml`)));
    const params = tasks.flatMap((t) => t.params);
    const preconditions = tasks.flatMap((t) => t.preconditions);
    const resources = tasks.flatMap((t) => t.resources);
    const payloads = tasks.flatMap((t) => t.post.payloads);
    const actions = tasks.flatMap((t) => t.post.postActions);
    expect(new Set(params.map((p) => p.source.kind))).toEqual(
      new Set(['event', 'env', 'config', 'param', 'api_call', 'expression', 'file']),
    );
    expect(new Set(params.map((p) => p.type).filter(Boolean))).toEqual(new Set(['string', 'int', 'float', 'bool']));
    expect(params.some((p) => p.hasDefault) && params.some((p) => p.required) && params.some((p) => p.description)).toBe(true);
    expect(preconditions.some((p) => p.apiCall && p.apiCall.headers.length > 0 && p.apiCall.retryBackoff && p.apiCall.timeoutMs)).toBe(
      true,
    );
    const captures = preconditions.flatMap((p) => p.captures);
    expect(captures.some((c) => c.field?.segments) && captures.some((c) => c.field?.jsonPath) && captures.some((c) => c.expression)).toBe(
      true,
    );
    expect(new Set(preconditions.flatMap((p) => p.conditions.map((c) => c.operator))).size).toBe(11);
    expect(preconditions.some((p) => p.expression) && preconditions.some((p) => p.log)).toBe(true);
    expect(
      new Set(
        resources.map((r) => (r.manifest.kind === 'tree' ? 'inline' : r.manifest.template.where.endsWith('.ref') ? 'ref' : 'string')),
      ),
    ).toEqual(new Set(['inline', 'string', 'ref']));
    expect(
      resources.some((r) => r.discovery.byName) &&
        resources.some((r) => r.discovery.bySelectors) &&
        resources.some((r) => r.discovery.namespace),
    ).toBe(true);
    expect(resources.some((r) => r.recreateOnChange) && resources.some((r) => r.lifecycle?.create)).toBe(true);
    expect(new Set(resources.map((r) => r.lifecycle?.delete?.propagationPolicy))).toEqual(new Set(['Background', 'Foreground', 'Orphan']));
    expect(new Set(resources.map((r) => r.lifecycle?.delete?.policy))).toEqual(new Set(['Delete', 'Orphan']));
    expect(new Set(resources.flatMap((r) => r.lifecycle?.create?.adoptionPolicy ?? []))).toEqual(
      new Set(['Adopt', 'AdoptIfMatching', 'FailIfExists']),
    );
    expect(new Set(resources.map((r) => r.transport.client))).toEqual(new Set(['kubernetes', 'maestro']));
    expect(resources.flatMap((r) => r.nestedDiscoveries.map((n) => (n.discovery.byName ? 'by_name' : 'by_selectors')))).toEqual([
      'by_selectors',
      'by_name',
    ]);
    expect(payloads.some((p) => p.when) && payloads.some((p) => p.build.kind === 'map')).toBe(true);
    const sources = readFileSync(`${DIR}/cluster-bootstrap.yaml`, 'utf8');
    expect(sources).toContain('build_ref:');
    for (const fn of ['conditionStatus(', 'stableFor(', 'conditionAge(', 'toJson(', 'dig(', 'triState(', 'now()'])
      expect(sources).toContain(fn);
    expect(readFileSync(`${DIR}/maestro-workload.yaml`, 'utf8')).toContain('statusFeedbackValue(');
    expect(actions.some((a) => a.apiCall) && actions.some((a) => a.log) && actions.some((a) => a.when)).toBe(true);
  });
});

describe('example adapter configs: dry run on the recorded files (no network)', () => {
  const dryRun = (name: string) =>
    runDryRun({
      taskConfigFile: `${DIR}/${name}.yaml`,
      eventFile: `${DIR}/dry-run/${name}/event.json`,
      apiResponsesFile: `${DIR}/dry-run/${name}/api-responses.json`,
      discoveryFile: `${DIR}/dry-run/${name}/discovery.json`,
      now: () => new Date('2026-03-25T10:00:00Z'),
    });

  it('validation-by-selector: a deleting pass finds the gen2 Job by label and deletes it first', async () => {
    const report = await dryRun('validation-by-selector');
    // The Namespace and ConfigMap its delete.when holds back are present: updated, as HyperFleet's dry run labels them.
    expect(report.result.operations.map((o) => `${o.operation} ${o.kind}`)).toEqual(['update Namespace', 'update ConfigMap', 'delete Job']);
    expect(report.kubernetesCalls.filter((c) => c.verb === 'delete').map((c) => c.name)).toEqual([`validation-${ID}-gen2`]);
    expect(conditions(report.statusReports[0]?.body)).toMatchObject({ Finalized: 'False/CleanupInProgress', Health: 'True/NoErrors' });
  });

  it('cluster-bootstrap: the first reconcile creates all three objects and reports Available', async () => {
    const report = await dryRun('cluster-bootstrap');
    expect(report.result.celResults.filter((r) => 'error' in r)).toEqual([]);
    expect(report.result.operations.map((o) => `${o.operation} ${o.kind}`)).toEqual([
      'create Namespace',
      'create ConfigMap',
      'create Secret',
    ]);
    expect(report.kubernetesCalls.find((c) => c.verb === 'create' && c.kind === 'ConfigMap')?.object?.['data']).toMatchObject({
      highAvailability: 'true',
      region: 'US-EAST-1',
    });
    expect(conditions(report.statusReports[0]?.body)).toEqual({
      Applied: 'True/SettingsApplied',
      Available: 'True/NamespaceReady',
      Health: 'True/Healthy',
      Finalized: 'False/NotDeleting',
    });
    expect(report.apiExchanges.map((e) => `${e.method} ${e.answeredBy}`)).toEqual(['GET recorded', 'GET recorded', 'PUT recorded']);
  });

  it('tenant-namespace: a deletion with deletion_policy Orphan leaves both objects in place and reports Finalized=True/Orphaned', async () => {
    const report = await dryRun('tenant-namespace');
    expect(report.result.operations.map((o) => `${o.operation} ${o.kind}`)).toEqual(['orphan Namespace', 'orphan ConfigMap']);
    expect(report.kubernetesCalls.filter((c) => c.verb === 'delete')).toEqual([]);
    expect(
      report.kubernetesCalls.filter((c) => c.verb === 'replace').map((c) => c.object?.metadata.annotations?.['decom.io/owner']),
    ).toEqual([undefined, undefined]);
    expect(conditions(report.statusReports[0]?.body)).toMatchObject({ Finalized: 'True/Orphaned', Health: 'True/Healthy' });
    const text = formatDryRun(report);
    expect(text).toContain('  deleting=true deletion_policy=Orphan paused=false (from precondition cluster)');
    expect(text).toContain(
      `  payload statusPayload: Finalized=True/Orphaned (set by the executor): Left in place (deletion_policy Orphan); Decom's ownership marks removed from Namespace tenant-${ID}, ConfigMap tenant-${ID}/cluster-config`,
    );
  });

  it('maestro-workload: deleting while Maestro still holds the work reports CleanupInProgress with the feedback', async () => {
    const report = await dryRun('maestro-workload');
    expect(report.result.operations[0]).toMatchObject({ operation: 'delete', kind: 'ManifestWork', consumer: 'cluster1' });
    expect(report.statusReports[0]?.body).toMatchObject({ data: { namespacePhase: 'Active', workVersion: '3' } });
    expect(conditions(report.statusReports[0]?.body)).toMatchObject({
      Available: 'True/ConfigDelivered',
      Finalized: 'False/CleanupInProgress',
    });
  });
});

describe('example adapter configs: end to end (local Kubernetes, local Maestro, recorded API)', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(`PUT ${CLUSTER}/statuses`, { status: 201, body: {} }).on(`GET ${CLUSTER}/statuses`, {
      status: 200,
      body: { page: 1, size: 1, total: 1, items: [{ adapter: 'validation', observed_generation: 2 }] },
    });
  });
  afterEach(() => h.close());

  const cluster = (generation: number, deleting: boolean) =>
    h.api.on(`GET ${CLUSTER}`, { status: 200, body: recordedCluster(generation, deleting) });
  const lastReport = () => h.api.requests('PUT').at(-1)?.body;
  async function executor(name: string, env: Record<string, string> = {}): Promise<AdapterExecutor> {
    const deployment = await loadAdapterConfigFile(`${DIR}/${name}.adapter.yaml`, env);
    return h.executor(`${DIR}/${name}.yaml`, name, {
      env,
      config: await rawYaml(`${DIR}/${name}.adapter.yaml`),
      maestro: maestroTransports(deployment.clients.maestro),
    });
  }
  async function passUntilFinalized(run: () => Promise<ExecutionResult>, settle: () => Promise<void>, max = 6): Promise<ExecutionResult[]> {
    const results: ExecutionResult[] = [];
    while (results.length < max) {
      const result = await run();
      expect(result.celResults.filter((r) => 'error' in r)).toEqual([]);
      results.push(result);
      if (conditions(lastReport())['Finalized']?.startsWith('True')) return results;
      await settle();
    }
    throw new Error(`not finalized after ${max} passes`);
  }

  it('validation-by-selector: deletes Job → ConfigMap → Namespace after a real generation bump (seed 000 edge case #10)', async () => {
    const run = await executor('validation-by-selector');
    cluster(2, false);
    await run.execute(event);
    cluster(3, true);
    const passes = await passUntilFinalized(
      () => run.execute(event),
      () => h.kube.settle(),
    );
    expect(h.deletedKinds()).toEqual([`Job/validation-${ID}-gen2`, `ConfigMap/cluster-${ID}-config`, `Namespace/${ID}`]);
    expect(passes.length).toBeGreaterThanOrEqual(3);
    expect(conditions(lastReport())).toMatchObject({ Finalized: 'True/CleanupConfirmed', Health: 'True/NoErrors' });
  });

  it('cluster-bootstrap: creates, updates (recreate_on_change; a new pull secret), then deletes children before the namespace', async () => {
    const run = await executor('cluster-bootstrap', { CLUSTER_REGION: 'eu-west-1' });
    cluster(2, false);
    const created = await run.execute(event);
    expect(created.operations.map((o) => o.operation)).toEqual(['create', 'create', 'create']);
    expect(h.kube.peek('v1', 'ConfigMap', ID, 'cluster-settings')?.data).toMatchObject({ region: 'EU-WEST-1', highAvailability: 'true' });
    expect(lastReport()).toMatchObject({ data: { region: 'eu-west-1', reconciledAgeSeconds: 7200, readiness: 'True' } });
    const uid = (h.kube.peek('v1', 'ConfigMap', ID, 'cluster-settings')?.metadata as { uid: string }).uid;

    cluster(3, false);
    const updated = await run.execute(event);
    expect(updated.operations.map((o) => `${o.resource}:${o.operation}`)).toEqual([
      'clusterNamespace:update',
      'clusterSettings:recreate',
      'pullSecret:create',
    ]);
    expect((h.kube.peek('v1', 'ConfigMap', ID, 'cluster-settings')?.metadata as { uid: string }).uid).not.toBe(uid);

    cluster(4, true);
    const passes = await passUntilFinalized(
      () => run.execute(event),
      () => h.kube.settle(),
    );
    expect(h.deletedKinds()).toEqual([
      `ConfigMap/cluster-settings`, // recreate_on_change (update pass)
      `ConfigMap/cluster-settings`,
      `Secret/pull-secret-3`,
      `Secret/pull-secret-2`,
      `Namespace/${ID}`,
    ]);
    const policies = h.kube.requestsMatching({ method: 'DELETE' }).map((r) => `${r.kind}:${r.query.propagationPolicy}`);
    expect(policies.slice(1)).toEqual(['ConfigMap:Background', 'Secret:Orphan', 'Secret:Orphan', 'Namespace:Foreground']);
    expect(passes.at(-1)?.logs.map((l) => l.message)).toEqual([
      expect.stringContaining('cluster demo-cluster has 1 adapter report(s)'),
      `deleting cluster demo-cluster: {"cluster":"${ID}","name":"demo-cluster","generation":4,"remaining":0,"resourceErrors":0}`,
    ]);
    expect(conditions(lastReport())).toEqual({
      Applied: 'False/SettingsAbsent',
      Available: 'False/NamespaceAbsent',
      Health: 'True/Healthy',
      Finalized: 'True/CleanupConfirmed',
    });
  });

  it('tenant-namespace: adopts a matching pre-existing namespace, then deletes the config and leaves the namespace unmarked', async () => {
    const ns = `tenant-${ID}`;
    h.kube.seed({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns, labels: { 'tenant.example.com/cluster': ID, team: 'platform' } },
    });
    const run = await executor('tenant-namespace');
    cluster(2, false);
    const created = await run.execute(event);
    expect(created.operations.map((o) => `${o.resource}:${o.operation}`)).toEqual(['tenantNamespace:adopt', 'tenantConfig:create']);
    // Adoption is never silent: the pass that took the namespace over says so.
    expect(conditions(lastReport())).toMatchObject({
      Applied: 'True/Adopted',
      Available: 'True/TenantReady',
      Finalized: 'False/NotDeleting',
    });
    expect(h.kube.peek('v1', 'Namespace', undefined, ns)?.metadata).toMatchObject({
      annotations: { 'decom.io/owner': `Cluster/${ID}/tenant-namespace` },
    });

    cluster(3, true);
    await passUntilFinalized(
      () => run.execute(event),
      () => h.kube.settle(),
    );
    expect(h.deletedKinds()).toEqual(['ConfigMap/cluster-config']);
    const kept = h.kube.peek('v1', 'Namespace', undefined, ns)?.metadata as {
      labels: Record<string, string>;
      annotations?: Record<string, string>;
    };
    expect(kept.labels).toMatchObject({ 'tenant.example.com/cluster': ID, team: 'platform' });
    expect(kept.annotations?.['decom.io/owner']).toBeUndefined();
    expect(conditions(lastReport())).toMatchObject({ Finalized: 'True/CleanupConfirmed', Health: 'True/Healthy' });
  });

  it('maestro-workload: applies through Maestro, reads status feedback, deletes asynchronously (env override of the Maestro address)', async () => {
    const run = await executor('maestro-workload', {
      HYPERFLEET_MAESTRO_HTTP_SERVER_ADDRESS: h.maestro.url,
      HYPERFLEET_MAESTRO_GRPC_SERVER_ADDRESS: h.maestro.grpcAddress,
    });
    cluster(2, false);
    await run.execute(event);
    await h.maestro.settle();
    h.maestro.setStatusFeedback(MAESTRO_SOURCE, 'cluster1', `hf-${ID}`, { kind: 'Namespace', name: ID }, [
      { name: 'phase', fieldValue: { type: 'String', string: 'Active' } },
    ]);
    await run.execute(event);
    expect(conditions(lastReport())).toMatchObject({
      Applied: 'True/ManifestWorkPresent',
      Available: 'True/ConfigDelivered',
      Finalized: 'False/NotDeleting',
    });

    cluster(3, true);
    h.maestro.pauseAgent();
    const passes = await passUntilFinalized(
      () => run.execute(event),
      async () => {
        h.maestro.resumeAgent();
        await h.maestro.settle();
      },
    );
    expect(passes.map((p) => p.operations[0]?.operation)).toEqual(['wait', 'delete']);
    expect(conditions(lastReport())).toMatchObject({ Finalized: 'True/CleanupConfirmed', Health: 'True/Healthy' });
    expect(h.maestro.bundles()).toEqual([]);
  });
});
