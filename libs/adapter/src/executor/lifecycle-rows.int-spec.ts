import { ExecutorHarness, ownedBy } from '../testing/executor-harness.js';

/**
 * The remaining rows of the contract's executor tables (§2.5, §2.6, §6 items 12-17) not pinned
 * elsewhere, against the local Kubernetes API server and a recorded-response API over HTTP.
 */
const ID = 'c1';
const GET = `GET /api/hyperfleet/v1/clusters/${ID}`;
const PUT = `PUT /api/hyperfleet/v1/clusters/${ID}/statuses`;
const event = { id: ID, kind: 'Cluster' };

/** Parent namespace-scoped object `parent` whose delete waits on `child`; both deleted when `deleting`. */
const ORDERED = (policy: string) => `
params:
  - {name: deleting, source: event.deleting, type: bool, default: false}
resources:
  - name: parent
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: parent, namespace: default}}
    discovery: {by_name: parent, namespace: default}
    lifecycle:
      delete:
        propagationPolicy: ${policy}
        when: {expression: 'deleting && !resources.?child.hasValue()'}
  - name: child
    manifest: {apiVersion: v1, kind: Secret, metadata: {name: child, namespace: default}}
    discovery: {by_name: child, namespace: default}
    lifecycle:
      delete:
        when: {expression: deleting}
`;

describe('executor rows: delete path, discovery and lifecycle.create', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(PUT, { status: 201, body: {} });
  });
  afterEach(() => h.close());

  it('#12 a child without finalizers is gone after its DELETE: the parent that waits on it goes in the same pass', async () => {
    h.kube.seed(ownedBy({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'parent', namespace: 'default' } }, event, 'x'));
    h.kube.seed(ownedBy({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'child', namespace: 'default' } }, event, 'x'));
    // The parent comes first in the list: its when sees the pre-discovered child and stays false,
    // so the parent only goes on the next pass (order comes from the expressions, not the list).
    const executor = await h.executor(ORDERED('Orphan'), 'x');
    const first = await executor.execute({ ...event, deleting: true });
    expect(first.operations.map((o) => `${o.resource}:${o.operation}`)).toEqual(['parent:skip', 'child:delete']);
    const second = await executor.execute({ ...event, deleting: true });
    const ops = second.operations.map((o) => `${o.resource}:${o.operation}`);
    // Orphan: the server marks the parent (orphan finalizer) and its garbage collector removes it a
    // controller pass later, so the re-discovery right after the DELETE sees it gone or still there.
    expect([
      ['parent:delete', 'child:delete'],
      ['parent:wait', 'child:delete'],
    ]).toContainEqual(ops);
    await h.kube.settle();
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'parent')).toBeUndefined();
    expect(h.kube.requestsMatching({ method: 'DELETE', kind: 'ConfigMap' })[0]?.query.propagationPolicy).toBe('Orphan');
    expect(h.kube.requestsMatching({ method: 'DELETE', kind: 'Secret' })[0]?.query.propagationPolicy).toBe('Background');
  });

  it('#12 a child held by a finalizer stays present after its DELETE: dependents wait; it is gone once the finalizer is removed', async () => {
    const config = ORDERED('Foreground').replace(/(  - name: parent[\s\S]*?)(  - name: child[\s\S]*)$/, '$2$1');
    h.kube.seed(ownedBy({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'parent', namespace: 'default' } }, event, 'x'));
    h.kube.seed(
      ownedBy(
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'child', namespace: 'default', finalizers: ['example.com/hold'] } },
        event,
        'x',
      ),
    );
    const executor = await h.executor(config, 'x');
    const held = await executor.execute({ ...event, deleting: true });
    expect(held.operations.map((o) => `${o.resource}:${o.operation}`)).toEqual(['child:wait', 'parent:skip']);
    expect(held.status).toBe('success');
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'parent')).toBeDefined();
    h.kube.removeFinalizer('v1', 'Secret', 'default', 'child');
    const released = await executor.execute({ ...event, deleting: true });
    const ops = released.operations.map((o) => `${o.resource}:${o.operation}:${o.reason}`);
    expect(ops[0]).toBe('child:delete:already gone (not found)');
    // Foreground: the server marks the parent (foregroundDeletion finalizer) and its garbage collector removes
    // it a moment later, so the re-discovery right after the DELETE sees it gone or still terminating.
    expect([
      'parent:delete:deleted (propagationPolicy=Foreground)',
      'parent:wait:delete requested (propagationPolicy=Foreground); object still present',
    ]).toContain(ops[1]);
    await h.kube.settle();
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'parent')).toBeUndefined();
    expect(h.kube.requestsMatching({ method: 'DELETE', kind: 'ConfigMap' })[0]?.query.propagationPolicy).toBe('Foreground');
  });

  it('#16 selector discovery deletes the highest hyperfleet.io/generation match', async () => {
    const labels = { 'hyperfleet.io/cluster-id': ID };
    for (const [name, gen] of [
      ['job-gen1', '1'],
      ['job-gen3', '3'],
      ['job-gen2', '2'],
    ] as const) {
      h.kube.seed(
        ownedBy(
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name, namespace: 'default', labels, annotations: { 'hyperfleet.io/generation': gen } },
          },
          event,
          'x',
        ),
      );
    }
    const config = `
resources:
  - name: job
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: 'job-gen4', namespace: default, labels: {hyperfleet.io/cluster-id: '${ID}'}}}
    discovery:
      namespace: default
      by_selectors: {label_selector: {hyperfleet.io/cluster-id: '{{ .event.id }}'}}
    lifecycle:
      delete: {when: {expression: 'true'}}
`;
    const executor = await h.executor(config, 'x');
    const first = await executor.execute(event);
    expect(first.operations[0]).toMatchObject({
      operation: 'delete',
      name: 'job-gen3',
      reason: 'deleted (propagationPolicy=Background); job-gen2 still matches the discovery',
    });
    expect((await executor.execute(event)).operations[0]).toMatchObject({ operation: 'delete', name: 'job-gen2' });
    expect(h.deletedKinds()).toEqual(['ConfigMap/job-gen3', 'ConfigMap/job-gen2']);
  });

  it('#17 lifecycle.create.when is ignored for an object that already exists (it is applied normally)', async () => {
    h.kube.seed(
      ownedBy(
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'optional', namespace: 'default', annotations: { 'hyperfleet.io/generation': '1' } },
        },
        event,
        'x',
      ),
    );
    const config = `
resources:
  - name: optional
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: optional, namespace: default, annotations: {hyperfleet.io/generation: '2'}}, data: {v: '2'}}
    discovery: {by_name: optional, namespace: default}
    lifecycle:
      create: {when: {expression: 'false'}}
`;
    const result = await (await h.executor(config, 'x')).execute(event);
    expect(result.adapter.resourcesSkipped).toBe(false);
    expect(result.operations[0]).toMatchObject({ operation: 'update', reason: 'generation changed 1->2' });
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'optional')?.data).toEqual({ v: '2' });
  });

  it('§2.5 precondition error: a response that is not a JSON object is PreconditionFailed (resources skipped, post runs)', async () => {
    h.api.on(GET, { status: 200, body: 'plain text' });
    const config = `
preconditions:
  - name: cluster
    api_call: {method: GET, url: '/clusters/{{ .event.id }}'}
post:
  payloads:
    - name: report
      build: {errorReason: {expression: adapter.errorReason}, skipped: {expression: adapter.resourcesSkipped}}
  post_actions:
    - name: put
      api_call: {method: PUT, url: '/clusters/{{ .event.id }}/statuses', body: '{{ .report }}'}
`;
    const result = await (await h.executor(config, 'x')).execute(event);
    expect(result.adapter).toMatchObject({
      executionStatus: 'failed',
      errorReason: 'PreconditionFailed',
      executionError: { phase: 'preconditions', step: 'cluster' },
    });
    expect(h.api.requests('PUT')[0]?.body).toEqual({ errorReason: 'PreconditionFailed', skipped: true });
  });

  it('Decom: Finalized=True is only reported after a complete, successful pass (a careless expression is overridden)', async () => {
    const config = `
resources:
  - name: cm
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: default}}
    discovery: {by_name: cm, namespace: default}
    lifecycle:
      delete: {when: {expression: 'true'}}
post:
  payloads:
    - name: report
      build:
        conditions:
          - type: Finalized
            # Forgets adapter.executionStatus: a failed discovery would look like "absent".
            status: {expression: '!resources.?cm.hasValue() ? "True" : "False"'}
            reason: CleanupConfirmed
  post_actions:
    - name: put
      api_call: {method: PUT, url: '/clusters/{{ .event.id }}/statuses', body: '{{ .report }}'}
`;
    const executor = await h.executor(config, 'x');
    h.kube.faults.add({ method: 'GET', kind: 'ConfigMap', status: 500, message: 'etcd timeout', times: 1 });
    const failed = await executor.execute(event);
    expect(failed.status).toBe('failed');
    expect(h.api.requests('PUT')[0]?.body).toEqual({
      conditions: [
        {
          type: 'Finalized',
          status: 'False',
          reason: 'IncompletePass',
          message: expect.stringContaining('Finalized withheld: execution failed (ResourceFailed'),
        },
      ],
    });
    expect(failed.logs.map((l) => l.level)).toEqual(['warning']);
    await executor.execute(event);
    expect(h.api.requests('PUT')[1]?.body).toEqual({ conditions: [{ type: 'Finalized', status: 'True', reason: 'CleanupConfirmed' }] });
  });
});
