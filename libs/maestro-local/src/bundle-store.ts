import { MaestroError } from './maestro-errors.js';
import type { ResourceBundle } from './resource-bundle.js';

/** What a source publishes for a work (from the CloudEvent's extensions and data). */
export interface BundleSpec {
  readonly id: string;
  readonly source: string;
  readonly consumer: string;
  readonly metadata: Record<string, unknown>;
  readonly manifests: readonly Record<string, unknown>[];
  readonly deleteOption?: Record<string, unknown>;
  readonly manifestConfigs?: readonly Record<string, unknown>[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const BASE = '/api/maestro/v1/resource-bundles';

/**
 * Resource bundles by id, as Maestro's database holds them. Versions start at 1 and grow by one
 * per accepted update; an update must name the current version (optimistic concurrency, like
 * Maestro's resource service). A bundle being deleted keeps `deleted_at` until removed.
 */
export class BundleStore {
  private readonly byId = new Map<string, Mutable<ResourceBundle>>();

  /** @param observe told of every status report and confirmed removal (the gRPC status stream). */
  constructor(
    private readonly now: () => Date,
    private readonly observe: (bundle: ResourceBundle, removed: boolean) => void = () => undefined,
  ) {}

  get(id: string): ResourceBundle | undefined {
    return this.byId.get(id);
  }

  list(): ResourceBundle[] {
    return [...this.byId.values()];
  }

  /** @throws MaestroError 409 when a bundle with this id exists. */
  create(spec: BundleSpec): ResourceBundle {
    if (this.byId.has(spec.id)) throw new MaestroError(409, `resource bundle ${spec.id} already exists`);
    const at = this.now().toISOString();
    const bundle: Mutable<ResourceBundle> = {
      id: spec.id,
      kind: 'ResourceBundle',
      href: `${BASE}/${spec.id}`,
      name: String(spec.metadata['name'] ?? spec.id),
      consumer_name: spec.consumer,
      source: spec.source,
      version: 1,
      created_at: at,
      updated_at: at,
      metadata: { ...spec.metadata, uid: spec.id, namespace: spec.consumer, creationTimestamp: at },
      manifests: spec.manifests,
      ...(spec.deleteOption && { delete_option: spec.deleteOption }),
      ...(spec.manifestConfigs && { manifest_configs: spec.manifestConfigs }),
    };
    this.byId.set(spec.id, bundle);
    return bundle;
  }

  /** @throws MaestroError 404 (absent), 409 (being deleted, or `version` is not the current one). */
  update(spec: BundleSpec, version: number): ResourceBundle {
    const bundle = this.byId.get(spec.id);
    if (!bundle) throw new MaestroError(404, `resource bundle ${spec.id} not found`);
    if (bundle.deleted_at) throw new MaestroError(409, `resource bundle ${spec.id} is being deleted`);
    if (bundle.version !== version) {
      throw new MaestroError(409, `resource bundle ${spec.id} version conflict: current ${bundle.version}, got ${version}`);
    }
    bundle.version += 1;
    bundle.updated_at = this.now().toISOString();
    bundle.metadata = { ...bundle.metadata, ...spec.metadata, uid: spec.id, namespace: spec.consumer };
    bundle.name = String(bundle.metadata['name'] ?? spec.id);
    bundle.manifests = spec.manifests;
    if (spec.deleteOption) bundle.delete_option = spec.deleteOption;
    if (spec.manifestConfigs) bundle.manifest_configs = spec.manifestConfigs;
    return bundle;
  }

  setStatus(id: string, status: NonNullable<ResourceBundle['status']>): void {
    const bundle = this.byId.get(id);
    if (!bundle) return;
    bundle.status = status;
    this.observe(bundle, false);
  }

  /** Marks a deletion request (idempotent). @throws MaestroError 404. */
  markDeleting(id: string): ResourceBundle {
    const bundle = this.byId.get(id);
    if (!bundle) throw new MaestroError(404, `resource bundle ${id} not found`);
    if (!bundle.deleted_at) {
      bundle.deleted_at = this.now().toISOString();
      bundle.metadata = { ...bundle.metadata, deletionTimestamp: bundle.deleted_at };
    }
    return bundle;
  }

  remove(id: string): void {
    const bundle = this.byId.get(id);
    this.byId.delete(id);
    if (bundle) this.observe(bundle, true);
  }
}
