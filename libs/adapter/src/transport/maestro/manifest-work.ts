import { v5 as uuidv5 } from 'uuid';
import { GENERATION_ANNOTATION } from '../newest-generation.js';
import type { KubeObject } from '../resource-transport.port.js';

export const MANIFEST_WORK_API_VERSION = 'work.open-cluster-management.io/v1';
export const MANIFEST_WORK_KIND = 'ManifestWork';

/** RFC 4122 namespace for OIDs (Go's `uuid.NameSpaceOID`). */
const NAMESPACE_OID = '6ba7b812-9dad-11d1-80b4-00c04fd430c8';

export function isManifestWork(object: { apiVersion?: string; kind?: string }): boolean {
  return object.kind === MANIFEST_WORK_KIND && object.apiVersion === MANIFEST_WORK_API_VERSION;
}

/**
 * Maestro resource-bundle id of a work: the v5 UUID OCM's source client derives from source,
 * consumer and name (sdk-go `work/utils.UID`), so a work is found by name without a list.
 */
export function manifestWorkId(sourceId: string, consumer: string, name: string): string {
  return uuidv5(`${sourceId}-manifestworks.work.open-cluster-management.io-${consumer}-${name}`, NAMESPACE_OID);
}

/** The manifests of a work (`spec.workload.manifests`), `[]` when there are none. */
export function workManifests(work: KubeObject): KubeObject[] {
  const manifests = (work['spec'] as { workload?: { manifests?: unknown } } | undefined)?.workload?.manifests;
  return Array.isArray(manifests) ? (manifests as KubeObject[]) : [];
}

function generationProblem(object: KubeObject): string | undefined {
  const value = object.metadata?.annotations?.[GENERATION_ANNOTATION];
  if (value === undefined) return `missing ${GENERATION_ANNOTATION} annotation`;
  if (!/^\d+$/.test(value.trim()) || Number(value) <= 0)
    return `${GENERATION_ANNOTATION} annotation must be a positive integer, got ${JSON.stringify(value)}`;
  return undefined;
}

/**
 * What HyperFleet validates before sending a work: it is a ManifestWork, and the work and every
 * manifest in it carry a positive `hyperfleet.io/generation` annotation.
 * @returns the problem, or `undefined` when the work is fine.
 */
export function manifestWorkProblem(work: KubeObject): string | undefined {
  if (!isManifestWork(work))
    return `maestro transport needs a ${MANIFEST_WORK_API_VERSION} ${MANIFEST_WORK_KIND}, got ${work.apiVersion} ${work.kind}`;
  const own = generationProblem(work);
  if (own) return `ManifestWork ${JSON.stringify(work.metadata.name)}: ${own}`;
  const manifests = workManifests(work);
  if (manifests.length === 0) return `ManifestWork ${JSON.stringify(work.metadata.name)}: spec.workload.manifests is empty`;
  for (const [i, manifest] of manifests.entries()) {
    const problem = manifest?.metadata ? generationProblem(manifest) : 'not a Kubernetes object';
    if (problem)
      return `ManifestWork ${JSON.stringify(work.metadata.name)} manifest[${i}] ${manifest?.kind ?? '?'}/${manifest?.metadata?.name ?? '?'}: ${problem}`;
  }
  return undefined;
}
