import { v5 as uuidv5 } from 'uuid';

/** RFC 4122 namespace for OIDs, as Go's `uuid.NameSpaceOID`. */
const NAMESPACE_OID = '6ba7b812-9dad-11d1-80b4-00c04fd430c8';

/**
 * Id of the resource bundle of a ManifestWork: the v5 UUID OCM's source client derives from
 * `<source>-manifestworks.work.open-cluster-management.io-<consumer>-<name>` (sdk-go work/utils UID).
 */
export function workId(source: string, consumer: string, name: string): string {
  return uuidv5(`${source}-manifestworks.work.open-cluster-management.io-${consumer}-${name}`, NAMESPACE_OID);
}
