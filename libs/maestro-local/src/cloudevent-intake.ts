import type { CloudEventV1 } from 'cloudevents';
import type { BundleSpec } from './bundle-store.js';
import { MaestroError } from './maestro-errors.js';

/** The CloudEvents data type of ManifestWork specs sent by a source (OCM `ManifestBundleEventDataType`). */
export const MANIFEST_BUNDLE_DATA_TYPE = 'io.open-cluster-management.works.v1alpha1.manifestbundles';

export type SpecAction = 'create_request' | 'update_request' | 'delete_request';

/** A decoded source event: what to do with which bundle. */
export interface SpecRequest {
  readonly action: SpecAction;
  readonly spec: BundleSpec;
  /** `resourceversion` extension: the version the source last saw (0 on create). */
  readonly version: number;
}

function extension(event: CloudEventV1<unknown>, name: string): unknown {
  return (event as unknown as Record<string, unknown>)[name];
}

function requiredString(event: CloudEventV1<unknown>, name: string): string {
  const value = extension(event, name);
  if (typeof value !== 'string' || value === '') throw new MaestroError(400, `cloudevent extension '${name}' is required`);
  return value;
}

/**
 * Decodes a ManifestWork spec event as OCM's source `ManifestBundleCodec` encodes it: type
 * `<data type>.spec.<action>`, extensions `clustername`, `resourceid`, `resourceversion`,
 * `metadata` (the work's ObjectMeta as JSON), data `{manifests, deleteOption?, manifestConfigs?}`
 * (absent for deletes).
 * @throws MaestroError 400 for anything malformed.
 */
export function decodeSpecEvent(event: CloudEventV1<unknown>): SpecRequest {
  const prefix = `${MANIFEST_BUNDLE_DATA_TYPE}.spec.`;
  if (!event.type.startsWith(prefix)) throw new MaestroError(400, `unsupported cloudevent type ${event.type}`);
  const action = event.type.slice(prefix.length);
  if (action !== 'create_request' && action !== 'update_request' && action !== 'delete_request') {
    throw new MaestroError(400, `unsupported action ${action}`);
  }
  const consumer = requiredString(event, 'clustername');
  const id = requiredString(event, 'resourceid');
  const rawVersion = extension(event, 'resourceversion');
  const version = typeof rawVersion === 'number' ? rawVersion : Number(rawVersion ?? 0);
  if (!Number.isInteger(version) || version < 0) throw new MaestroError(400, `invalid resourceversion ${String(rawVersion)}`);
  let metadata: Record<string, unknown> = {};
  const rawMeta = extension(event, 'metadata');
  if (rawMeta !== undefined) {
    try {
      metadata = JSON.parse(String(rawMeta)) as Record<string, unknown>;
    } catch {
      throw new MaestroError(400, "cloudevent extension 'metadata' is not JSON");
    }
  }
  const data = (typeof event.data === 'string' ? JSON.parse(event.data) : event.data) as
    { manifests?: unknown; deleteOption?: Record<string, unknown>; manifestConfigs?: Record<string, unknown>[] } | undefined;
  const manifests = action === 'delete_request' ? [] : data?.manifests;
  if (!Array.isArray(manifests)) throw new MaestroError(400, 'data.manifests must be a list');
  manifests.forEach((m, i) => {
    const meta = (m as { metadata?: { name?: unknown } } | null)?.metadata;
    if (!m || typeof m !== 'object' || typeof (m as { kind?: unknown }).kind !== 'string' || typeof meta?.name !== 'string') {
      throw new MaestroError(400, `data.manifests[${i}] needs apiVersion, kind and metadata.name`);
    }
  });
  return {
    action,
    version,
    spec: {
      id,
      source: event.source,
      consumer,
      metadata,
      manifests: manifests as Record<string, unknown>[],
      ...(data?.deleteOption && { deleteOption: data.deleteOption }),
      ...(data?.manifestConfigs && { manifestConfigs: data.manifestConfigs }),
    },
  };
}
