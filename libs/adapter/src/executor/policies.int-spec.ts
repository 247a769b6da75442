import { DELETION_WAITS_FOR_UNPAUSE } from '@decom/domain';
import { ExecutorHarness, ownedBy } from '../testing/executor-harness.js';
import { reportingTaskConfig } from '../testing/reporting-task-config.js';
import type { AdapterExecutor } from './adapter-executor.js';
import { MANAGED_BY_LABEL, OWNER_ANNOTATION, OWNER_ID_LABEL } from './ownership.js';

/**
 * Seeds 003/004 on the adapter side, against the local Kubernetes API server over HTTP
 * and a recorded-response API: deletion policy Orphan (with and without a connection), ownership
 * marker, adoption policies with no write on conflict, pause, connection failures.
 */
const ID = '0190b0de-0000-7000-8000-00000000000a';
const NS = ID.toLowerCase();
const GET = `GET /api/hyperfleet/v1/clusters/${ID}`;
const PUT = `PUT /api/hyperfleet/v1/clusters/${ID}/statuses`;
const event = { id: ID, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${ID}`, generation: 1 };
const MARK = `Cluster/${ID}/validation`;

type Condition = { type: string; status: string; reason: string; message: string };
const condition = (report: unknown, type: string) => (report as { conditions: Condition[] }).conditions.find((c) => c.type === type);

/** The cluster as the API shows it: `deleting` sets deleted_time; `paused` adds Paused=True. */
const clusterBody = (o: { deleting?: boolean; policy?: 'Delete' | 'Orphan'; paused?: boolean } = {}) => ({
  id: ID,
  kind: 'Cluster',
  name: 'pol',
  generation: 1,
  deletion_policy: o.policy ?? 'Delete',
  ...(o.deleting && { deleted_time: '2026-03-25T09:59:00Z' }),
  status: { conditions: o.paused ? [{ type: 'Paused', status: 'True', reason: 'Paused', message: 'Paused: INC-9' }] : [] },
});

/** A minimal status-reporting config around `resources` (Finalized=True once they are all absent). */
const config = (resources: string, absent: string) =>
  reportingTaskConfig({
    resources,
    conditions: `          - {type: Applied, status: {expression: 'adapter.executionStatus == "success" ? "True" : "False"'}, reason: Config, message: from config}
          - {type: Available, status: 'True', reason: Config, message: from config}
          - {type: Health, status: {expression: 'adapter.errorReason == "" ? "True" : "False"'}, reason: {expression: 'adapter.errorReason == "" ? "Healthy" : adapter.errorReason'}, message: from config}
          - type: Finalized
            status: {expression: 'deleted_time != null && ${absent} ? "True" : "False"'}
            reason: {expression: 'deleted_time != null && ${absent} ? "CleanupConfirmed" : "NotDone"'}
            message: from config`,
  });

/** A ConfigMap resource; `create` is a `lifecycle.create` body, `policy` a `lifecycle.delete.policy`. */
const configMap = (name: string, o: { create?: string; policy?: string } = {}) => `  - name: ${name}
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: ${name}, namespace: default, labels: {app: demo}}, data: {mode: auto}}
    discovery: {by_name: ${name}, namespace: default}
    lifecycle:
${o.create ? `      create: ${o.create}\n` : ''}      delete: {${o.policy ? `policy: ${o.policy}, ` : ''}when: {expression: 'deleted_time != null'}}`;

describe('adapter side of deletion and adoption policies, ownership, pause (seeds 003, 004)', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(PUT, { status: 201, body: {} });
  });
  afterEach(() => h.close());

  const lastReport = () => h.api.requests('PUT').at(-1)?.body;
  const writes = () => h.kube.requests.filter((r) => r.method !== 'GET');
  /** The shipped seed config, provisioned once while not deleting (Namespace, ConfigMap, Job, all marked ours). */
  async function provisioned(): Promise<AdapterExecutor> {
    const executor = await h.executor('config/adapters/validation.yaml', 'validation', { orphanCallTimeoutMs: 2_000 });
    h.api.on(GET, { status: 200, body: clusterBody() });
    const created = await executor.execute(event);
    expect(created.operations.map((o) => o.operation)).toEqual(['create', 'create', 'create']);
    expect(h.kube.peek('v1', 'Namespace', undefined, NS)?.metadata).toMatchObject({ annotations: { [OWNER_ANNOTATION]: MARK } });
    h.kube.clearRequests();
    return executor;
  }

  it('orphan with the Kubernetes server unreachable: Finalized=True/Orphaned without a connection, objects left in place', async () => {
    const executor = await provisioned();
    await h.kube.stopListening();
    h.api.on(GET, { status: 200, body: clusterBody({ deleting: true, policy: 'Orphan' }) });
    const result = await executor.execute(event);
    expect(result.status).toBe('success');
    expect(result.operations.map((o) => o.operation)).toEqual(['orphan', 'orphan', 'orphan']);
    // One connection attempt; the other objects on the same cluster are not tried again.
    expect(result.kubeCalls.length).toBeLessThanOrEqual(1);
    expect(result.policy.outcomes.map((o) => o.outcome)).toEqual(['OrphanMarksKept', 'OrphanMarksKept', 'OrphanMarksKept']);
    const finalized = condition(lastReport(), 'Finalized');
    expect(finalized).toMatchObject({ status: 'True', reason: 'Orphaned' });
    expect(finalized?.message).toMatch(
      /^Left in place \(deletion_policy Orphan\); ownership marks could not be removed from clusterNamespace, clusterConfigMap, clusterJob \(.*ECONNREFUSED/,
    );
    await h.kube.startListening();
    expect(h.kube.peek('v1', 'Namespace', undefined, NS)).toBeDefined();
    expect(h.kube.peek('v1', 'ConfigMap', NS, `cluster-${ID}-config`)).toBeDefined();
    expect(h.kube.requests).toEqual([]);
  });

  it('orphan with the server reachable: ownership marks removed, objects kept, no DELETE', async () => {
    const executor = await provisioned();
    h.api.on(GET, { status: 200, body: clusterBody({ deleting: true, policy: 'Orphan' }) });
    const result = await executor.execute(event);
    expect(h.kube.requestsMatching({ method: 'DELETE' })).toEqual([]);
    expect(h.kube.requestsMatching({ method: 'PUT' }).map((r) => r.kind)).toEqual(['Namespace', 'ConfigMap', 'Job']);
    const ns = h.kube.peek('v1', 'Namespace', undefined, NS) as {
      metadata: { annotations?: Record<string, string>; labels?: Record<string, string> };
    };
    expect(ns.metadata.annotations?.[OWNER_ANNOTATION]).toBeUndefined();
    expect(Object.keys(ns.metadata.labels ?? {}).filter((k) => k.startsWith('hyperfleet.io/') || k.startsWith('decom.io/'))).toEqual([]);
    expect(h.kube.peek('batch/v1', 'Job', NS, `validation-${ID}-gen1`)).toBeDefined();
    expect(result.operations[0]?.reason).toContain(
      `removed annotation ${OWNER_ANNOTATION}, label ${MANAGED_BY_LABEL}, label ${OWNER_ID_LABEL}, label hyperfleet.io/cluster-id, label hyperfleet.io/managed-by`,
    );
    expect(condition(lastReport(), 'Finalized')).toEqual({
      type: 'Finalized',
      status: 'True',
      reason: 'Orphaned',
      message: `Left in place (deletion_policy Orphan); Decom's ownership marks removed from Namespace ${NS}, ConfigMap ${NS}/cluster-${ID}-config, Job ${NS}/validation-${ID}-gen1`,
    });
    expect(result.policy.overrides).toEqual([
      expect.objectContaining({ payload: 'clusterStatusPayload', type: 'Finalized', status: 'True', reason: 'Orphaned' }),
    ]);
  });

  it('lifecycle.delete.policy Orphan on one object while the resource policy is Delete: that object is kept, the other deleted', async () => {
    const executor = await h.executor(
      config(
        `${configMap('keep', { policy: 'Orphan' })}\n${configMap('drop')}`,
        '!resources.?keep.hasValue() && !resources.?drop.hasValue()',
      ),
      'validation',
    );
    h.api.on(GET, { status: 200, body: clusterBody() });
    await executor.execute(event);
    h.api.on(GET, { status: 200, body: clusterBody({ deleting: true }) });
    const result = await executor.execute(event);
    expect(result.operations.map((o) => `${o.resource}:${o.operation}`)).toEqual(['keep:orphan', 'drop:delete']);
    expect(h.deletedKinds()).toEqual(['ConfigMap/drop']);
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'keep')).toBeDefined();
    expect(condition(lastReport(), 'Finalized')).toMatchObject({ status: 'True', reason: 'CleanupConfirmed' });
  });

  it('AdoptIfMatching with one differing field: Applied=False/AdoptionConflict naming it, and no write at all', async () => {
    h.kube.seed({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shared', namespace: 'default', labels: { app: 'demo' } },
      data: { mode: 'manual', extra: 'theirs' },
    });
    const executor = await h.executor(
      config(configMap('shared', { create: '{adoptionPolicy: AdoptIfMatching}' }), '!resources.?shared.hasValue()'),
      'validation',
    );
    h.api.on(GET, { status: 200, body: clusterBody() });
    h.kube.clearRequests();
    const result = await executor.execute(event);
    expect(writes()).toEqual([]);
    expect(condition(lastReport(), 'Applied')).toEqual({
      type: 'Applied',
      status: 'False',
      reason: 'AdoptionConflict',
      message:
        "ConfigMap default/shared exists, is not Decom's and differs from the manifest in data.mode (adoptionPolicy AdoptIfMatching): nothing written",
    });
    expect(result.policy.outcomes).toEqual([expect.objectContaining({ outcome: 'AdoptionConflict', differences: ['data.mode'] })]);
    expect(result.adapter).toMatchObject({ executionStatus: 'failed', errorReason: 'AdoptionConflict' });
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'shared')?.data).toEqual({ mode: 'manual', extra: 'theirs' });
  });

  it('AdoptIfMatching with every field matching: adopted with one write (marker added, its other fields kept)', async () => {
    h.kube.seed({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shared', namespace: 'default', labels: { app: 'demo', team: 'x' } },
      data: { mode: 'auto', extra: 'theirs' },
    });
    const executor = await h.executor(
      config(configMap('shared', { create: '{adoptionPolicy: AdoptIfMatching}' }), '!resources.?shared.hasValue()'),
      'validation',
    );
    h.api.on(GET, { status: 200, body: clusterBody() });
    h.kube.clearRequests();
    const result = await executor.execute(event);
    expect(writes().map((r) => `${r.method} ${r.name}`)).toEqual(['PUT shared']);
    expect(result.operations[0]).toMatchObject({ operation: 'adopt', reason: 'adopted: every field the manifest sets already matches' });
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'shared')).toMatchObject({
      metadata: { annotations: { [OWNER_ANNOTATION]: MARK } },
      data: { mode: 'auto', extra: 'theirs' },
    });
    expect(condition(lastReport(), 'Applied')).toMatchObject({ status: 'True' });
  });

  it('AdoptIfMatching on a Secret written with stringData: compared on the base64 data the server stored, adopted', async () => {
    // A real API server turns stringData into data and never returns it (the server here does the same).
    h.kube.seed({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pull', namespace: 'default' },
      type: 'Opaque',
      stringData: { token: 's3cret' },
    });
    expect(h.kube.peek('v1', 'Secret', 'default', 'pull')).toMatchObject({ data: { token: Buffer.from('s3cret').toString('base64') } });
    expect(h.kube.peek('v1', 'Secret', 'default', 'pull')).not.toHaveProperty('stringData');
    const secret = `  - name: pull
    manifest: {apiVersion: v1, kind: Secret, metadata: {name: pull, namespace: default}, type: Opaque, stringData: {token: s3cret}}
    discovery: {by_name: pull, namespace: default}
    lifecycle:
      create: {adoptionPolicy: AdoptIfMatching}
      delete: {when: {expression: 'deleted_time != null'}}`;
    const executor = await h.executor(config(secret, '!resources.?pull.hasValue()'), 'validation');
    h.api.on(GET, { status: 200, body: clusterBody() });
    const result = await executor.execute(event);
    expect(result.policy.outcomes).toEqual([expect.objectContaining({ outcome: 'Adopted' })]);
    expect(condition(lastReport(), 'Applied')).toMatchObject({ status: 'True' });
  });

  it('FailIfExists: Applied=False/AlreadyExists and no write', async () => {
    h.kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', namespace: 'default' }, data: { mode: 'auto' } });
    const executor = await h.executor(
      config(configMap('shared', { create: '{adoptionPolicy: FailIfExists}' }), '!resources.?shared.hasValue()'),
      'validation',
    );
    h.api.on(GET, { status: 200, body: clusterBody() });
    h.kube.clearRequests();
    await executor.execute(event);
    expect(writes()).toEqual([]);
    expect(condition(lastReport(), 'Applied')).toMatchObject({
      status: 'False',
      reason: 'AlreadyExists',
      message: "ConfigMap default/shared already exists and is not Decom's (adoptionPolicy FailIfExists): nothing written",
    });
  });

  it('a pre-existing object is never deleted, whatever discovery matched; it does not block Finalized', async () => {
    // Someone else's ConfigMap matches the label selector, and another one has our manifest's name.
    h.kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'theirs', namespace: 'default', labels: { app: 'demo' } } });
    h.kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'named', namespace: 'default' } });
    const bySelector = `  - name: selected
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: ours, namespace: default, labels: {app: demo}}}
    discovery: {namespace: default, by_selectors: {label_selector: {app: demo}}}
    lifecycle:
      delete: {when: {expression: 'deleted_time != null'}}`;
    const executor = await h.executor(
      config(`${bySelector}\n${configMap('named')}`, '!resources.?selected.hasValue() && !resources.?named.hasValue()'),
      'validation',
    );
    h.api.on(GET, { status: 200, body: clusterBody({ deleting: true }) });
    h.kube.clearRequests();
    const result = await executor.execute(event);
    expect(h.kube.requestsMatching({ method: 'DELETE' })).toEqual([]);
    expect(writes()).toEqual([]);
    expect(result.operations.map((o) => `${o.operation} ${o.name}`)).toEqual(['foreign theirs', 'foreign named']);
    expect(result.policy.outcomes.map((o) => o.outcome)).toEqual(['NotOwned', 'NotOwned']);
    expect(condition(lastReport(), 'Finalized')).toEqual({
      type: 'Finalized',
      status: 'True',
      reason: 'CleanupConfirmed',
      message: "from config; left in place, not Decom's: ConfigMap default/theirs, ConfigMap default/named",
    });
    expect(h.kube.peek('v1', 'ConfigMap', 'default', 'theirs')).toBeDefined();
  });

  it('pause during a deletion holds everything (no Kubernetes call, no DELETE) until unpause', async () => {
    const executor = await provisioned();
    h.api.on(GET, { status: 200, body: clusterBody({ deleting: true, paused: true }) });
    for (let pass = 0; pass < 2; pass++) {
      const held = await executor.execute(event);
      expect(held.kubeCalls).toEqual([]);
      expect(condition(lastReport(), 'Finalized')).toEqual({
        type: 'Finalized',
        status: 'False',
        reason: 'DeletionPaused',
        message: DELETION_WAITS_FOR_UNPAUSE,
      });
    }
    expect(h.kube.requests).toEqual([]);
    h.api.on(GET, { status: 200, body: clusterBody({ deleting: true }) });
    for (let pass = 0; pass < 5 && condition(lastReport(), 'Finalized')?.status !== 'True'; pass++) {
      await executor.execute(event);
      await h.kube.settle();
    }
    expect(h.deletedKinds()).toEqual([`Job/validation-${ID}-gen1`, `ConfigMap/cluster-${ID}-config`, `Namespace/${NS}`]);
    expect(condition(lastReport(), 'Finalized')).toMatchObject({ status: 'True', reason: 'CleanupConfirmed' });
  });

  it('Delete policy with the connection refused: Health=False/ConnectionFailure naming the error, Finalized=False, nothing deleted', async () => {
    const executor = await provisioned();
    await h.kube.stopListening();
    h.api.on(GET, { status: 200, body: clusterBody({ deleting: true }) });
    const result = await executor.execute(event);
    expect(result.adapter).toMatchObject({ executionStatus: 'failed', errorReason: 'ConnectionFailure' });
    expect(result.kubeCalls.map((c) => c.outcome)).toEqual(['ConnectionFailure']);
    const health = condition(lastReport(), 'Health');
    expect(health).toMatchObject({ status: 'False', reason: 'ConnectionFailure' });
    expect(health?.message).toMatch(/^cannot reach the cluster, will retry: .*ECONNREFUSED/);
    expect(condition(lastReport(), 'Finalized')?.status).toBe('False');
    await h.kube.startListening();
    expect(h.kube.peek('v1', 'Namespace', undefined, NS)).toBeDefined();
  });
});
