import { KubernetesObjectApi } from '@kubernetes/client-node';
import { ExecutorHarness } from '../testing/executor-harness.js';
import { KEPT_ANNOTATION_PREFIX, withKeptRecords } from './kept-in-namespace.js';
import { OWNER_ANNOTATION, RELEASED_FROM_ANNOTATION } from './ownership.js';

/**
 * Orphan inside a namespace another adapter deletes (kept-in-namespace.ts), with the two shipped adapters
 * (config/adapters: np-configmap's ConfigMap lives in validation's Namespace) against the local Kubernetes
 * API server, in both orders: the release first (the shipped Foreground order), and the Namespace owner
 * first (the Background window, reported).
 */
const CLUSTER = '0190c0de-0000-7000-8000-0000000000c1';
const NS = CLUSTER.toLowerCase();
const NODEPOOL = '0190c0de-0000-7000-8000-0000000000f1';
const CLUSTER_URL = `/api/hyperfleet/v1/clusters/${CLUSTER}`;
const NP_URL = `${CLUSTER_URL}/nodepools/${NODEPOOL}`;
const CONFIGMAP = `nodepool-${NODEPOOL}`;
const clusterEvent = { id: CLUSTER, kind: 'Cluster', href: CLUSTER_URL, generation: 1 };
const npEvent = {
  id: NODEPOOL,
  kind: 'NodePool',
  href: NP_URL,
  generation: 1,
  owner_references: { id: CLUSTER, kind: 'Cluster', href: CLUSTER_URL },
};
const DELETED = '2026-03-25T09:00:00Z';

type Condition = { type: string; status: string; reason: string; message: string };
const finalized = (report: unknown) => (report as { conditions: Condition[] }).conditions.find((c) => c.type === 'Finalized');

describe('an Orphan nodepool inside the Namespace its cluster deletes', () => {
  let h: ExecutorHarness;
  const cluster = (deleting: boolean) => ({
    id: CLUSTER,
    kind: 'Cluster',
    name: 'c',
    generation: deleting ? 2 : 1,
    deletion_policy: 'Delete',
    ...(deleting && { deleted_time: DELETED }),
  });
  const nodepool = (deleting: boolean) => ({
    id: NODEPOOL,
    kind: 'NodePool',
    name: 'np',
    generation: deleting ? 2 : 1,
    deletion_policy: 'Orphan',
    ...(deleting && { deleted_time: DELETED }),
  });
  const lastReport = (url: string) => h.api.requests('PUT', `${url}/statuses`).at(-1)?.body;

  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(`PUT ${CLUSTER_URL}/statuses`, { status: 201, body: {} });
    h.api.on(`PUT ${NP_URL}/statuses`, { status: 201, body: {} });
    h.api.on(`GET ${CLUSTER_URL}/statuses`, {
      status: 200,
      body: {
        kind: 'AdapterStatusList',
        items: [
          { adapter: 'validation', observed_generation: 1, conditions: [{ type: 'Applied', status: 'True', reason: 'R', message: 'm' }] },
        ],
      },
    });
  });
  afterEach(() => h.close());

  async function applied() {
    const validation = await h.executor('config/adapters/validation.yaml', 'validation');
    const npConfigMap = await h.executor('config/adapters/np-configmap.yaml', 'np-configmap');
    h.api.on(`GET ${CLUSTER_URL}`, { status: 200, body: cluster(false) });
    h.api.on(`GET ${NP_URL}`, { status: 200, body: nodepool(false) });
    expect((await validation.execute(clusterEvent)).status).toBe('success');
    expect((await npConfigMap.execute(npEvent)).status).toBe('success');
    expect(h.kube.peek('v1', 'ConfigMap', NS, CONFIGMAP)).toBeDefined();
    return { validation, npConfigMap };
  }

  it('released first: the record lands on the Namespace, and validation releases the Namespace instead of deleting it, naming what it keeps', async () => {
    const { validation, npConfigMap } = await applied();
    h.api.on(`GET ${NP_URL}`, { status: 200, body: nodepool(true) });
    await npConfigMap.execute({ ...npEvent, generation: 2 });
    const namespace = h.kube.peek('v1', 'Namespace', undefined, NS) as { metadata: { annotations: Record<string, string> } };
    const records = Object.entries(namespace.metadata.annotations).filter(([key]) => key.startsWith(KEPT_ANNOTATION_PREFIX));
    expect(records).toHaveLength(1);
    expect(JSON.parse(records[0]![1])).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: CONFIGMAP,
      releasedFrom: `NodePool/${NODEPOOL}/np-configmap`,
    });
    expect(finalized(lastReport(NP_URL))).toMatchObject({
      status: 'True',
      reason: 'Orphaned',
      message: expect.stringContaining(`recorded on its Namespace ${NS}`),
    });

    h.api.on(`GET ${CLUSTER_URL}`, { status: 200, body: cluster(true) });
    for (let pass = 0; pass < 5 && finalized(lastReport(CLUSTER_URL))?.status !== 'True'; pass++)
      await validation.execute({ ...clusterEvent, generation: 2 });
    const report = finalized(lastReport(CLUSTER_URL));
    expect(report).toMatchObject({
      status: 'True',
      message: expect.stringContaining(`Namespace ${NS} kept (released, not deleted): it holds ConfigMap ${NS}/${CONFIGMAP}`),
    });
    expect(h.deletedKinds()).not.toContain(`Namespace/${NS}`);
    expect(h.deletedKinds()).toContain(`ConfigMap/cluster-${CLUSTER}-config`);
    const kept = h.kube.peek('v1', 'Namespace', undefined, NS) as {
      metadata: { annotations: Record<string, string>; deletionTimestamp?: string };
    };
    expect(kept.metadata.deletionTimestamp).toBeUndefined();
    expect(kept.metadata.annotations[OWNER_ANNOTATION]).toBeUndefined();
    expect(kept.metadata.annotations[RELEASED_FROM_ANNOTATION]).toBe(`Cluster/${CLUSTER}/validation`);
    // The record stays: it says why the Namespace is still there.
    expect(Object.keys(kept.metadata.annotations).some((key) => key.startsWith(KEPT_ANNOTATION_PREFIX))).toBe(true);
    expect(h.kube.peek('v1', 'ConfigMap', NS, CONFIGMAP)).toBeDefined();
  });

  it('a record whose object is gone no longer keeps the Namespace: it is deleted as usual', async () => {
    const { validation, npConfigMap } = await applied();
    h.api.on(`GET ${NP_URL}`, { status: 200, body: nodepool(true) });
    await npConfigMap.execute({ ...npEvent, generation: 2 });
    await KubernetesObjectApi.makeApiClient(h.kube.kubeConfig()).delete({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: CONFIGMAP, namespace: NS },
    });
    h.api.on(`GET ${CLUSTER_URL}`, { status: 200, body: cluster(true) });
    for (let pass = 0; pass < 5 && !h.deletedKinds().includes(`Namespace/${NS}`); pass++)
      await validation.execute({ ...clusterEvent, generation: 2 });
    expect(h.deletedKinds()).toContain(`Namespace/${NS}`);
  });

  it('Namespace owner first (the Background window): the releasing adapter reports the loss instead of a quiet "not found"', async () => {
    const { validation, npConfigMap } = await applied();
    h.api.on(`GET ${CLUSTER_URL}`, { status: 200, body: cluster(true) });
    for (let pass = 0; pass < 5 && !h.deletedKinds().includes(`Namespace/${NS}`); pass++)
      await validation.execute({ ...clusterEvent, generation: 2 });
    expect(h.deletedKinds()).toContain(`Namespace/${NS}`);
    await h.kube.settle();
    h.api.on(`GET ${NP_URL}`, { status: 200, body: nodepool(true) });
    await npConfigMap.execute({ ...npEvent, generation: 2 });
    expect(finalized(lastReport(NP_URL))).toMatchObject({
      status: 'True',
      reason: 'Orphaned',
      message: expect.stringMatching(new RegExp(`ConfigMap ${NS}/${CONFIGMAP}.*LOST: its Namespace ${NS} is (gone|being deleted)`)),
    });
  });

  it('an update of the Namespace keeps the records of objects released into it', () => {
    const record = `${KEPT_ANNOTATION_PREFIX}abc`;
    const desired = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, annotations: { a: '1' } } };
    const existing = { ...desired, metadata: { name: NS, annotations: { [record]: '{}', stale: 'x' } } };
    expect(withKeptRecords(desired, existing).metadata.annotations).toEqual({ a: '1', [record]: '{}' });
    expect(withKeptRecords(desired, undefined)).toBe(desired);
  });
});
