import { ExecutorHarness, MAESTRO_SOURCE } from '../testing/executor-harness.js';
import { clusterPrelude } from '../testing/reporting-task-config.js';
import { maestroTransports } from '../transport/maestro/maestro-transport.factory.js';
import type { ExecutionResult } from './execution-result.js';

/**
 * `transport.client: maestro` end to end: the executor against the local Maestro-compatible
 * server (and a recorded-response API) over HTTP. Deletion is asynchronous; nested discoveries
 * are promoted to `resources`; status feedback is read with `statusFeedbackValue`.
 */
const ID = 'c7';
const GET = `GET /api/hyperfleet/v1/clusters/${ID}`;
const PUT = `PUT /api/hyperfleet/v1/clusters/${ID}/statuses`;
const event = { id: ID, kind: 'Cluster' };

const CONFIG = `${clusterPrelude(`      - {name: is_deleting, expression: 'has(cluster.deleted_time)'}`)}
resources:
  - name: work
    transport:
      client: maestro
      maestro: {target_cluster: cluster1}
    manifest:
      apiVersion: work.open-cluster-management.io/v1
      kind: ManifestWork
      metadata:
        name: 'work-{{ .clusterId }}'
        labels: {hyperfleet.io/cluster-id: '{{ .clusterId }}'}
        annotations: {hyperfleet.io/generation: '{{ .generation }}'}
      spec:
        workload:
          manifests:
            - apiVersion: v1
              kind: Namespace
              metadata:
                name: 'ns-{{ .clusterId }}'
                labels: {hyperfleet.io/resource-type: namespace}
                annotations: {hyperfleet.io/generation: '{{ .generation }}'}
            - apiVersion: v1
              kind: ConfigMap
              metadata:
                name: 'cm-{{ .clusterId }}'
                namespace: 'ns-{{ .clusterId }}'
                annotations: {hyperfleet.io/generation: '{{ .generation }}'}
    discovery:
      by_selectors: {label_selector: {hyperfleet.io/cluster-id: '{{ .clusterId }}'}}
    nested_discoveries:
      - name: workNamespace
        discovery: {by_selectors: {label_selector: {hyperfleet.io/resource-type: namespace}}}
      - name: workConfigMap
        discovery: {by_name: 'cm-{{ .clusterId }}', namespace: 'ns-{{ .clusterId }}'}
    lifecycle:
      delete:
        when: {expression: is_deleting}
post:
  payloads:
    - name: report
      build:
        phase: {expression: 'statusFeedbackValue(resources.?workNamespace.statusFeedback.orValue(null), "phase")'}
        nested: {expression: '[resources.?workNamespace.hasValue(), resources.?workConfigMap.hasValue()]'}
        finalized: {expression: 'is_deleting && adapter.executionStatus == "success" && !resources.?work.hasValue() ? "True" : "False"'}
        observed_generation: {expression: generation}
  post_actions:
    - name: put
      api_call: {method: PUT, url: '/clusters/{{ .clusterId }}/statuses', body: '{{ .report }}'}
`;

// Run once with specs over the CloudEvents HTTP fallback, once over gRPC (`grpc_server_address` set).
describe.each([
  ['HTTP CloudEvents', false],
  ['gRPC', true],
])('AdapterExecutor over Maestro (specs via %s)', (_binding, grpc) => {
  let h: ExecutorHarness;
  const mw = (config: string, deps: Parameters<ExecutorHarness['executor']>[2] = {}) =>
    h.executor(config, 'mw', {
      ...(grpc && {
        maestro: maestroTransports(
          { insecure: true },
          { baseUrl: h.maestro.url, sourceId: MAESTRO_SOURCE, grpcServerAddress: h.maestro.grpcAddress },
        ),
      }),
      ...deps,
    });
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(PUT, { status: 201, body: {} });
  });
  afterEach(() => h.close());

  const cluster = (generation: number, deleting: boolean) =>
    h.api.on(GET, { status: 200, body: { id: ID, generation, ...(deleting && { deleted_time: '2026-03-25T09:00:00Z' }) } });
  const report = () => h.api.requests('PUT').at(-1)?.body;
  const ops = (r: ExecutionResult) => r.operations.map((o) => `${o.operation} ${o.kind}/${o.name}@${o.consumer}`);

  it('applies the ManifestWork, promotes nested manifests with status feedback, deletes asynchronously, then Finalized', async () => {
    const executor = await mw(CONFIG);
    cluster(1, false);
    const created = await executor.execute(event);
    expect(ops(created)).toEqual(['create ManifestWork/work-c7@cluster1']);
    expect(created.kubeCalls.every((c) => c.via === 'maestro:cluster1')).toBe(true);
    await h.maestro.settle();
    h.maestro.setStatusFeedback(MAESTRO_SOURCE, 'cluster1', 'work-c7', { kind: 'Namespace', name: 'ns-c7' }, [
      { name: 'phase', fieldValue: { type: 'String', string: 'Active' } },
    ]);

    const steady = await executor.execute(event);
    expect(ops(steady)).toEqual(['skip ManifestWork/work-c7@cluster1']);
    expect(report()).toEqual({ phase: 'Active', nested: [true, true], finalized: 'False', observed_generation: 1 });

    cluster(2, false);
    const updated = await executor.execute(event);
    expect(updated.operations[0]).toMatchObject({ operation: 'update', reason: 'generation changed 1->2' });
    expect(h.maestro.peek(MAESTRO_SOURCE, 'cluster1', 'work-c7')?.version).toBe(2);

    // Deleting: Maestro keeps the work until its agent confirms; nested objects stay visible.
    cluster(3, true);
    h.maestro.pauseAgent();
    const pending = await executor.execute(event);
    expect(pending.operations[0]).toMatchObject({ operation: 'wait', kind: 'ManifestWork', name: 'work-c7' });
    expect(pending.status).toBe('success');
    expect(report()).toMatchObject({ nested: [true, true], finalized: 'False', observed_generation: 3 });
    h.maestro.resumeAgent();
    await h.maestro.settle();

    const gone = await executor.execute(event);
    expect(gone.operations[0]).toMatchObject({ operation: 'delete', reason: 'already gone (not found)' });
    expect(report()).toEqual({ phase: '', nested: [false, false], finalized: 'True', observed_generation: 3 });
    expect(h.maestro.requests.filter((r) => r.action).map((r) => `${r.method} ${r.action}`)).toEqual(
      ['create_request', 'update_request'].map((a) => `${grpc ? 'GRPC' : 'POST'} ${a}`),
    );
    expect(h.maestro.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('deletion_policy Orphan: the work is left in place with its marks removed and no DELETE reaches Maestro', async () => {
    const executor = await mw(CONFIG);
    cluster(1, false);
    await executor.execute(event);
    expect(h.maestro.peek(MAESTRO_SOURCE, 'cluster1', 'work-c7')?.metadata).toMatchObject({
      annotations: { 'decom.io/owner': `Cluster/${ID}/mw` },
    });
    h.api.on(GET, { status: 200, body: { id: ID, generation: 2, deleted_time: '2026-03-25T09:00:00Z', deletion_policy: 'Orphan' } });
    const orphaned = await executor.execute(event);
    expect(orphaned.operations[0]).toMatchObject({ operation: 'orphan', kind: 'ManifestWork', consumer: 'cluster1' });
    expect(h.maestro.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    const kept = h.maestro.peek(MAESTRO_SOURCE, 'cluster1', 'work-c7')?.metadata as {
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    };
    expect(kept.annotations?.['decom.io/owner']).toBeUndefined();
    expect(kept.labels?.['hyperfleet.io/cluster-id']).toBeUndefined();
    expect(report()).toMatchObject({ finalized: 'True', nested: [false, false] });
  });

  it('a Maestro error during discovery fails the phase: nothing is deleted and Finalized stays False', async () => {
    const executor = await mw(CONFIG);
    cluster(1, false);
    await executor.execute(event);
    cluster(2, true);
    h.maestro.faults.add({ method: 'GET', path: '/resource-bundles', status: 503, reason: 'maintenance' });
    const result = await executor.execute(event);
    expect(result.adapter).toMatchObject({
      executionStatus: 'failed',
      errorReason: 'ResourceFailed',
      executionError: { phase: 'resources', step: 'work' },
    });
    expect(result.adapter.errorMessage).toContain('503');
    expect(h.maestro.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(report()).toMatchObject({ finalized: 'False' });
  });

  it('a work without generation annotations is refused before sending; without a Maestro client the resource fails', async () => {
    cluster(1, false);
    const noAnnotation = CONFIG.replace("        annotations: {hyperfleet.io/generation: '{{ .generation }}'}\n      spec:", '      spec:');
    const refused = await (await mw(noAnnotation)).execute(event);
    expect(refused.adapter.errorMessage).toContain('ManifestWork "work-c7": missing hyperfleet.io/generation annotation');
    expect(h.maestro.requests.filter((r) => r.action)).toEqual([]);

    const unconfigured = await (await mw(CONFIG, { maestro: undefined })).execute(event);
    expect(unconfigured.adapter).toMatchObject({ executionStatus: 'failed', errorReason: 'ResourceFailed' });
    expect(unconfigured.adapter.errorMessage).toContain('maestro transport is not configured');
  });
});
