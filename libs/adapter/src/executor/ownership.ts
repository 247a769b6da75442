import type { KubeObject } from '../transport/resource-transport.port.js';

/**
 * Decom's ownership marker (seed 003, issue #6): an annotation `decom.io/owner: <kind>/<id>/<adapter>`
 * on every object the executor creates or adopts. An annotation rather than a label because label
 * values are limited to 63 characters of `[-A-Za-z0-9_.]` and `<kind>/<id>/<adapter>` is neither.
 * An object is "ours" only when it carries the marker of this resource and adapter.
 * @see docs/policies.md "Adapter side".
 */
export const OWNER_ANNOTATION = 'decom.io/owner';

/**
 * Release marker (issue #11): an orphaned object keeps where it came from, so it is never mistaken for
 * a foreign object: `decom.io/released-from: <kind>/<id>/<adapter>` (the former owner mark),
 * `decom.io/released-time` (RFC 3339) and `decom.io/released-by` (who asked for the deletion).
 * A released object is adopted only under `adoptionPolicy: AdoptReleased` (adoption-policy.ts).
 */
export const RELEASED_FROM_ANNOTATION = 'decom.io/released-from';
export const RELEASED_TIME_ANNOTATION = 'decom.io/released-time';
export const RELEASED_BY_ANNOTATION = 'decom.io/released-by';

/** Annotation prefix removed when an object is orphaned. */
export const DECOM_ANNOTATION_PREFIX = 'decom.io/';

/**
 * Label prefix removed when an object is orphaned: HyperFleet's management labels
 * (`hyperfleet.io/managed-by`, `hyperfleet.io/cluster-id`...), as HyperFleet's draft
 * `lifecycle.orphan` strips them, so no selector discovery later mistakes the object for managed.
 */
export const HYPERFLEET_LABEL_PREFIX = 'hyperfleet.io/';

/** The marker value of one resource and adapter: `Cluster/3f2a.../validation`. */
export function ownerMark(event: Readonly<Record<string, unknown>>, adapter: string): string {
  return `${String(event['kind'])}/${String(event['id'])}/${adapter}`;
}

export function isOwnedBy(object: KubeObject, mark: string): boolean {
  return object.metadata.annotations?.[OWNER_ANNOTATION] === mark;
}

/** A copy of `object` carrying `mark` (other annotations kept). */
export function withOwner(object: KubeObject, mark: string): KubeObject {
  return { ...object, metadata: { ...object.metadata, annotations: { ...object.metadata.annotations, [OWNER_ANNOTATION]: mark } } };
}

/**
 * A copy of `object` without Decom's annotations and HyperFleet's labels, and the keys removed
 * (`[]` when there was nothing to remove: no write is needed).
 */
export function withoutOwnershipMarks(object: KubeObject): { object: KubeObject; removed: string[] } {
  const removed: string[] = [];
  const keep = (entries: Record<string, string> | undefined, prefix: string, what: string) => {
    if (!entries) return undefined;
    const kept = Object.fromEntries(Object.entries(entries).filter(([key]) => !key.startsWith(prefix)));
    Object.keys(entries)
      .filter((key) => key.startsWith(prefix))
      .forEach((key) => removed.push(`${what} ${key}`));
    return kept;
  };
  const annotations = keep(object.metadata.annotations, DECOM_ANNOTATION_PREFIX, 'annotation');
  const labels = keep(object.metadata.labels, HYPERFLEET_LABEL_PREFIX, 'label');
  const metadata = { ...object.metadata, ...(annotations && { annotations }), ...(labels && { labels }) };
  return { object: { ...object, metadata }, removed };
}
