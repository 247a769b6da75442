/**
 * In-memory object storage of the local API server (etcd's role): one Map per kind, keyed
 * `<namespace>/<name>`, and one global `resourceVersion` counter bumped by every write and delete.
 * Every change is appended to `changes`, the order a watch would have seen them in, and to the
 * bounded change window watches resume from.
 *
 * Stored objects are immutable snapshots (deep-frozen on write): `read`, `list` and the indexes hand
 * them out without copying, to controllers, watches and response serialization; `get` copies for
 * callers that build the next version. Indexes by uid, owner uid and namespace let controllers
 * find an object's dependents or a namespace's content without scanning the store.
 */
import { appendBounded } from './bounded-history.js';
import type { KubeObject } from './kube-object.js';
import { ChangeWindow, type WindowedChange } from './change-window.js';
import type { KindDef } from './kinds.js';
import { matchesLabels, type LabelRequirement } from './label-selector.js';

export type { KubeObject, ObjectMeta, OwnerReference } from './kube-object.js';

/** One change, as a watch event would report it; `resourceVersion` orders changes globally. */
export interface StoreChange {
  readonly resourceVersion: string;
  /** RFC 3339 UTC with milliseconds. */
  readonly time: string;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly uid: string;
}

/** What change listeners get: the change with the object as of it and the state before it (read-only). */
export type StoreEvent = WindowedChange;

/** A stored object together with the kind that serves it (read-only). */
export interface StoredEntry {
  readonly def: KindDef;
  readonly object: KubeObject;
}

/** A kind's objects, in insertion order; `index` is the kind's place in the store's iteration order. */
interface KindBucket {
  def: KindDef;
  readonly index: number;
  readonly objects: Map<string, Slot>;
}

/**
 * One stored object's place: stable while the object exists (MODIFIED keeps it, so does its
 * iteration position), replaced when it is removed and created again.
 */
export interface StoredSlot extends StoredEntry {
  /** Set once the object is removed; a new object under the same name gets a new slot. */
  readonly removed: boolean;
}

class Slot implements StoredSlot {
  removed = false;
  constructor(
    readonly bucket: KindBucket,
    /** Global insertion sequence: with `bucket.index`, the order a scan of the store visits objects in. */
    readonly order: number,
    public object: KubeObject,
  ) {}

  get def(): KindDef {
    return this.bucket.def;
  }
}

/** Store iteration order (kinds in the order first stored, then objects in insertion order): negative when `a` comes first. */
export function compareSlots(a: StoredSlot, b: StoredSlot): number {
  const x = a as Slot;
  const y = b as Slot;
  return x.bucket.index - y.bucket.index || x.order - y.order;
}

const kindKey = (def: KindDef): string => `${def.apiVersion}/${def.kind}`;
const objectKey = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

/** `<namespace>/<name>` (`/<name>` when cluster-scoped): the order lists come in, and what `continue` tokens hold. */
export const storageKey = (object: KubeObject): string => objectKey(object.metadata.namespace, object.metadata.name);

/** Byte-wise key order, as etcd sorts keys. */
export const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Freezes a JSON value and everything in it, so a stray write to a stored snapshot throws instead of corrupting it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const NO_SLOTS: ReadonlySet<Slot> = new Set();
const labelKey = (key: string, value: string): string => `${key}=${value}`;

export class ObjectStore {
  private readonly kinds = new Map<string, KindBucket>();
  private counter: number;
  private nextOrder = 0;
  private readonly changeLog: StoreChange[] = [];
  private readonly listeners: ((event: StoreEvent) => void)[] = [];
  private readonly byUid = new Map<string, Slot>();
  private readonly byOwnerUid = new Map<string, Set<Slot>>();
  private readonly byNamespace = new Map<string, Set<Slot>>();
  /** `key=value` → objects with that label. */
  private readonly byLabel = new Map<string, Set<Slot>>();
  /** The recent changes with object snapshots, for watches resuming from a `resourceVersion`. */
  readonly window: ChangeWindow;

  /**
   * @param now clock for change times
   * @param firstResourceVersion counter start (real clusters are never at 0)
   * @param windowSize changes kept for resuming watches (older `resourceVersion`s get 410 Expired)
   * @param changeLogLimit entries of `changes` kept (oldest dropped, bounded-history.ts); default unlimited
   */
  constructor(
    private readonly now: () => Date,
    firstResourceVersion = 1000,
    windowSize = 10_000,
    private readonly changeLogLimit = Number.POSITIVE_INFINITY,
  ) {
    this.counter = firstResourceVersion;
    this.window = new ChangeWindow(windowSize, firstResourceVersion);
  }

  get resourceVersion(): string {
    return String(this.counter);
  }

  get changes(): readonly StoreChange[] {
    return this.changeLog;
  }

  /** Called after every write or delete (controllers queue work, watches send the event). */
  onChange(listener: (event: StoreEvent) => void): void {
    this.listeners.push(listener);
  }

  /** A private copy of the object (to build its next version from), or undefined. */
  get(def: KindDef, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.read(def, namespace, name);
    return found ? structuredClone(found) : undefined;
  }

  /** The stored (frozen) object, or undefined. */
  read(def: KindDef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.slot(def, namespace, name)?.object;
  }

  /** The object's current slot, or undefined. */
  slot(def: KindDef, namespace: string | undefined, name: string): StoredSlot | undefined {
    return this.kinds.get(kindKey(def))?.objects.get(objectKey(namespace, name));
  }

  /**
   * The stored (frozen) objects of a kind (in `namespace` only, when given) that match `labels`,
   * sorted by namespace then name like etcd keys. An equality requirement (`a=b`, `a in (b,c)`)
   * narrows the candidates through the label index first, so a label-selected list does not scan the kind.
   */
  list(def: KindDef, namespace?: string, labels: readonly LabelRequirement[] = []): KubeObject[] {
    const bucket = this.kinds.get(kindKey(def));
    if (!bucket) return [];
    const keyed: [string, KubeObject][] = [];
    for (const slot of this.candidates(bucket, namespace, labels)) {
      const { metadata } = slot.object;
      if (slot.bucket !== bucket || (namespace !== undefined && metadata.namespace !== namespace)) continue;
      if (labels.length > 0 && !matchesLabels(labels, metadata.labels)) continue;
      keyed.push([objectKey(metadata.namespace, metadata.name), slot.object]);
    }
    return keyed.sort((a, b) => compareKeys(a[0], b[0])).map(([, object]) => object);
  }

  /** The smallest slot set known to hold every match: a label index entry, the namespace's objects, or the kind's. */
  private candidates(bucket: KindBucket, namespace: string | undefined, labels: readonly LabelRequirement[]): Iterable<Slot> {
    let best: Iterable<Slot> = namespace === undefined ? bucket.objects.values() : (this.byNamespace.get(namespace) ?? NO_SLOTS);
    let bestSize = namespace === undefined ? bucket.objects.size : (best as ReadonlySet<Slot>).size;
    for (const r of labels) {
      if (r.operator !== '=' && r.operator !== 'in') continue;
      const sets = r.values.map((value) => this.byLabel.get(labelKey(r.key, value)) ?? NO_SLOTS);
      const size = sets.reduce((n, set) => n + set.size, 0);
      if (size < bestSize) {
        bestSize = size;
        best = sets.length === 1 ? sets[0]! : sets.flatMap((set) => [...set]);
      }
    }
    return best;
  }

  /** Every stored object with its kind, in store order (kinds as first stored, then insertion order). */
  entries(): StoredSlot[] {
    const all: StoredSlot[] = [];
    for (const bucket of this.kinds.values()) for (const slot of bucket.objects.values()) all.push(slot);
    return all;
  }

  /** The current object with this `metadata.uid`, or undefined. */
  byUidOf(uid: string): StoredSlot | undefined {
    return this.byUid.get(uid);
  }

  /** Objects with an ownerReference to `uid`, in store order. */
  dependentsOf(uid: string): StoredSlot[] {
    return [...(this.byOwnerUid.get(uid) ?? NO_SLOTS)].sort(compareSlots);
  }

  /** Whether any object has an ownerReference to `uid`. */
  hasDependents(uid: string): boolean {
    return (this.byOwnerUid.get(uid)?.size ?? 0) > 0;
  }

  /** Objects of namespaced kinds in `namespace`, in store order. */
  inNamespace(namespace: string): StoredSlot[] {
    return [...(this.byNamespace.get(namespace) ?? NO_SLOTS)].filter((slot) => slot.def.namespaced).sort(compareSlots);
  }

  /**
   * Stores the object with the next `resourceVersion` and returns it. The store takes ownership:
   * the object is frozen, so the caller must pass a private one (from `get`, or built) and not change it afterwards.
   */
  write(def: KindDef, object: KubeObject): KubeObject {
    const bucket = this.bucketOf(def);
    const key = objectKey(object.metadata.namespace, object.metadata.name);
    object.metadata.resourceVersion = String(++this.counter);
    const stored = deepFreeze(object);
    const slot = bucket.objects.get(key);
    if (slot) {
      const previous = slot.object;
      this.unindex(slot);
      slot.object = stored;
      this.index(slot);
      this.record('MODIFIED', def, stored, previous);
    } else {
      const created = new Slot(bucket, this.nextOrder++, stored);
      bucket.objects.set(key, created);
      this.index(created);
      this.record('ADDED', def, stored, undefined);
    }
    return stored;
  }

  /** Removes the object (a delete consumes a `resourceVersion` too); returns its last state (frozen), or undefined. */
  remove(def: KindDef, namespace: string | undefined, name: string): KubeObject | undefined {
    const bucket = this.bucketOf(def);
    const key = objectKey(namespace, name);
    const slot = bucket.objects.get(key);
    if (!slot) return undefined;
    bucket.objects.delete(key);
    this.unindex(slot);
    slot.removed = true;
    const existing = slot.object;
    // Stored objects are never changed in place: watches and the window may still hold `existing`.
    const last = deepFreeze({ ...existing, metadata: { ...existing.metadata, resourceVersion: String(++this.counter) } });
    this.record('DELETED', def, last, existing);
    return last;
  }

  private bucketOf(def: KindDef): KindBucket {
    let bucket = this.kinds.get(kindKey(def));
    if (!bucket) {
      bucket = { def, index: this.kinds.size, objects: new Map() };
      this.kinds.set(kindKey(def), bucket);
    }
    bucket.def = def;
    return bucket;
  }

  private index(slot: Slot): void {
    const { metadata } = slot.object;
    this.byUid.set(metadata.uid, slot);
    for (const ref of metadata.ownerReferences ?? []) addTo(this.byOwnerUid, ref.uid, slot);
    if (metadata.namespace !== undefined) addTo(this.byNamespace, metadata.namespace, slot);
    for (const [key, value] of Object.entries(metadata.labels ?? {})) addTo(this.byLabel, labelKey(key, value), slot);
  }

  private unindex(slot: Slot): void {
    const { metadata } = slot.object;
    if (this.byUid.get(metadata.uid) === slot) this.byUid.delete(metadata.uid);
    for (const ref of metadata.ownerReferences ?? []) removeFrom(this.byOwnerUid, ref.uid, slot);
    if (metadata.namespace !== undefined) removeFrom(this.byNamespace, metadata.namespace, slot);
    for (const [key, value] of Object.entries(metadata.labels ?? {})) removeFrom(this.byLabel, labelKey(key, value), slot);
  }

  private record(type: StoreChange['type'], def: KindDef, object: KubeObject, previous: KubeObject | undefined): void {
    const change: StoreChange = {
      resourceVersion: object.metadata.resourceVersion,
      time: this.now().toISOString(),
      type,
      apiVersion: def.apiVersion,
      kind: def.kind,
      ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
      name: object.metadata.name,
      uid: object.metadata.uid,
    };
    appendBounded(this.changeLog, change, this.changeLogLimit);
    const event: StoreEvent = { resourceVersion: this.counter, type, def, object, ...(previous ? { previous } : {}) };
    this.window.push(event);
    for (const listener of this.listeners) listener(event);
  }
}

function addTo(index: Map<string, Set<Slot>>, key: string, slot: Slot): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(slot);
}

function removeFrom(index: Map<string, Set<Slot>>, key: string, slot: Slot): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(slot);
  if (set.size === 0) index.delete(key);
}
