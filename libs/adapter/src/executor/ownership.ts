import type { KubeObject } from '../transport/resource-transport.port.js';

/**
 * Decom's ownership marker (seed 003): an annotation `decom.io/owner: <kind>/<id>/<adapter>`
 * on every object the executor creates or adopts. An annotation rather than a label because label
 * values are limited to 63 characters of `[-A-Za-z0-9_.]` and `<kind>/<id>/<adapter>` is neither.
 * An object is "ours" only when it carries the marker of this resource and adapter.
 * @see docs/policies.md "Adapter side".
 */
export const OWNER_ANNOTATION = 'decom.io/owner';

/**
 * The selectable half of the marker: a label `decom.io/managed-by: <adapter>` stamped
 * wherever the annotation is, so an adapter can watch its objects with a label selector (a watch cannot
 * select annotations). The annotation stays the full owner record: only it decides ownership; the label
 * only narrows what a watch delivers. Absent when the adapter name is not a valid label value.
 */
export const MANAGED_BY_LABEL = 'decom.io/managed-by';

/** Kubernetes label value syntax: ≤ 63 characters of `[A-Za-z0-9._-]`, alphanumeric at both ends (or empty). */
const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$/;

/** The `decom.io/managed-by` value of `adapter`, or undefined when its name is not a valid label value. */
export function managedByValue(adapter: string): string | undefined {
  return LABEL_VALUE.test(adapter) ? adapter : undefined;
}

/**
 * The other selectable half: `decom.io/owner-id: <resource id>`, so discovery by ownership at
 * deletion lists only this resource's objects (`decom.io/owner-id=<id>,decom.io/managed-by=<adapter>`)
 * instead of every object of the kind in every namespace on every run, which made bulk deletion
 * quadratic. Like `decom.io/managed-by` it only narrows a query; the annotation decides ownership.
 */
export const OWNER_ID_LABEL = 'decom.io/owner-id';

/** The adapter of a marker value `<kind>/<id>/<adapter>`. */
function adapterOfMark(mark: string): string {
  return mark.split('/').slice(2).join('/');
}

/** The resource id of a marker value `<kind>/<id>/<adapter>`. */
function idOfMark(mark: string): string {
  return mark.split('/')[1] ?? '';
}

/**
 * The marker's selectable labels (`decom.io/managed-by`, `decom.io/owner-id`), each present only when
 * its value is a valid label value.
 */
export function ownerLabels(mark: string): Record<string, string> {
  const managedBy = managedByValue(adapterOfMark(mark));
  const ownerId = managedByValue(idOfMark(mark));
  return { ...(managedBy !== undefined && { [MANAGED_BY_LABEL]: managedBy }), ...(ownerId !== undefined && { [OWNER_ID_LABEL]: ownerId }) };
}

/** Labels Decom stamps as bookkeeping (never compared, hidden from CEL). */
export const OWNERSHIP_LABELS: readonly string[] = [MANAGED_BY_LABEL, OWNER_ID_LABEL];

/**
 * Release marker: an orphaned object keeps where it came from, so it is never mistaken for
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

/**
 * A copy of `object` carrying `mark` (other annotations kept) and its `decom.io/managed-by` and
 * `decom.io/owner-id` labels (other labels kept; a label is left out when its value is not a valid label value).
 */
export function withOwner(object: KubeObject, mark: string): KubeObject {
  const labels = ownerLabels(mark);
  return {
    ...object,
    metadata: {
      ...object.metadata,
      annotations: { ...object.metadata.annotations, [OWNER_ANNOTATION]: mark },
      ...(Object.keys(labels).length > 0 && { labels: { ...object.metadata.labels, ...labels } }),
    },
  };
}

/** Label prefix of Decom's own labels (`decom.io/managed-by`, `decom.io/owner-id`), removed when an object is orphaned. */
export const DECOM_LABEL_PREFIX = 'decom.io/';

/**
 * A copy of `object` without Decom's annotations and labels and HyperFleet's labels, and the keys removed
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
  const labels = keep(keep(object.metadata.labels, DECOM_LABEL_PREFIX, 'label'), HYPERFLEET_LABEL_PREFIX, 'label');
  const metadata = { ...object.metadata, ...(annotations && { annotations }), ...(labels && { labels }) };
  return { object: { ...object, metadata }, removed };
}
