import type { PropagationPolicy } from '../../config/task-config.types.js';
import { newestByGeneration } from '../newest-generation.js';
import type { DeleteOutcome, DiscoveryQuery, KubeObject, ObjectRef, ResourceTransport } from '../resource-transport.port.js';
import { TransportError } from '../transport-error.js';
import type { MaestroHttpClient, SpecEvent } from './maestro-http.client.js';
import { isManifestWork, manifestWorkId, manifestWorkProblem, workManifests } from './manifest-work.js';
import { findInWork, manifestMatches } from './nested-manifests.js';
import { bundleToManifestWork } from './resource-bundle.js';

function refOf(object: KubeObject): ObjectRef {
  return { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name };
}

/** SQL-ish string literal for Maestro's search (`'` doubled). */
function quote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Sends ManifestWork spec events: `MaestroGrpcSourceClient` (gRPC) or `MaestroHttpClient` (HTTP fallback). */
export interface SpecPublisher {
  publish(spec: SpecEvent): Promise<void>;
}

/**
 * `ResourceTransport` for one Maestro consumer (`transport.maestro.target_cluster`): ManifestWorks
 * are applied, read and deleted through Maestro; any other kind is looked up inside the
 * consumer's works (as hyperfleet-adapter's maestro client does). Deletion is asynchronous: the
 * work stays, with `deletionTimestamp`, until the agent confirms it. `propagationPolicy` is
 * ignored (a work's own `spec.deleteOption` governs its manifests). Reads and deletes go through
 * the REST API; create/update specs through `publisher`.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go "transport", docs/adapter-maestro.md.
 */
export class MaestroTransport implements ResourceTransport {
  constructor(
    private readonly client: MaestroHttpClient,
    readonly consumer: string,
    /** Where create/update specs go; default the HTTP client's CloudEvents endpoint. */
    private readonly publisher: SpecPublisher = client,
  ) {}

  private id(name: string): string {
    return manifestWorkId(this.client.sourceId, this.consumer, name);
  }

  private async works(labels?: Readonly<Record<string, string>>): Promise<KubeObject[]> {
    const terms = [`source=${quote(this.client.sourceId)}`, `consumer_name=${quote(this.consumer)}`];
    if (labels && Object.keys(labels).length > 0) terms.push(`payload->'metadata'->'labels'@>${quote(JSON.stringify(labels))}`);
    return (await this.client.listBundles(terms.join(' and '))).map(bundleToManifestWork);
  }

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    if (isManifestWork(ref)) {
      const bundle = await this.client.getBundle(this.id(ref.name));
      return bundle && bundleToManifestWork(bundle);
    }
    const query = { apiVersion: ref.apiVersion, kind: ref.kind, byName: ref.name, namespace: ref.namespace ?? '' };
    for (const work of await this.works()) {
      const found = findInWork(work, query);
      if (found) return found;
    }
    return undefined;
  }

  async discover(query: DiscoveryQuery): Promise<KubeObject | undefined> {
    return newestByGeneration(await this.discoverAll(query));
  }

  async discoverAll(query: DiscoveryQuery): Promise<KubeObject[]> {
    if (isManifestWork(query)) {
      if (query.byName === undefined) return this.works(query.labelSelector);
      const found = await this.get({ apiVersion: query.apiVersion, kind: query.kind, name: query.byName });
      return found ? [found] : [];
    }
    return (await this.works()).flatMap((work) =>
      workManifests(work)
        .filter((m) => manifestMatches(m, query))
        .map((m) => findInWork(work, { ...query, byName: m.metadata.name, namespace: m.metadata.namespace ?? '' }) as KubeObject),
    );
  }

  private spec(work: KubeObject): { manifests: unknown[]; deleteOption?: unknown; manifestConfigs?: unknown } {
    const spec = (work['spec'] ?? {}) as { deleteOption?: unknown; manifestConfigs?: unknown };
    return {
      manifests: workManifests(work),
      ...(spec.deleteOption !== undefined && { deleteOption: spec.deleteOption }),
      ...(spec.manifestConfigs !== undefined && { manifestConfigs: spec.manifestConfigs }),
    };
  }

  private metadata(work: KubeObject): Record<string, unknown> {
    const { name, labels, annotations } = work.metadata;
    return { name, namespace: this.consumer, ...(labels && { labels }), ...(annotations && { annotations }) };
  }

  private check(work: KubeObject): void {
    const problem = manifestWorkProblem(work);
    if (problem) throw new TransportError('Invalid', problem);
  }

  async create(object: KubeObject): Promise<KubeObject> {
    this.check(object);
    const resourceId = this.id(object.metadata.name);
    await this.publisher.publish({
      action: 'create_request',
      consumer: this.consumer,
      resourceId,
      resourceVersion: 0,
      metadata: this.metadata(object),
      bundle: this.spec(object),
    });
    return (await this.get(refOf(object))) ?? object;
  }

  /** Sends the whole spec as an update of the version in `metadata.resourceVersion` (the one read). */
  async replace(object: KubeObject): Promise<KubeObject> {
    this.check(object);
    const resourceId = this.id(object.metadata.name);
    let version = Number(object.metadata.resourceVersion);
    if (!Number.isInteger(version) || version < 1) {
      const current = await this.client.getBundle(resourceId);
      if (!current)
        throw new TransportError('NotFound', `maestro update: work ${this.consumer}/${object.metadata.name} does not exist`, 404);
      version = current.version ?? 1;
    }
    await this.publisher.publish({
      action: 'update_request',
      consumer: this.consumer,
      resourceId,
      resourceVersion: version,
      metadata: this.metadata(object),
      bundle: this.spec(object),
    });
    return (await this.get(refOf(object))) ?? object;
  }

  async delete(ref: ObjectRef, _propagationPolicy: PropagationPolicy): Promise<DeleteOutcome> {
    if (!isManifestWork(ref)) {
      throw new TransportError('Invalid', `maestro transport deletes ManifestWorks only, not ${ref.apiVersion} ${ref.kind}`);
    }
    return this.client.deleteBundle(this.id(ref.name));
  }
}
