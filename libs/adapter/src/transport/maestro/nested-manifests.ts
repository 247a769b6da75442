import { newestByGeneration } from '../newest-generation.js';
import type { KubeObject } from '../resource-transport.port.js';
import { workManifests } from './manifest-work.js';

/** How a manifest inside a work is found; kind/apiVersion are only compared when given. */
export interface ManifestQuery {
  readonly apiVersion?: string;
  readonly kind?: string;
  /** Omitted or `*` = any namespace. */
  readonly namespace?: string;
  readonly byName?: string;
  readonly labelSelector?: Readonly<Record<string, string>>;
}

/** HyperFleet's `MatchesDiscoveryCriteria`: namespace (when given), then name or every label. */
export function manifestMatches(manifest: KubeObject, query: ManifestQuery): boolean {
  const meta = manifest?.metadata;
  if (!meta) return false;
  if (query.kind !== undefined && manifest.kind !== query.kind) return false;
  if (query.apiVersion !== undefined && manifest.apiVersion !== query.apiVersion) return false;
  if (query.namespace !== undefined && query.namespace !== '' && query.namespace !== '*' && (meta.namespace ?? '') !== query.namespace)
    return false;
  if (query.byName !== undefined) return meta.name === query.byName;
  return Object.entries(query.labelSelector ?? {}).every(([k, v]) => meta.labels?.[k] === v);
}

/**
 * A copy of `manifest` with the `statusFeedback` and `conditions` the work agent reported for it
 * (`status.resourceStatus.manifests[]`, matched on `resourceMeta.name`/`namespace`), so
 * `statusFeedbackValue(resources.x.statusFeedback, "...")` reads it (HyperFleet's
 * `EnrichWithResourceStatus`).
 */
export function withManifestStatus(work: KubeObject, manifest: KubeObject): KubeObject {
  const entries = ((work['status'] as { resourceStatus?: { manifests?: unknown } } | undefined)?.resourceStatus?.manifests ?? []) as {
    resourceMeta?: { name?: unknown; namespace?: unknown };
    statusFeedback?: unknown;
    conditions?: unknown;
  }[];
  const entry = Array.isArray(entries)
    ? entries.find(
        (e) => e?.resourceMeta?.name === manifest.metadata.name && (e.resourceMeta.namespace ?? '') === (manifest.metadata.namespace ?? ''),
      )
    : undefined;
  return {
    ...structuredClone(manifest),
    ...(entry?.statusFeedback !== undefined && { statusFeedback: entry.statusFeedback }),
    ...(entry?.conditions !== undefined && { conditions: entry.conditions }),
  };
}

/** The best manifest of `work` matching `query` (highest generation, then name), with its status. */
export function findInWork(work: KubeObject, query: ManifestQuery): KubeObject | undefined {
  const found = newestByGeneration(workManifests(work).filter((m) => manifestMatches(m, query)));
  return found && withManifestStatus(work, found);
}
