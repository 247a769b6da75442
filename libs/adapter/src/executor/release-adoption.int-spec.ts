import { ExecutorHarness } from '../testing/executor-harness.js';
import { reportingTaskConfig } from '../testing/reporting-task-config.js';
import { OWNER_ANNOTATION, RELEASED_BY_ANNOTATION, RELEASED_FROM_ANNOTATION, RELEASED_TIME_ANNOTATION } from './ownership.js';

/**
 * Ownership records, against the local Kubernetes API server and a recorded-response API:
 * orphaning leaves a release marker; a look-alike resource declaring the same object refuses to adopt it
 * (`Applied=False/Released`, naming the former owner) and never deletes it; `AdoptReleased` allows it; `Adopt`
 * of a differing object reports `Applied=True/AdoptedWithDrift` naming the fields and both values.
 */
const C1 = '0190b0de-0000-7000-8000-0000000000c1';
const C2 = '0190b0de-0000-7000-8000-0000000000c2';
const cluster = (id: string, o: { deleting?: boolean; policy?: 'Delete' | 'Orphan' } = {}) => ({
  id,
  kind: 'Cluster',
  name: id,
  generation: o.deleting ? 2 : 1,
  deletion_policy: o.policy ?? 'Delete',
  ...(o.deleting && { deleted_time: '2026-03-25T09:59:00Z', deleted_by: 'alice@example.com' }),
  status: { conditions: [] },
});
const event = (id: string) => ({ id, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${id}`, generation: 1 });

/** One shared ConfigMap `web` (the same object for every cluster), with `adoption` as its policy. */
const config = (adoption = 'Adopt', replicas = '5') =>
  reportingTaskConfig({
    resources: `  - name: web
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: web, namespace: default}, data: {replicas: '${replicas}'}}
    discovery: {by_name: web, namespace: default}
    lifecycle:
      create: {adoptionPolicy: ${adoption}}
      delete: {when: {expression: 'deleted_time != null'}}`,
    conditions: `          - {type: Applied, status: {expression: 'resources.?web.hasValue() ? "True" : "False"'}, reason: FromConfig, message: from config}
          - {type: Available, status: 'True', reason: FromConfig, message: from config}
          - {type: Health, status: 'True', reason: FromConfig, message: from config}
          - type: Finalized
            status: {expression: 'deleted_time != null && !resources.?web.hasValue() ? "True" : "False"'}
            reason: FromConfig
            message: from config`,
  });
type Condition = { type: string; status: string; reason: string; message: string };

describe('release markers and adoption records', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    for (const id of [C1, C2]) h.api.on(`PUT /api/hyperfleet/v1/clusters/${id}/statuses`, { status: 201, body: {} });
  });
  afterEach(() => h.close());
  const lastApplied = (id: string) =>
    (h.api.requests('PUT', `/api/hyperfleet/v1/clusters/${id}/statuses`).at(-1)?.body as { conditions: Condition[] }).conditions.find(
      (c) => c.type === 'Applied',
    );
  const web = () =>
    h.kube.peek('v1', 'ConfigMap', 'default', 'web') as
      { metadata: { annotations?: Record<string, string> }; data: Record<string, string> } | undefined;

  it('an orphaned object carries a release marker; the look-alike refuses it (Released) and its deletion leaves it', async () => {
    const executor = await h.executor(config(), 'web');
    h.api.on(`GET /api/hyperfleet/v1/clusters/${C1}`, { status: 200, body: cluster(C1, { policy: 'Orphan' }) });
    await executor.execute(event(C1));
    expect(web()?.metadata.annotations?.[OWNER_ANNOTATION]).toBe(`Cluster/${C1}/web`);
    h.api.on(`GET /api/hyperfleet/v1/clusters/${C1}`, { status: 200, body: cluster(C1, { deleting: true, policy: 'Orphan' }) });
    await executor.execute(event(C1));
    expect(web()?.metadata.annotations).toEqual({
      [RELEASED_FROM_ANNOTATION]: `Cluster/${C1}/web`,
      [RELEASED_TIME_ANNOTATION]: '2026-03-25T10:00:00.000Z',
      [RELEASED_BY_ANNOTATION]: 'alice@example.com',
    });

    // c2 declares the same object with the default Adopt: refused, nothing written.
    h.kube.clearRequests();
    h.api.on(`GET /api/hyperfleet/v1/clusters/${C2}`, { status: 200, body: cluster(C2) });
    const refused = await executor.execute(event(C2));
    expect(h.kube.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(lastApplied(C2)).toMatchObject({ status: 'False', reason: 'Released' });
    expect(lastApplied(C2)?.message).toContain(`was released from Cluster/${C1}/web at 2026-03-25T10:00:00.000Z by alice@example.com`);
    expect(refused.policy.outcomes.map((o) => o.outcome)).toEqual(['Released']);

    // Deleting c2 never deletes the object the user chose to keep.
    h.api.on(`GET /api/hyperfleet/v1/clusters/${C2}`, { status: 200, body: cluster(C2, { deleting: true }) });
    await executor.execute(event(C2));
    expect(h.kube.requestsMatching({ method: 'DELETE' })).toEqual([]);
    expect(web()).toBeDefined();
  });

  it('adoptionPolicy AdoptReleased takes a released object over and drops the release marker', async () => {
    h.kube.seed({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'web', namespace: 'default', annotations: { [RELEASED_FROM_ANNOTATION]: `Cluster/${C1}/web` } },
      data: { replicas: '5' },
    });
    h.api.on(`GET /api/hyperfleet/v1/clusters/${C2}`, { status: 200, body: cluster(C2) });
    await (await h.executor(config('AdoptReleased'), 'web')).execute(event(C2));
    expect(web()?.metadata.annotations?.[OWNER_ANNOTATION]).toBe(`Cluster/${C2}/web`);
    expect(web()?.metadata.annotations?.[RELEASED_FROM_ANNOTATION]).toBeUndefined();
    expect(lastApplied(C2)).toMatchObject({ status: 'True', reason: 'Adopted' });
  });

  it('Adopt of a differing object is never silent: Applied=True/AdoptedWithDrift names the field and both values', async () => {
    h.kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { replicas: '3' } });
    h.api.on(`GET /api/hyperfleet/v1/clusters/${C2}`, { status: 200, body: cluster(C2) });
    const executor = await h.executor(config('Adopt', '5'), 'web');
    const result = await executor.execute(event(C2));
    expect(lastApplied(C2)).toEqual({
      type: 'Applied',
      status: 'True',
      reason: 'AdoptedWithDrift',
      message:
        'ConfigMap default/web adopted as it is (generation 0 unchanged: marker added), differs from the manifest in data.replicas: manifest "5", object "3"',
    });
    expect(web()?.data).toEqual({ replicas: '3' });
    expect(result.policy.outcomes[0]).toMatchObject({ resource: 'web', drift: ['data.replicas: manifest "5", object "3"'] });
    // The next pass sees its own object: nothing more is recorded as an adoption.
    await executor.execute(event(C2));
    expect(lastApplied(C2)).toMatchObject({ status: 'True', reason: 'FromConfig' });
  });

  it('Adopt over a changed generation overwrites and says what it overwrote (Applied=True/Adopted)', async () => {
    h.kube.seed({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'web', namespace: 'default', annotations: { 'hyperfleet.io/generation': '1' } },
      data: { replicas: '3' },
    });
    h.api.on(`GET /api/hyperfleet/v1/clusters/${C2}`, { status: 200, body: cluster(C2) });
    await (await h.executor(config('Adopt', '5'), 'web')).execute(event(C2));
    expect(lastApplied(C2)).toMatchObject({
      status: 'True',
      reason: 'Adopted',
      message: expect.stringContaining('overwrote data.replicas: manifest "5", object "3"'),
    });
    expect(web()?.data).toEqual({ replicas: '5' });
  });
});
