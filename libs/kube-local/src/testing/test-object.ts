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
