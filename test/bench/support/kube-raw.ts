/**
 * Ceilings for the deletion scenarios (P1, P2): the Kubernetes work of one cluster with two
 * nodepools, done directly with @kubernetes/client-node against the same Kubernetes API server Decom's
 * adapters use, in the same run. The objects are the shipped adapters' (config/adapters): per cluster a
 * Namespace holding a ConfigMap and a Job (`validation`), and one ConfigMap per nodepool (`np-configmap`).
 * - `chainLatency`: the ordered cleanup (nodepool ConfigMaps → Job → ConfigMap → Namespace, each step
 *   waiting until its objects are gone, polled every 10 ms like the bench's GET 404), one cluster at a time;
 * - `deleteRate`: the same deletes for many clusters, `inFlight` at once, until every Namespace is gone,
 *   counted as Decom resources (1 cluster + 2 nodepools = 3) per second.
 * Neither includes Decom's own steps (events, projections, dispatch, status reports): the floor a
 * Kubernetes-backed deletion cannot go below on this server.
 */
import { type KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { pool, sleep } from './util.js';

interface ClusterObjects {
  readonly nodepoolConfigMaps: KubernetesObject[];
  readonly job: KubernetesObject;
  readonly configMap: KubernetesObject;
  readonly namespace: KubernetesObject;
}

function objectsOf(id: string): ClusterObjects {
  const namespace = id.toLowerCase();
  const labels = { 'hyperfleet.io/cluster-id': id, 'hyperfleet.io/managed-by': 'bench-ceiling' };
  return {
    namespace: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels } },
    configMap: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cluster-${id}-config`, namespace } },
    job: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: `validation-${id}-gen1`, namespace },
      // A Job the server accepts (pod template with a container and restartPolicy), as the shipped adapter creates.
      spec: {
        backoffLimit: 2,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'validate', image: 'busybox:1.36', command: ['true'] }] } },
      },
    } as KubernetesObject,
    nodepoolConfigMaps: ['a', 'b'].map((np) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `nodepool-${id}-${np}`, namespace, labels },
    })),
  };
}

async function createAll(api: KubernetesObjectApi, objects: ClusterObjects): Promise<void> {
  await api.create(objects.namespace);
  await Promise.all([api.create(objects.configMap), api.create(objects.job), ...objects.nodepoolConfigMaps.map((o) => api.create(o))]);
}

const isGone = (error: unknown) => (error as { code?: number }).code === 404;

async function remove(api: KubernetesObjectApi, object: KubernetesObject): Promise<void> {
  try {
    await api.delete(object, undefined, undefined, undefined, undefined, 'Background');
  } catch (error) {
    if (!isGone(error)) throw error;
  }
}

async function waitGone(api: KubernetesObjectApi, object: KubernetesObject, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await api.read(object as never);
    } catch (error) {
      if (isGone(error)) return;
      throw error;
    }
    if (Date.now() > deadline) throw new Error(`bench: ${object.kind} ${object.metadata?.name} not gone after ${timeoutMs} ms`);
    await sleep(10);
  }
}

let serial = 0;
const newId = (tag: string) => `${tag}${process.pid.toString(36)}${(serial++).toString(36)}${Date.now().toString(36)}`;

/** Milliseconds of each ordered cleanup, `count` clusters one after another (ascending). */
export async function chainLatency(kubeConfig: KubeConfig, count: number): Promise<number[]> {
  const api = KubernetesObjectApi.makeApiClient(kubeConfig);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const objects = objectsOf(newId('chain'));
    await createAll(api, objects);
    const started = performance.now();
    await Promise.all(objects.nodepoolConfigMaps.map((o) => remove(api, o)));
    await Promise.all(objects.nodepoolConfigMaps.map((o) => waitGone(api, o)));
    for (const step of [objects.job, objects.configMap, objects.namespace]) {
      await remove(api, step);
      await waitGone(api, step);
    }
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** Decom resources (3 per cluster) per second for deleting `clusters` clusters' objects, `inFlight` at once. */
export async function deleteRate(kubeConfig: KubeConfig, clusters: number, inFlight: number): Promise<number> {
  const api = KubernetesObjectApi.makeApiClient(kubeConfig);
  const all = Array.from({ length: clusters }, () => objectsOf(newId('rate')));
  await pool(all, inFlight, (objects) => createAll(api, objects));
  const started = performance.now();
  await pool(all, inFlight, async (objects) => {
    await Promise.all(objects.nodepoolConfigMaps.map((o) => remove(api, o)));
    await remove(api, objects.job);
    await remove(api, objects.configMap);
    await remove(api, objects.namespace);
  });
  // Namespace deletion finishes in the namespace controller: the last one gone ends the measure.
  await pool(all, inFlight, (objects) => waitGone(api, objects.namespace, 300_000));
  return (clusters * 3) / ((performance.now() - started) / 1000);
}
