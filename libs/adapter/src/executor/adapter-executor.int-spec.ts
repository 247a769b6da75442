import { ExecutorHarness, ownedBy } from '../testing/executor-harness.js';

/**
 * Executor semantics (HyperFleet: hyperfleet-adapter internal/executor/resource_executor.go) and Decom's safer
 * rules, against the local Kubernetes API server and a recorded-response HyperFleet API server over HTTP.
 */
const ID = 'c1';
const GET = `GET /api/hyperfleet/v1/clusters/${ID}`;
const PUT = `PUT /api/hyperfleet/v1/clusters/${ID}/statuses`;
const AUDIT = 'POST /api/hyperfleet/v1/audit';
const event = { id: ID, kind: 'Cluster' };

/** Reports the adapter metadata it sees, so each row of HyperFleet's outcome table is visible in the PUT body. */
const TABLE_CONFIG = `
params:
  - name: clusterId
    required: true
    source: event.id
preconditions:
  - name: cluster
    api_call:
      method: GET
      url: /clusters/{{ .clusterId }}
    capture:
      - name: generation
        field: generation
    conditions:
      - field: phase
        operator: equals
        value: Ready
resources:
  - name: cm
    manifest:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: 'cm-{{ .clusterId }}'
        namespace: default
    discovery:
      by_name: 'cm-{{ .clusterId }}'
      namespace: default
post:
  payloads:
    - name: report
      build:
        adapter: '{{ .adapter.name }}'
        executionStatus: {expression: adapter.executionStatus}
        resourcesSkipped: {expression: adapter.resourcesSkipped}
        skipReason: {expression: adapter.skipReason}
        errorReason: {expression: adapter.errorReason}
        observed_generation: {expression: generation, default: 0}
  post_actions:
    - name: putStatus
      api_call:
        method: PUT
        url: /clusters/{{ .clusterId }}/statuses
        body: '{{ .report }}'
    - name: audit
      api_call:
        method: POST
        url: /audit
        body: '{"cluster": "{{ .clusterId }}"}'
`;

describe("AdapterExecutor: HyperFleet's outcome table", () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(PUT, { status: 201, body: {} }).on(AUDIT, { status: 201, body: {} });
  });
  afterEach(() => h.close());

  const ready = () => h.api.on(GET, { status: 200, body: { id: ID, generation: 4, phase: 'Ready' } });
  const kubeVerbs = () => h.kube.requests.filter((r) => r.verb !== undefined).map((r) => `${r.verb} ${r.kind}`);

  it('param extraction error: failed/ParameterExtractionFailed, returns at once (no API call, no post)', async () => {
    const result = await (await h.executor(TABLE_CONFIG, 'table')).execute({ kind: 'Cluster' } as never);
    expect(result.adapter).toMatchObject({
      executionStatus: 'failed',
      errorReason: 'ParameterExtractionFailed',
      executionError: { phase: 'param_extraction', step: 'clusterId', message: 'param "clusterId": no value (required)' },
    });
    expect(result.phases.map((p) => p.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped']);
    expect(h.api.received).toEqual([]);
  });

  it('precondition 404: success, resourcesSkipped/ResourceNotFound, returns at once (no PUT)', async () => {
    h.api.on(GET, { status: 404, body: { code: 'HYPERFLEET-NTF-001' } });
    const result = await (await h.executor(TABLE_CONFIG, 'table')).execute(event);
    expect(result.adapter).toMatchObject({ executionStatus: 'success', resourcesSkipped: true, skipReason: 'ResourceNotFound' });
    expect(h.api.requests('PUT')).toEqual([]);
  });

  it('precondition error (API 500, or NTF-000 = wrong URL): failed/PreconditionFailed, resources skipped, post runs', async () => {
    h.api.on(GET, { status: 500, body: { detail: 'db down' } });
    const result = await (await h.executor(TABLE_CONFIG, 'table')).execute(event);
    expect(result.adapter).toMatchObject({ executionStatus: 'failed', errorReason: 'PreconditionFailed', resourcesSkipped: true });
    expect(result.adapter.skipReason).toContain('returned 500: db down');
    expect(h.api.requests('PUT', `/api/hyperfleet/v1/clusters/${ID}/statuses`)[0]?.body).toMatchObject({
      executionStatus: 'failed',
      errorReason: 'PreconditionFailed',
      observed_generation: 0,
    });
    expect(kubeVerbs()).toEqual([]);

    const noRoute = await (
      await h.executor(TABLE_CONFIG.replace('url: /clusters/{{ .clusterId }}\n', 'url: /clusterz/{{ .clusterId }}\n'), 'table')
    ).execute(event);
    expect(noRoute.adapter).toMatchObject({ executionStatus: 'failed', errorReason: 'PreconditionFailed' });
    expect(noRoute.adapter.errorMessage).toContain('no such endpoint');
  });

  it('precondition not met: success, resources skipped with the reason, post runs', async () => {
    h.api.on(GET, { status: 200, body: { id: ID, generation: 4, phase: 'Provisioning' } });
    const result = await (await h.executor(TABLE_CONFIG, 'table')).execute(event);
    expect(result.adapter).toMatchObject({
      executionStatus: 'success',
      resourcesSkipped: true,
      skipReason: `precondition 'cluster' not met: phase equals "Ready" (got "Provisioning")`,
    });
    expect(h.api.requests('PUT')[0]?.body).toMatchObject({ executionStatus: 'success', resourcesSkipped: true, observed_generation: 4 });
    expect(kubeVerbs()).toEqual([]);
  });

  it('resource phase error (create forbidden): failed/ResourceFailed, post runs', async () => {
    ready();
    h.kube.faults.add({ method: 'POST', kind: 'ConfigMap', status: 403, reason: 'Forbidden', message: 'no create' });
    const result = await (await h.executor(TABLE_CONFIG, 'table')).execute(event);
    expect(result.adapter).toMatchObject({
      executionStatus: 'failed',
      errorReason: 'ResourceFailed',
      executionError: { phase: 'resources', step: 'cm' },
    });
    expect(h.api.requests('PUT')[0]?.body).toMatchObject({ executionStatus: 'failed', errorReason: 'ResourceFailed' });
  });

  it('post-action 404: status unchanged, resourcesSkipped/ResourceNotFound, remaining actions skipped', async () => {
    ready();
    h.api.on(PUT, { status: 404, body: { code: 'HYPERFLEET-NTF-001' } });
    const result = await (await h.executor(TABLE_CONFIG, 'table')).execute(event);
    expect(result.adapter).toMatchObject({ executionStatus: 'success', resourcesSkipped: true, skipReason: 'ResourceNotFound' });
    expect(h.api.requests('POST')).toEqual([]);
    expect(result.apiCalls.map((c) => `${c.method} ${c.status}`)).toEqual(['GET 200', 'PUT 404']);
  });

  it('post-action other failure: result failed, remaining actions skipped', async () => {
    ready();
    h.api.on(PUT, { status: 400, body: { code: 'HYPERFLEET-VAL-000', detail: 'missing mandatory condition' } });
    const result = await (await h.executor(TABLE_CONFIG, 'table')).execute(event);
    expect(result.status).toBe('failed');
    expect(result.adapter).toMatchObject({ errorReason: 'PostActionFailed', executionError: { phase: 'post_actions', step: 'putStatus' } });
    expect(h.api.requests('POST')).toEqual([]);
  });

  it('all good: creates, reports, runs every action; records every call', async () => {
    ready();
    const result = await (await h.executor(TABLE_CONFIG, 'table')).execute(event);
    expect(result.status).toBe('success');
    expect(result.operations).toEqual([
      { resource: 'cm', operation: 'create', reason: 'resource not found', kind: 'ConfigMap', name: 'cm-c1', namespace: 'default' },
    ]);
    expect(result.kubeCalls.map((c) => `${c.verb} ${c.outcome}`)).toEqual(['get not-found', 'create ok', 'discover ok cm-c1']);
    expect(result.apiCalls.map((c) => `${c.method} ${c.status}`)).toEqual(['GET 200', 'PUT 201', 'POST 201']);
    expect(result.statusReports).toEqual([
      { adapter: 'table', executionStatus: 'success', resourcesSkipped: false, skipReason: '', errorReason: '', observed_generation: 4 },
      { cluster: 'c1' },
    ]);
  });
});

const LIFECYCLE_CONFIG = (deleteWhen: string, extra = '') => `
params:
  - {name: clusterId, required: true, source: event.id}
  - {name: deleting, source: event.deleting, type: bool, default: false}
resources:
  - name: first
    manifest:
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: first, namespace: default}
    discovery: {by_name: first, namespace: default}
    lifecycle:
      delete:
        when: {expression: '${deleteWhen}'}
${extra}
post:
  payloads:
    - name: report
      build:
        finalized:
          expression: 'adapter.executionStatus == "success" && !resources.?first.hasValue() ? "True" : "False"'
        missing:
          expression: 'int("not a number")'
          default: fallback
  post_actions:
    - name: putStatus
      api_call: {method: PUT, url: '/clusters/{{ .clusterId }}/statuses', body: '{{ .report }}'}
`;

describe('AdapterExecutor: Decom rules beyond HyperFleet', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(PUT, { status: 201, body: {} });
  });
  afterEach(() => h.close());

  it('a delete.when that fails to evaluate blocks the resource: no apply, resource error, failed (HyperFleet would apply)', async () => {
    const result = await (await h.executor(LIFECYCLE_CONFIG('resources.first.metadata.name != \"\"'), 'x')).execute(event);
    expect(result.operations).toEqual([
      expect.objectContaining({
        resource: 'first',
        operation: 'blocked',
        reason: expect.stringContaining('lifecycle.delete.when could not be evaluated'),
      }),
    ]);
    expect(h.kube.requestsMatching({ method: 'POST' })).toEqual([]);
    expect(result.adapter.resourceErrors.first?.message).toContain('lifecycle.delete.when');
    expect(result.status).toBe('failed');
    // The payload still builds: 'missing' falls back to its default.
    expect(h.api.requests('PUT')[0]?.body).toEqual({ finalized: 'False', missing: 'fallback' });
  });

  it('delete errors do not stop later resources', async () => {
    const second = `  - name: second
    manifest:
      apiVersion: v1
      kind: Secret
      metadata: {name: second, namespace: default}
    discovery: {by_name: second, namespace: default}
    lifecycle:
      delete:
        propagationPolicy: Foreground
        when: {expression: 'deleting'}`;
    h.kube.seed(ownedBy({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'first', namespace: 'default' } }, event, 'x'));
    h.kube.seed(ownedBy({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'second', namespace: 'default' } }, event, 'x'));
    h.kube.faults.add({ method: 'DELETE', kind: 'ConfigMap', status: 500, message: 'boom' });
    const result = await (await h.executor(LIFECYCLE_CONFIG('deleting', second), 'x')).execute({ ...event, deleting: true });
    expect(h.deletedKinds()).toEqual(['ConfigMap/first', 'Secret/second']);
    expect(h.kube.requestsMatching({ method: 'DELETE', kind: 'Secret' })[0]?.query.propagationPolicy).toBe('Foreground');
    expect(Object.keys(result.adapter.resourceErrors)).toEqual(['first']);
    expect(result.adapter.executionError?.step).toBe('first');
    expect(h.api.requests('PUT')[0]?.body).toMatchObject({ finalized: 'False' });
  });

  it('a payload value that fails without a default is null and the status is still PUT, the error logged (HyperFleet)', async () => {
    const config = LIFECYCLE_CONFIG('deleting').replace('          default: fallback\n', '');
    const result = await (await h.executor(config, 'x')).execute(event);
    expect(h.api.requests('PUT')[0]?.body).toEqual({ finalized: 'False', missing: null });
    expect(result.status).toBe('success');
    expect(result.adapter.executionError).toBeUndefined();
    expect(result.logs).toContainEqual(
      expect.objectContaining({ level: 'warning', message: expect.stringContaining('post.payloads[0].build.missing') }),
    );
  });

  it('a failed payload field never lets Finalized=True through (the guard withholds it)', async () => {
    const config = `
params:
  - {name: clusterId, required: true, source: event.id}
post:
  payloads:
    - name: report
      build:
        conditions:
          - type: Finalized
            status: {expression: '"True"'}
            reason: {expression: 'int("x") > 0 ? "a" : "b"'}
  post_actions:
    - name: putStatus
      api_call: {method: PUT, url: '/clusters/{{ .clusterId }}/statuses', body: '{{ .report }}'}
`;
    await (await h.executor(config, 'x')).execute(event);
    const sent = h.api.requests('PUT')[0]?.body as { conditions: { type: string; status: string; reason: string; message: string }[] };
    expect(sent.conditions[0]).toMatchObject({ type: 'Finalized', status: 'False', reason: 'IncompletePass' });
    expect(sent.conditions[0]!.message).toContain('a payload field failed to evaluate');
  });

  it('lifecycle.create.when false skips an absent object and marks resourcesSkipped; true creates it', async () => {
    const config = `
params:
  - {name: enabled, source: event.enabled, type: bool, default: false}
resources:
  - name: optional
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: optional, namespace: default}}
    discovery: {by_name: optional, namespace: default}
    lifecycle:
      create:
        when: {expression: enabled}
`;
    const executor = await h.executor(config, 'x');
    const skipped = await executor.execute({ ...event, enabled: 'no' });
    expect(skipped.adapter).toMatchObject({
      resourcesSkipped: true,
      skipReason: 'optional: lifecycle.create.when condition evaluated to false',
    });
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'optional')).toBeUndefined();
    const created = await executor.execute({ ...event, enabled: 'yes' });
    expect(created.operations[0]?.operation).toBe('create');
  });

  it('applies by hyperfleet.io/generation: skip when equal, replace when changed, recreate with recreate_on_change', async () => {
    const config = (recreate: boolean) => `
params:
  - {name: gen, source: event.generation, type: string}
resources:
  - name: cm
    recreate_on_change: ${recreate}
    manifest:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: cm
        namespace: default
        annotations: {hyperfleet.io/generation: '{{ .gen }}'}
      data: {gen: '{{ .gen }}'}
    discovery:
      namespace: default
      by_selectors:
        label_selector: {}
`;
    await expect(h.executor(config(false), 'x')).rejects.toThrow(
      'resources[0].discovery.by_selectors.label_selector: needs at least one label',
    );
    const fixed = (recreate: boolean) =>
      config(recreate)
        .replace('label_selector: {}', 'label_selector: {app: x}')
        .replace('annotations:', 'labels: {app: x}\n        annotations:');
    const update = await h.executor(fixed(false), 'x');
    expect((await update.execute({ ...event, generation: 1 })).operations[0]?.operation).toBe('create');
    expect((await update.execute({ ...event, generation: 1 })).operations[0]).toMatchObject({
      operation: 'skip',
      reason: 'generation 1 unchanged',
    });
    const updated = await update.execute({ ...event, generation: 2 });
    expect(updated.operations[0]).toMatchObject({ operation: 'update', reason: 'generation changed 1->2' });
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'cm')?.data).toEqual({ gen: '2' });
    const uid = (h.kube.peek('v1', 'ConfigMap', 'default', 'cm')?.metadata as { uid: string }).uid;
    const recreated = await (await h.executor(fixed(true), 'x')).execute({ ...event, generation: 3 });
    expect(recreated.operations[0]).toMatchObject({ operation: 'recreate' });
    expect((h.kube.peek('v1', 'ConfigMap', 'default', 'cm')?.metadata as { uid: string }).uid).not.toBe(uid);
  });
});

describe('AdapterExecutor: param extraction', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
  });
  afterEach(() => h.close());

  const PARAMS = (file: string) => `
params:
  - {name: clusterId, source: event.id, required: true}
  - {name: ownerId, source: event.owner_references.id}
  - {name: token, source: env.API_TOKEN, default: none}
  - {name: region, source: config.cloud.region}
  - {name: cluster, source: {api_call: {method: GET, url: '/clusters/{{ .clusterId }}'}}, required: true}
  - {name: nodes, source: cluster.spec.nodes, type: int}
  - {name: ha, source: cluster.spec.ha, type: bool}
  - {name: label, source: {expression: 'clusterId + "-" + string(nodes * 2)'}}
  - {name: secret, source: {file: {path: '${file}'}}}
  - {name: absent, source: event.nothing}
  - {name: fallback, source: event.nothing, default: 7}
post:
  payloads:
    - name: out
      build:
        all: {expression: '[clusterId, token, region, nodes, ha, label, secret, fallback]'}
        owner: {expression: ownerId, default: absent}
  post_actions:
    - name: put
      api_call: {method: PUT, url: '/clusters/{{ .clusterId }}/statuses', body: '{{ .out }}'}
`;

  it('resolves every source kind in order, converting only typed string sources', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'decom-param-')), 'secret.txt');
    writeFileSync(file, '  s3cret \n');
    h.api.on(GET, { status: 200, body: { id: ID, spec: { nodes: '3', ha: 'yes' } } }).on(PUT, { status: 201, body: {} });
    const executor = await h.executor(PARAMS(file), 'x', { config: { cloud: { region: 'eu-1' } } });
    const result = await executor.execute(event);
    expect(result.status).toBe('success');
    expect(h.api.requests('PUT')[0]?.body).toEqual({ all: ['c1', 'none', 'eu-1', 3, true, 'c1-6', 's3cret', 7], owner: 'absent' });
  });

  it('a required api_call param that 404s is ParameterExtractionFailed (no post)', async () => {
    h.api.on(GET, { status: 404, body: { code: 'HYPERFLEET-NTF-001', detail: 'gone' } });
    const result = await (await h.executor(PARAMS('/nonexistent'), 'x')).execute(event);
    expect(result.adapter).toMatchObject({
      executionStatus: 'failed',
      errorReason: 'ParameterExtractionFailed',
      executionError: { step: 'cluster' },
    });
    expect(result.adapter.errorMessage).toContain('returned 404');
    expect(h.api.requests('PUT')).toEqual([]);
  });
});
