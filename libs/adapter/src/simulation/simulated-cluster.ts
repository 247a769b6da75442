import type { PropagationPolicy } from '../config/task-config.types.js';
import { isManifestWork, manifestWorkProblem, workManifests } from '../transport/maestro/manifest-work.js';
import { findInWork, manifestMatches } from '../transport/maestro/nested-manifests.js';
import { newestByGeneration } from '../transport/newest-generation.js';
import type { DeleteOutcome, DiscoveryQuery, KubeObject, ObjectRef, ResourceTransport } from '../transport/resource-transport.port.js';
import { TransportError } from '../transport/transport-error.js';

/** One call the executor made against the simulated cluster; `object` is the body it would send. */
export interface SimulatedCall {
  readonly verb: 'get' | 'discover' | 'create' | 'replace' | 'delete';
  readonly apiVersion: string;
  readonly kind: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly labelSelector?: Readonly<Record<string, string>>;
  /** `maestro:<consumer>` for ManifestWork calls. */
  readonly via?: string;
  readonly propagationPolicy?: PropagationPolicy;
  readonly object?: KubeObject;
  /** `found <name>`, `not-found`, `created`, `replaced`, `deleted`, `terminating (...)`, or an error. */
  readonly outcome: string;
}

export interface SimulatedClusterOptions {
  /** Read-only live cluster under the simulation (plan); absent = empty (dry run). */
  readonly live?: ResourceTransport;
  /** Read-only live Maestro per consumer (plan). */
  readonly liveMaestro?: (consumer: string) => ResourceTransport;
  /**
   * Objects that replace what is applied under their name, to stand for server-filled fields
   * (HyperFleet's dry-run discovery overrides, keyed by rendered `metadata.name`).
   */
  readonly overrides?: Readonly<Record<string, KubeObject>>;
  readonly now?: () => Date;
  /**
   * Every Kubernetes delete removes the object at once, finalizers and asynchronous kinds included, as
   * HyperFleet's dry-run client does (dry run; Maestro works stay asynchronous); default false (plan: finalizers hold, Namespace and
   * ManifestWork deletions complete on `settle()`).
   */
  readonly immediateDeletes?: boolean;
}

/** Kinds whose deletion completes later, even without finalizers (namespace controller, Maestro agent). */
const ASYNC_DELETE_KINDS = new Set(['Namespace', 'ManifestWork']);

type Entry = { readonly object: KubeObject } | { readonly deleted: true };

function keyOf(apiVersion: string, kind: string, namespace: string | undefined, name: string): string {
  return `${apiVersion}|${kind}|${namespace ?? ''}|${name}`;
}

function keyOfObject(object: KubeObject): string {
  return keyOf(object.apiVersion, object.kind, object.metadata.namespace, object.metadata.name);
}

function labelsMatch(object: KubeObject, labels: Readonly<Record<string, string>> | undefined): boolean {
  return Object.entries(labels ?? {}).every(([k, v]) => object.metadata.labels?.[k] === v);
}

/**
 * An in-memory cluster for dry runs and deletion plans: writes land in an overlay and are never
 * sent anywhere; reads see the overlay first, then the (read-only) live cluster when one is
 * given. Deletes are assumed to succeed: an object without finalizers is gone at once, or after
 * `settle()` for kinds deleted asynchronously (Namespace, ManifestWork); an object with
 * finalizers stays, terminating, as it would in a real cluster. Every call is recorded with the
 * body it would send.
 */
export class SimulatedCluster implements ResourceTransport {
  readonly calls: SimulatedCall[] = [];
  private readonly overlay = new Map<string, Entry>();
  private nextUid = 1;

  constructor(private readonly options: SimulatedClusterOptions = {}) {}

  /** Puts an object in the simulated cluster (dry-run discovery file). */
  seed(object: KubeObject): void {
    this.overlay.set(keyOfObject(object), { object: structuredClone(object) });
  }

  /** Completes asynchronous deletions (what the namespace controller / Maestro agent would do between passes). */
  settle(): string[] {
    const removed: string[] = [];
    for (const [key, entry] of this.overlay) {
      if ('object' in entry && entry.object.metadata.deletionTimestamp && !(entry.object.metadata.finalizers?.length ?? 0)) {
        this.overlay.set(key, { deleted: true });
        removed.push(
          `${entry.object.kind}/${entry.object.metadata.namespace ? `${entry.object.metadata.namespace}/` : ''}${entry.object.metadata.name}`,
        );
      }
    }
    return removed;
  }

  /** The view a Maestro consumer's transport has: ManifestWorks live in the consumer's namespace. */
  forConsumer(consumer: string): ResourceTransport {
    return new ConsumerView(this, consumer, this.options.liveMaestro?.(consumer));
  }

  get(ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.read(ref, this.options.live, undefined, true);
  }

  /** @internal shared with consumer views. */
  async read(
    ref: ObjectRef,
    live: ResourceTransport | undefined,
    via: string | undefined,
    record: boolean,
  ): Promise<KubeObject | undefined> {
    const entry = this.overlay.get(keyOf(ref.apiVersion, ref.kind, ref.namespace, ref.name));
    let found: KubeObject | undefined;
    if (entry) found = 'object' in entry ? structuredClone(entry.object) : undefined;
    else found = live ? await live.get(ref) : undefined;
    if (record)
      this.record({
        verb: 'get',
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        name: ref.name,
        ...ns(ref.namespace),
        ...viaOf(via),
        outcome: found ? 'found' : 'not-found',
      });
    return found;
  }

  discover(query: DiscoveryQuery): Promise<KubeObject | undefined> {
    return this.find(query, this.options.live, undefined);
  }

  async discoverAll(query: DiscoveryQuery): Promise<KubeObject[]> {
    return this.matches(query, this.options.live);
  }

  /** @internal */
  async find(query: DiscoveryQuery, live: ResourceTransport | undefined, via: string | undefined): Promise<KubeObject | undefined> {
    const found = newestByGeneration(await this.matches(query, live));
    this.record({
      verb: 'discover',
      apiVersion: query.apiVersion,
      kind: query.kind,
      ...(query.byName !== undefined && { name: query.byName }),
      ...ns(query.namespace),
      ...(query.labelSelector && { labelSelector: query.labelSelector }),
      ...viaOf(via),
      outcome: found ? `found ${found.metadata.name}` : 'not-found',
    });
    return found;
  }

  /** @internal Every object matching `query`: overlay objects, plus live ones the overlay does not shadow. */
  async matches(query: DiscoveryQuery, live: ResourceTransport | undefined): Promise<KubeObject[]> {
    if (query.byName !== undefined) {
      const one = await this.read(
        { apiVersion: query.apiVersion, kind: query.kind, name: query.byName, ...ns(query.namespace) },
        live,
        undefined,
        false,
      );
      return one ? [one] : [];
    }
    const fromLive = live
      ? live.discoverAll
        ? await live.discoverAll(query)
        : [await live.discover(query)].filter((o): o is KubeObject => !!o)
      : [];
    const result = new Map<string, KubeObject>();
    for (const object of fromLive) result.set(keyOf(query.apiVersion, query.kind, object.metadata.namespace, object.metadata.name), object);
    for (const [key, entry] of this.overlay) {
      const [apiVersion, kind, namespace] = key.split('|');
      if (apiVersion !== query.apiVersion || kind !== query.kind) continue;
      if (query.namespace !== undefined && namespace !== query.namespace) continue;
      if ('deleted' in entry) result.delete(key);
      else if (labelsMatch(entry.object, query.labelSelector)) result.set(key, structuredClone(entry.object));
      else result.delete(key);
    }
    return [...result.values()];
  }

  create(object: KubeObject): Promise<KubeObject> {
    return this.write('create', object, this.options.live, undefined);
  }

  replace(object: KubeObject): Promise<KubeObject> {
    return this.write('replace', object, this.options.live, undefined);
  }

  /** @internal */
  async write(
    verb: 'create' | 'replace',
    object: KubeObject,
    live: ResourceTransport | undefined,
    via: string | undefined,
  ): Promise<KubeObject> {
    const ref = { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name, ...ns(object.metadata.namespace) };
    const existing = await this.read(ref, live, via, false);
    const call = {
      verb,
      apiVersion: object.apiVersion,
      kind: object.kind,
      name: object.metadata.name,
      ...ns(object.metadata.namespace),
      ...viaOf(via),
      object: structuredClone(object),
    };
    if (verb === 'create' && existing) {
      this.record({ ...call, outcome: 'AlreadyExists' });
      throw new TransportError('AlreadyExists', `create ${object.kind} ${object.metadata.name}: already exists (simulated)`, 409);
    }
    const override = this.options.overrides?.[object.metadata.name];
    const stored: KubeObject = override
      ? {
          ...structuredClone(override),
          metadata: { ...structuredClone(override.metadata), name: object.metadata.name, ...ns(object.metadata.namespace) },
        }
      : structuredClone(object);
    stored.metadata.uid = existing?.metadata.uid ?? `simulated-${this.nextUid++}`;
    stored.metadata.resourceVersion = String(Number(existing?.metadata.resourceVersion ?? 0) + 1);
    stored.metadata.creationTimestamp ??=
      existing?.metadata['creationTimestamp'] ?? (this.options.now ?? (() => new Date()))().toISOString();
    this.overlay.set(keyOfObject(stored), { object: stored });
    this.record({ ...call, outcome: verb === 'create' ? 'created' : 'replaced' });
    return structuredClone(stored);
  }

  delete(ref: ObjectRef, propagationPolicy: PropagationPolicy): Promise<DeleteOutcome> {
    return this.remove(ref, propagationPolicy, this.options.live, undefined);
  }

  /** @internal */
  async remove(
    ref: ObjectRef,
    propagationPolicy: PropagationPolicy,
    live: ResourceTransport | undefined,
    via: string | undefined,
  ): Promise<DeleteOutcome> {
    const current = await this.read(ref, live, via, false);
    const call = {
      verb: 'delete' as const,
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      name: ref.name,
      ...ns(ref.namespace),
      ...viaOf(via),
      propagationPolicy,
    };
    if (!current) {
      this.record({ ...call, outcome: 'not-found' });
      return 'not-found';
    }
    const finalizers = current.metadata.finalizers ?? [];
    const key = keyOf(ref.apiVersion, ref.kind, ref.namespace, ref.name);
    // Maestro (`via`) stays asynchronous: HyperFleet's dry-run removes at once in its Kubernetes client only.
    if ((this.options.immediateDeletes && via === undefined) || (finalizers.length === 0 && !ASYNC_DELETE_KINDS.has(ref.kind))) {
      this.overlay.set(key, { deleted: true });
      this.record({ ...call, outcome: 'deleted' });
    } else {
      const at = current.metadata.deletionTimestamp ?? (this.options.now ?? (() => new Date()))().toISOString();
      this.overlay.set(key, { object: { ...current, metadata: { ...current.metadata, deletionTimestamp: at } } });
      this.record({
        ...call,
        outcome: finalizers.length > 0 ? `terminating (finalizers: ${finalizers.join(', ')})` : 'terminating (deleted asynchronously)',
      });
    }
    return 'deleted';
  }

  private record(call: SimulatedCall): void {
    this.calls.push(call);
  }
}

function ns(namespace: string | undefined): { namespace?: string } {
  return namespace ? { namespace } : {};
}

function viaOf(via: string | undefined): { via?: string } {
  return via ? { via } : {};
}

/** A Maestro consumer's view: works are namespaced by consumer; other kinds are looked up inside them. */
class ConsumerView implements ResourceTransport {
  private readonly via: string;

  constructor(
    private readonly cluster: SimulatedCluster,
    private readonly consumer: string,
    private readonly live: ResourceTransport | undefined,
  ) {
    this.via = `maestro:${consumer}`;
  }

  /** Refuses what the real Maestro transport would refuse before sending. */
  private checked(object: KubeObject): KubeObject {
    const problem = manifestWorkProblem(object);
    if (problem) throw new TransportError('Invalid', problem);
    return { ...object, metadata: { ...object.metadata, namespace: this.consumer } };
  }

  private scoped<T extends { namespace?: string }>(value: T): T {
    return { ...value, namespace: this.consumer };
  }

  private async works(): Promise<KubeObject[]> {
    return this.cluster.matches(
      { apiVersion: 'work.open-cluster-management.io/v1', kind: 'ManifestWork', namespace: this.consumer, labelSelector: {} },
      this.live,
    );
  }

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    if (isManifestWork(ref)) return this.cluster.read(this.scoped(ref), this.live, this.via, true);
    for (const work of await this.works()) {
      const found = findInWork(work, { apiVersion: ref.apiVersion, kind: ref.kind, byName: ref.name, namespace: ref.namespace ?? '' });
      if (found) return found;
    }
    return undefined;
  }

  async discover(query: DiscoveryQuery): Promise<KubeObject | undefined> {
    if (isManifestWork(query)) return this.cluster.find(this.scoped(query), this.live, this.via);
    return newestByGeneration(await this.discoverAll(query));
  }

  async discoverAll(query: DiscoveryQuery): Promise<KubeObject[]> {
    if (isManifestWork(query)) return this.cluster.matches(this.scoped(query), this.live);
    return (await this.works()).flatMap((work) =>
      workManifests(work)
        .filter((m) => manifestMatches(m, query))
        .map((m) => findInWork(work, { ...query, byName: m.metadata.name, namespace: m.metadata.namespace ?? '' }) as KubeObject),
    );
  }

  async create(object: KubeObject): Promise<KubeObject> {
    return this.cluster.write('create', this.checked(object), this.live, this.via);
  }

  async replace(object: KubeObject): Promise<KubeObject> {
    return this.cluster.write('replace', this.checked(object), this.live, this.via);
  }

  async delete(ref: ObjectRef, propagationPolicy: PropagationPolicy): Promise<DeleteOutcome> {
    if (!isManifestWork(ref))
      throw new TransportError('Invalid', `maestro transport deletes ManifestWorks only, not ${ref.apiVersion} ${ref.kind}`);
    return this.cluster.remove(this.scoped(ref), propagationPolicy, this.live, this.via);
  }
}
