/** The shape of a stored Kubernetes object and its metadata, shared by the store and its change window. */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  generateName?: string;
  uid: string;
  /** Decimal string of the global counter at the object's last write. */
  resourceVersion: string;
  generation: number;
  /** RFC 3339 UTC, whole seconds. */
  creationTimestamp: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [field: string]: unknown;
}

/** A stored object: plain JSON, as clients send and receive it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}
