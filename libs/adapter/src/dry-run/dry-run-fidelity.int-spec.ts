/**
 * Dry-run fidelity with HyperFleet's dry-run: its Kubernetes client removes a deleted object at once, so a
 * Namespace delete confirms cleanup in the same run; its recording client labels an apply `create` or
 * `update` (no generation comparison) and every requested DELETE `delete` (a Maestro work too); a render
 * failure stops after applying the resources before it; Decom's ownership annotation is not visible to CEL.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDryRun } from './dry-run.js';

const ID = 'c1';
const TASK = `
params:
  - {name: clusterId, required: true, source: event.id}
  - {name: deleting, source: event.deleting, type: bool, default: false}
resources:
  - name: ns
    manifest: {apiVersion: v1, kind: Namespace, metadata: {name: '{{ .clusterId }}', annotations: {team: a}}}
    discovery: {by_name: '{{ .clusterId }}'}
    lifecycle:
      delete:
        when: {expression: deleting}
post:
  payloads:
    - name: report
      build:
        finalized: {expression: 'deleting && adapter.executionStatus == "success" && !resources.?ns.hasValue() ? "True" : "False"'}
        annotations: {expression: 'resources.?ns.metadata.annotations.orValue({})'}
  post_actions:
    - name: put
      api_call: {method: PUT, url: '/clusters/{{ .clusterId }}/statuses', body: '{{ .report }}'}
`;

const MAESTRO_TASK = `
params:
  - {name: clusterId, required: true, source: event.id}
  - {name: deleting, source: event.deleting, type: bool, default: false}
resources:
  - name: work
    transport: {client: maestro, maestro: {target_cluster: consumer1}}
    manifest:
      apiVersion: work.open-cluster-management.io/v1
      kind: ManifestWork
      metadata: {name: 'work-{{ .clusterId }}', annotations: {hyperfleet.io/generation: '1'}}
      spec:
        workload:
          manifests:
            - {apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: default, annotations: {hyperfleet.io/generation: '1'}}}
    discovery: {by_name: 'work-{{ .clusterId }}'}
    lifecycle:
      delete:
        when: {expression: deleting}
`;

/** Four resources; the third cannot render (its Maestro consumer is empty). `lifecycle` adds a delete.when to the first. */
const renderFailureTask = (lifecycle: boolean) => `
params:
  - {name: clusterId, required: true, source: event.id}
  - {name: consumer, source: event.consumer, default: ''}
resources:
  - name: ns
    manifest: {apiVersion: v1, kind: Namespace, metadata: {name: '{{ .clusterId }}'}}
    discovery: {by_name: '{{ .clusterId }}'}${lifecycle ? '\n    lifecycle: {delete: {when: {expression: "false"}}}' : ''}
  - name: cm
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: settings, namespace: '{{ .clusterId }}'}}
    discovery: {by_name: settings, namespace: '{{ .clusterId }}'}
  - name: work
    transport: {client: maestro, maestro: {target_cluster: '{{ .consumer }}'}}
    manifest: {apiVersion: work.open-cluster-management.io/v1, kind: ManifestWork, metadata: {name: 'work-{{ .clusterId }}'}, spec: {workload: {manifests: []}}}
    discovery: {by_name: 'work-{{ .clusterId }}'}
  - name: last
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: last, namespace: '{{ .clusterId }}'}}
    discovery: {by_name: last, namespace: '{{ .clusterId }}'}
`;

function files(event: Record<string, unknown>, discovery: Record<string, unknown>, task = TASK) {
  const dir = mkdtempSync(join(tmpdir(), 'decom-dry-run-fidelity-'));
  const write = (name: string, body: unknown) => (
    writeFileSync(join(dir, name), typeof body === 'string' ? body : JSON.stringify(body)),
    join(dir, name)
  );
  return {
    taskConfigFile: write('cl-namespace.yaml', task),
    eventFile: write('event.json', {
      specversion: '1.0',
      id: 'e1',
      type: 'com.redhat.hyperfleet.cluster.reconcile',
      source: 't',
      data: { id: ID, kind: 'Cluster', generation: 2, ...event },
    }),
    apiResponsesFile: write('api.json', {
      responses: [{ match: { method: 'PUT', urlPattern: `/clusters/${ID}/statuses$` }, responses: [{ statusCode: 201, body: {} }] }],
    }),
    discoveryFile: write('discovery.json', discovery),
  };
}

describe('dry run as HyperFleet runs it', () => {
  it('a Namespace delete is gone at once, even with finalizers: Finalized=True in the same run', async () => {
    const report = await runDryRun(
      files({ deleting: true }, { [ID]: { apiVersion: 'v1', kind: 'Namespace', metadata: { finalizers: ['kubernetes'] } } }),
    );
    expect(report.result.operations).toEqual([expect.objectContaining({ resource: 'ns', operation: 'delete' })]);
    expect(report.kubernetesCalls.find((c) => c.verb === 'delete')?.outcome).toBe('deleted');
    expect(report.statusReports[0]?.body).toMatchObject({ finalized: 'True' });
  });

  it('CEL does not see the ownership annotation Decom puts on applied objects', async () => {
    const report = await runDryRun(files({}, {}));
    expect(report.result.operations).toEqual([expect.objectContaining({ resource: 'ns', operation: 'create' })]);
    const created = report.kubernetesCalls.find((c) => c.verb === 'create');
    expect(Object.keys(created?.object?.metadata.annotations ?? {})).toContain('decom.io/owner');
    expect(report.statusReports[0]?.body).toMatchObject({ finalized: 'False', annotations: { team: 'a' } });
    expect((report.statusReports[0]?.body as { annotations: Record<string, string> }).annotations['decom.io/owner']).toBeUndefined();
  });

  it('an object already present is updated, not skipped, whatever its generation (the recording client compares none)', async () => {
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ID, annotations: { team: 'a' } } };
    const report = await runDryRun(files({}, { [ID]: namespace }));
    expect(report.result.operations).toEqual([expect.objectContaining({ resource: 'ns', operation: 'update' })]);
    expect(report.kubernetesCalls.filter((c) => c.verb !== 'get' && c.verb !== 'discover').map((c) => `${c.verb} ${c.kind}`)).toEqual([
      'replace Namespace',
    ]);
  });

  it('a Maestro work asked to be deleted is labelled delete (Maestro still confirms it later)', async () => {
    const work = {
      apiVersion: 'work.open-cluster-management.io/v1',
      kind: 'ManifestWork',
      metadata: { name: `work-${ID}`, namespace: 'consumer1', annotations: { 'hyperfleet.io/generation': '1' } },
      spec: {},
    };
    const report = await runDryRun(files({ deleting: true }, { [`work-${ID}`]: work }, MAESTRO_TASK));
    expect(report.kubernetesCalls.filter((c) => c.verb === 'delete').map((c) => `${c.kind} ${c.name} ${c.via}`)).toEqual([
      `ManifestWork work-${ID} maestro:consumer1`,
    ]);
    expect(report.result.operations).toEqual([expect.objectContaining({ resource: 'work', operation: 'delete', kind: 'ManifestWork' })]);
  });

  it('a render failure applies the resources listed before it, in order, then stops the phase (ExecuteAll)', async () => {
    const report = await runDryRun(files({}, {}, renderFailureTask(false)));
    expect(report.result.operations.map((o) => `${o.operation} ${o.resource}`)).toEqual(['create ns', 'create cm']);
    expect(report.kubernetesCalls.filter((c) => c.verb === 'create').map((c) => c.name)).toEqual([ID, 'settings']);
    expect(report.result.phases.find((p) => p.phase === 'resources')).toMatchObject({
      status: 'failed',
      detail: expect.stringMatching(/^work: render failed: .*target_cluster rendered empty/),
    });
    expect(report.result.adapter).toMatchObject({
      executionStatus: 'failed',
      errorReason: 'ResourceFailed',
      executionError: { phase: 'resources', step: 'work' },
    });
  });

  it('with a lifecycle, a render failure applies nothing: a when could read the sibling that was never discovered', async () => {
    const report = await runDryRun(files({}, {}, renderFailureTask(true)));
    expect(report.result.operations).toEqual([]);
    expect(report.kubernetesCalls.filter((c) => c.verb === 'create')).toEqual([]);
    expect(report.result.adapter).toMatchObject({ executionStatus: 'failed', executionError: { phase: 'resources', step: 'work' } });
  });
});
