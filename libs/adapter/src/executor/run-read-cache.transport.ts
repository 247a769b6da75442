import type { PropagationPolicy } from '../config/task-config.types.js';
import type { DeleteOutcome, DiscoveryQuery, KubeObject, ObjectRef, ResourceTransport } from '../transport/resource-transport.port.js';

/**
 * One execution's reads of the cluster, remembered until its first write. A pass reads the
 * same object up to three times before it writes anything: its pre-discovery, then the apply path's GET
 * by name and its discovery after "skip", or the delete path's discovery before the DELETE. Until the
 * pass writes, the second and third reads are answered with the first one's answer (absent included).
 * From its first write on nothing new is remembered, so whatever follows a write (the discovery after a
 * delete, the recreate wait's polling) reads the cluster as it is. A create or replace forgets every
 * answer. A delete forgets every answer about its own kind and every "present" answer (a delete may take
 * other objects with it: a Namespace's contents, garbage-collected dependents) but keeps "absent" answers
 * of other kinds: deleting an object never makes another one appear.
 *
 * Why this is safe: what a pass decides from an answer a few milliseconds old is what it would have
 * decided had the later read come back first (the cluster may change right after any read: the pass
 * never had more than that); every write is still checked against the run's fence right before it is
 * sent (run-fence.ts), a replace carries the resourceVersion it read (a change since is a 409 Conflict)
 * and a create of something created since is an AlreadyExists the apply path already handles. Failed
 * reads are never remembered. Answers are copied out, so no caller's change leaks into another's.
 */
export class RunReadCacheTransport implements ResourceTransport {
  private readonly objects = new Map<string, Remembered<KubeObject | undefined>>();
  private readonly lists = new Map<string, Remembered<KubeObject[]>>();
  private hasWritten = false;
  readonly discoverAll?: (query: DiscoveryQuery) => Promise<KubeObject[]>;

  constructor(private readonly inner: ResourceTransport) {
    if (inner.discoverAll) {
      const all = inner.discoverAll.bind(inner);
      this.discoverAll = async (query) => {
        if (query.byName !== undefined) {
          const found = await this.remembered({ ...query, name: query.byName }, async () => {
            const [only] = await all(query);
            return only;
          });
          return found ? [found] : [];
        }
        const key = JSON.stringify([query.apiVersion, query.kind, query.namespace ?? '', Object.entries(query.labelSelector ?? {}).sort()]);
        const known = this.lists.get(key);
        if (known) return structuredClone(known.value);
        const items = await all(query);
        if (!this.hasWritten) this.lists.set(key, { apiVersion: query.apiVersion, kind: query.kind, value: structuredClone(items) });
        return items;
      };
    }
  }

  /**
   * Reads the objects of several by-name discoveries at once and remembers the answers, so the pass's
   * discoveries one after another find them here: one round trip instead of one per resource.
   * Only before the first write (afterwards nothing is remembered, so it does nothing); a failed read is
   * not remembered and fails again, in order, when the pass makes it itself.
   */
  async prefetch(queries: readonly DiscoveryQuery[]): Promise<void> {
    if (this.hasWritten) return;
    await Promise.all(queries.filter((q) => q.byName !== undefined).map((q) => this.discover(q).catch(() => undefined)));
  }

  get(ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.remembered(ref, () => this.inner.get(ref));
  }

  discover(query: DiscoveryQuery): Promise<KubeObject | undefined> {
    if (query.byName === undefined) return this.inner.discover(query);
    return this.remembered({ ...query, name: query.byName }, () => this.inner.discover(query));
  }

  create(object: KubeObject): Promise<KubeObject> {
    this.forget(() => true);
    return this.inner.create(object);
  }

  replace(object: KubeObject): Promise<KubeObject> {
    this.forget(() => true);
    return this.inner.replace(object);
  }

  delete(ref: ObjectRef, propagationPolicy: PropagationPolicy): Promise<DeleteOutcome> {
    this.forget((entry) => (entry.apiVersion === ref.apiVersion && entry.kind === ref.kind) || isPresent(entry.value));
    return this.inner.delete(ref, propagationPolicy);
  }

  private async remembered(
    ref: { apiVersion: string; kind: string; namespace?: string; name: string },
    read: () => Promise<KubeObject | undefined>,
  ): Promise<KubeObject | undefined> {
    const key = JSON.stringify([ref.apiVersion, ref.kind, ref.namespace ?? '', ref.name]);
    const known = this.objects.get(key);
    if (known) return known.value && structuredClone(known.value);
    const found = await read();
    if (!this.hasWritten) this.objects.set(key, { apiVersion: ref.apiVersion, kind: ref.kind, value: found && structuredClone(found) });
    return found;
  }

  /** From the first write on nothing new is remembered; `stale` says which answers go now. */
  private forget(stale: (entry: Remembered<KubeObject | undefined | KubeObject[]>) => boolean): void {
    this.hasWritten = true;
    for (const [key, entry] of this.objects) if (stale(entry)) this.objects.delete(key);
    for (const [key, entry] of this.lists) if (stale(entry)) this.lists.delete(key);
  }
}

interface Remembered<T> {
  readonly apiVersion: string;
  readonly kind: string;
  readonly value: T;
}

/** An answer that names at least one object. */
function isPresent(value: KubeObject | undefined | KubeObject[]): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}
