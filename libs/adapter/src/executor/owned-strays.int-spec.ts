import { KubernetesObjectApi } from '@kubernetes/client-node';
import { ExecutorHarness, ownedBy } from '../testing/executor-harness.js';
import { MANAGED_BY_LABEL, OWNER_ANNOTATION, OWNER_ID_LABEL } from './ownership.js';

/**
 * Discovery by ownership, with the shipped validation task config (its Job is named
 * after the generation: `validation-<id>-gen<N>`) against the local Kubernetes API server and a
 * recorded-response API: at deletion, every object of a resource's kind carrying this resource's
 * and adapter's marker goes, whatever its name or generation; nothing that is not ours is touched.
 */
const ID = '0190b0de-0000-7000-8000-00000000000b';
const NS = ID.toLowerCase();
const GET = `GET /api/hyperfleet/v1/clusters/${ID}`;
const PUT = `PUT /api/hyperfleet/v1/clusters/${ID}/statuses`;
const event = { id: ID, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${ID}`, generation: 1 };
const job = (name: string, namespace: string) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace },
  spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36', command: ['true'] }] } } },
});
const cluster = (generation: number, deleting = false) => ({
  id: ID,
  kind: 'Cluster',
  name: 'renamed',
  generation,
  deletion_policy: 'Delete',
  ...(deleting && { deleted_time: '2026-03-25T09:59:00Z' }),
  status: { conditions: [] },
});
type Condition = { type: string; status: string; reason: string };
const finalizedOf = (report: unknown) => (report as { conditions: Condition[] }).conditions.find((c) => c.type === 'Finalized');

describe('Discovery by ownership at deletion', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(PUT, { status: 201, body: {} });
  });
  afterEach(() => h.close());

  it('objects of earlier generations (renamed) are deleted too; foreign and other owners are left alone', async () => {
    const executor = await h.executor('config/adapters/validation.yaml', 'validation');
    h.api.on(GET, { status: 200, body: cluster(1) });
    await executor.execute(event);
    h.api.on(GET, { status: 200, body: cluster(2) });
    await executor.execute({ ...event, generation: 2 });
    expect(h.kube.peek('batch/v1', 'Job', NS, `validation-${ID}-gen1`)).toBeDefined();
    expect(h.kube.peek('batch/v1', 'Job', NS, `validation-${ID}-gen2`)).toBeDefined();
    // Ours in another namespace; a look-alike without the marker; another resource's object.
    h.kube.seed(ownedBy(job('ours-elsewhere', 'default'), { kind: 'Cluster', id: ID }, 'validation'));
    h.kube.seed(job(`validation-${ID}-foreign`, 'default'));
    h.kube.seed(ownedBy(job('someone-else', 'default'), { kind: 'Cluster', id: 'another-cluster' }, 'validation'));

    h.api.on(GET, { status: 200, body: cluster(3, true) });
    let result = await executor.execute({ ...event, generation: 3 });
    const strays = result.operations.filter((o) => o.reason.includes('discovery by ownership'));
    expect(strays.map((o) => `${o.operation} ${o.namespace}/${o.name}`).sort()).toEqual(
      [`delete ${NS}/validation-${ID}-gen1`, `delete ${NS}/validation-${ID}-gen2`, 'delete default/ours-elsewhere'].sort(),
    );
    expect(strays[0]!.reason).toContain(`${OWNER_ANNOTATION}: Cluster/${ID}/validation`);
    // The lists of discovery by ownership select this resource's labels; none lists a whole kind.
    const ownershipLists = h.kube
      .requestsMatching({ verb: 'list', kind: 'Job' })
      .filter((r) => !r.query['labelSelector']?.includes('hyperfleet.io'));
    expect(ownershipLists.length).toBeGreaterThan(0);
    for (const list of ownershipLists) {
      expect(list.query['labelSelector']?.split(',').sort()).toEqual([`${MANAGED_BY_LABEL}=validation`, `${OWNER_ID_LABEL}=${ID}`].sort());
    }
    for (let pass = 0; pass < 3 && finalizedOf(h.api.requests('PUT').at(-1)?.body)?.status !== 'True'; pass++) {
      await h.kube.settle();
      result = await executor.execute({ ...event, generation: 3 });
    }
    expect(result.status).toBe('success');
    expect(finalizedOf(h.api.requests('PUT').at(-1)?.body)).toMatchObject({ status: 'True', reason: 'CleanupConfirmed' });
    expect(h.kube.peek('batch/v1', 'Job', NS, `validation-${ID}-gen1`)).toBeUndefined();
    expect(h.kube.peek('batch/v1', 'Job', 'default', 'ours-elsewhere')).toBeUndefined();
    expect(h.kube.peek('batch/v1', 'Job', 'default', `validation-${ID}-foreign`)).toBeDefined();
    expect(h.kube.peek('batch/v1', 'Job', 'default', 'someone-else')).toBeDefined();
    expect(h.deletedKinds()).not.toContain(`Job/validation-${ID}-foreign`);
    expect(h.deletedKinds()).not.toContain('Job/someone-else');
  });

  it('a stray still terminating keeps the resource present: dependents and Finalized wait for it', async () => {
    const executor = await h.executor('config/adapters/validation.yaml', 'validation');
    h.api.on(GET, { status: 200, body: cluster(1) });
    await executor.execute(event);
    h.kube.seed({
      ...ownedBy(job('stuck-gen0', NS), { kind: 'Cluster', id: ID }, 'validation'),
      metadata: { ...ownedBy(job('stuck-gen0', NS), { kind: 'Cluster', id: ID }, 'validation').metadata, finalizers: ['example.com/hold'] },
    });
    h.api.on(GET, { status: 200, body: cluster(2, true) });
    await executor.execute({ ...event, generation: 2 });
    await h.kube.settle();
    const first = await executor.execute({ ...event, generation: 2 });
    expect(finalizedOf(h.api.requests('PUT').at(-1)?.body)?.status).toBe('False');
    // The ConfigMap waits for the Job (config order Job → ConfigMap → Namespace): the stray counts.
    expect(h.kube.peek('v1', 'ConfigMap', NS, `cluster-${ID}-config`)).toBeDefined();
    expect(first.operations.some((o) => o.operation === 'wait' && o.reason.includes('stuck-gen0 still present'))).toBe(true);

    h.kube.removeFinalizer('batch/v1', 'Job', NS, 'stuck-gen0');
    for (let pass = 0; pass < 4 && finalizedOf(h.api.requests('PUT').at(-1)?.body)?.status !== 'True'; pass++) {
      await h.kube.settle();
      await executor.execute({ ...event, generation: 2 });
    }
    expect(finalizedOf(h.api.requests('PUT').at(-1)?.body)?.status).toBe('True');
    expect(h.kube.peek('v1', 'Namespace', undefined, NS)).toBeUndefined();
  });

  it('an object ours from before the selectable labels existed gets them on the next pass, once, with nothing else changed', async () => {
    const executor = await h.executor('config/adapters/validation.yaml', 'validation');
    h.api.on(GET, { status: 200, body: cluster(1) });
    await executor.execute(event);
    // What an older Decom wrote: the annotation only.
    const client = KubernetesObjectApi.makeApiClient(h.kube.kubeConfig());
    const name = `cluster-${ID}-config`;
    const stored = (await client.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS } })) as any;
    const legacyLabels = Object.fromEntries(
      Object.entries(stored.metadata.labels ?? {}).filter(([k]) => k !== MANAGED_BY_LABEL && k !== OWNER_ID_LABEL),
    );
    await client.replace({ ...stored, metadata: { ...stored.metadata, labels: legacyLabels } });
    expect((h.kube.peek('v1', 'ConfigMap', NS, name) as any).metadata.labels[OWNER_ID_LABEL]).toBeUndefined();

    const result = await executor.execute(event);
    const backfill = result.operations.find((o) => o.name === name);
    expect(backfill).toMatchObject({ operation: 'update', reason: expect.stringContaining('ownership labels added') });
    const labelled = h.kube.peek('v1', 'ConfigMap', NS, name) as any;
    expect(labelled.metadata.labels).toMatchObject({ ...legacyLabels, [MANAGED_BY_LABEL]: 'validation', [OWNER_ID_LABEL]: ID });
    expect(labelled.metadata.annotations[OWNER_ANNOTATION]).toBe(`Cluster/${ID}/validation`);
    // Nothing else changed, and the next pass writes nothing more.
    expect(labelled.data).toEqual(stored.data);
    const again = await executor.execute(event);
    expect(again.operations.find((o) => o.name === name)?.operation).toBe('skip');
  });
});
