/** Test support: a loosely typed Kubernetes object that client-node's KubernetesObjectApi accepts. */
import type { KubernetesObject, V1ObjectMeta } from '@kubernetes/client-node';

export type TestObject = KubernetesObject & {
  apiVersion: string;
  kind: string;
  metadata: V1ObjectMeta & { name: string };
} & Record<string, unknown>;

/** Types a plain object (or a client-node result) as a `TestObject`; the caller vouches for its shape. */
export function obj(value: object): TestObject {
  return value as TestObject;
}

/**
 * The smallest valid workload bodies, for tests whose subject is not the spec itself: a real API
 * server (and this one) refuses a Job, Pod, Deployment or ReplicaSet without them.
 */
export const podSpec = (restartPolicy: 'Always' | 'OnFailure' | 'Never' = 'Always') => ({
  containers: [{ name: 'main', image: 'busybox:1.36', command: ['true'] }],
  restartPolicy,
});

/** A Job spec that runs one `true` container (restartPolicy Never). */
export const jobSpec = () => ({ template: { spec: podSpec('Never') } });

/** A Deployment or ReplicaSet spec selecting its pods by `app: <app>`. */
export const workloadSpec = (app: string, replicas = 1) => ({
  replicas,
  selector: { matchLabels: { app } },
  template: { metadata: { labels: { app } }, spec: podSpec() },
});
