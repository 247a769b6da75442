import type { KubeObject } from '../resource-transport.port.js';
import { MANIFEST_WORK_API_VERSION, MANIFEST_WORK_KIND } from './manifest-work.js';

/** The fields of Maestro's openapi `ResourceBundle` that make up a ManifestWork. */
export interface ResourceBundle {
  readonly id: string;
  readonly name?: string;
  readonly consumer_name?: string;
  readonly version?: number;
  readonly deleted_at?: string;
  readonly metadata?: Record<string, unknown>;
  readonly manifests?: readonly Record<string, unknown>[];
  readonly delete_option?: Record<string, unknown>;
  readonly manifest_configs?: readonly Record<string, unknown>[];
  readonly status?: { readonly conditions?: readonly unknown[]; readonly resourceStatus?: readonly unknown[] };
}

/**
 * A resource bundle as the ManifestWork a Kubernetes-style client sees (as maestro's grpcsource
 * `ToManifestWork` builds it): metadata from the bundle, `resourceVersion`/`generation` = bundle
 * version, `status.conditions` and `status.resourceStatus.manifests` from the agent's report.
 * Decom adds `metadata.deletionTimestamp` from `deleted_at`, so a work whose deletion Maestro has
 * not confirmed yet reads as terminating.
 */
export function bundleToManifestWork(bundle: ResourceBundle): KubeObject {
  const metadata = bundle.metadata ?? {};
  return {
    apiVersion: MANIFEST_WORK_API_VERSION,
    kind: MANIFEST_WORK_KIND,
    metadata: {
      ...metadata,
      name: String(metadata['name'] ?? bundle.name ?? bundle.id),
      ...(bundle.consumer_name !== undefined && { namespace: bundle.consumer_name }),
      uid: bundle.id,
      ...(bundle.version !== undefined && { resourceVersion: String(bundle.version), generation: bundle.version }),
      ...(bundle.deleted_at && { deletionTimestamp: bundle.deleted_at }),
    },
    spec: {
      workload: { manifests: bundle.manifests ?? [] },
      ...(bundle.delete_option && { deleteOption: bundle.delete_option }),
      ...(bundle.manifest_configs && { manifestConfigs: bundle.manifest_configs }),
    },
    ...(bundle.status && {
      status: { conditions: bundle.status.conditions ?? [], resourceStatus: { manifests: bundle.status.resourceStatus ?? [] } },
    }),
  };
}
