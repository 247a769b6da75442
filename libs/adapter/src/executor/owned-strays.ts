import type { DiscoveryQuery, KubeObject } from '../transport/resource-transport.port.js';
import { MANAGED_BY_LABEL, OWNER_ID_LABEL, isOwnedBy, ownerLabels } from './ownership.js';
import { sameObject } from './resource-operation.js';
import type { Target } from './resource-target.js';

/**
 * Same kind and name, and the same namespace when `claimed` names one (a manifest without a
 * namespace lands in the client's default one: counted as claimed wherever it is, the safe side).
 */
function sameRef(object: KubeObject, claimed: KubeObject): boolean {
  if (object.kind !== claimed.kind || object.metadata.name !== claimed.metadata.name) return false;
  return claimed.metadata.namespace === undefined || object.metadata.namespace === claimed.metadata.namespace;
}

/** Does the resource's own discovery rule match `object`? (Those are its discovery's to handle, newest first.) */
function matchesQuery(object: KubeObject, query: DiscoveryQuery): boolean {
  if (query.namespace !== undefined && object.metadata.namespace !== undefined && object.metadata.namespace !== query.namespace)
    return false;
  if (query.byName !== undefined) return object.metadata.name === query.byName;
  return Object.entries(query.labelSelector ?? {}).every(([key, value]) => object.metadata.labels?.[key] === value);
}

/**
 * Discovery by ownership: every object of the target's kind, in any namespace, that
 * carries this resource's and adapter's ownership marker but that no resource of this pass
 * discovers by its own rule: an object created under an earlier name or generation (`obj-a` before
 * the name became `obj-b`, `job-gen1` at generation 3). Objects the target's own discovery rule
 * matches (a selector's older generations) and `claimed` (what this pass's resources render or
 * discovered) are left to their own resource and its ordering.
 * Listed by the marker's labels (`decom.io/owner-id`, `decom.io/managed-by`); "never delete what is not
 * ours" holds: only objects carrying the annotation `mark` are returned.
 * Transports without `discoverAll` return `[]`.
 * @throws TransportError (a failed list is never "no strays").
 */
export async function findOwnedStrays(target: Target, mark: string, claimed: readonly KubeObject[]): Promise<KubeObject[]> {
  const { transport, desired } = target;
  if (!transport.discoverAll) return [];
  // Select by the marker's labels, so each run lists this resource's objects only (one list
  // of the whole kind per run made bulk deletion quadratic). Objects written before the labels existed
  // carry only the annotation: after the hard delete the leak scan (`decom leaks`) finds any left over.
  // Without both label values valid (an id or adapter name that is no label value) the whole kind is listed.
  const labels = ownerLabels(mark);
  const selectable = labels[MANAGED_BY_LABEL] !== undefined && labels[OWNER_ID_LABEL] !== undefined;
  const all = await transport.discoverAll({ apiVersion: desired.apiVersion, kind: desired.kind, labelSelector: selectable ? labels : {} });
  return all.filter(
    (o) =>
      isOwnedBy(o, mark) &&
      !matchesQuery(o, target.query) &&
      !claimed.some((c) => sameRef(o, c) || (c.metadata.uid !== undefined && sameObject(o, c))),
  );
}
