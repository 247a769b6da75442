import type { PropagationPolicy } from '../config/task-config.types.js';

/** A Kubernetes object as plain JSON (exactly what the API server sent or will receive). */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    resourceVersion?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
    finalizers?: string[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** One named object. `namespace` is ignored for cluster-scoped kinds. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/**
 * How a resource is found: by exact name, or by labels (every label must match; among several
 * matches the highest `hyperfleet.io/generation` annotation wins, ties broken by name).
 * `namespace` undefined = cluster-scoped, or all namespaces for a label search.
 */
export interface DiscoveryQuery {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly byName?: string;
  readonly labelSelector?: Readonly<Record<string, string>>;
}

/** `not-found` is success too: the object was already gone (seeds/000 edge case #1). */
export type DeleteOutcome = 'deleted' | 'not-found';

/**
 * The executor's only door to the cluster. Absent objects are `undefined`; every other failure
 * throws `TransportError`, so a broken connection can never look like "already deleted".
 * @see HyperFleet: hyperfleet-adapter internal/executor/resource_executor.go,
 *   STYLE.md §3 (plan, then a thin Transport acts).
 */
export interface ResourceTransport {
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
  discover(query: DiscoveryQuery): Promise<KubeObject | undefined>;
  /** Every match of a discovery (by name: zero or one), for tools that simulate deletes (plan). */
  discoverAll?(query: DiscoveryQuery): Promise<KubeObject[]>;
  create(object: KubeObject): Promise<KubeObject>;
  /** Full replace; `object.metadata.resourceVersion` must be the existing one. */
  replace(object: KubeObject): Promise<KubeObject>;
  delete(ref: ObjectRef, propagationPolicy: PropagationPolicy): Promise<DeleteOutcome>;
}
