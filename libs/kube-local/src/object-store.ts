/**
 * In-memory object storage of the local API server (etcd's role): one Map per kind, keyed
 * `<namespace>/<name>`, and one global `resourceVersion` counter bumped by every write and delete.
 * Every change is appended to `changes`, the order a watch would have seen them in.
 */
import { ChangeWindow, type WindowedChange } from './change-window.js';
import type { KindDef } from './kinds.js';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  generateName?: string;
  uid: string;
  /** Decimal string of the global counter at the object's last write. */
  resourceVersion: string;
  generation: number;
  /** RFC 3339 UTC, whole seconds. */
  creationTimestamp: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [field: string]: unknown;
}

/** A stored object: plain JSON, as clients send and receive it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

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

/** A stored object together with the kind that serves it. */
export interface StoredEntry {
  readonly def: KindDef;
  readonly object: KubeObject;
}

const kindKey = (def: KindDef): string => `${def.apiVersion}/${def.kind}`;
const objectKey = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

/** `<namespace>/<name>` (`/<name>` when cluster-scoped): the order lists come in, and what `continue` tokens hold. */
export const storageKey = (object: KubeObject): string => objectKey(object.metadata.namespace, object.metadata.name);

/** Byte-wise key order, as etcd sorts keys. */
export const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class ObjectStore {
  private readonly kinds = new Map<string, { def: KindDef; objects: Map<string, KubeObject> }>();
  private counter: number;
  private readonly changeLog: StoreChange[] = [];
  private readonly listeners: ((event: StoreEvent) => void)[] = [];
  /** The recent changes with object snapshots, for watches resuming from a `resourceVersion`. */
  readonly window: ChangeWindow;

  /**
   * @param now clock for change times
   * @param firstResourceVersion counter start (real clusters are never at 0)
   * @param windowSize changes kept for resuming watches (older `resourceVersion`s get 410 Expired)
   */
  constructor(
    private readonly now: () => Date,
    firstResourceVersion = 1000,
    windowSize = 10_000,
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

  /** Called after every write or delete (controllers schedule a pass, watches send the event). */
  onChange(listener: (event: StoreEvent) => void): void {
    this.listeners.push(listener);
  }

  /** A copy of the object, or undefined. */
  get(def: KindDef, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.kinds.get(kindKey(def))?.objects.get(objectKey(namespace, name));
    return found ? structuredClone(found) : undefined;
  }

  /** Copies of the kind's objects (in `namespace` only, when given), sorted by namespace then name like etcd keys. */
  list(def: KindDef, namespace?: string): KubeObject[] {
    const objects = [...(this.kinds.get(kindKey(def))?.objects.values() ?? [])];
    return objects
      .filter((o) => namespace === undefined || o.metadata.namespace === namespace)
      .sort((a, b) => compareKeys(storageKey(a), storageKey(b)))
      .map((o) => structuredClone(o));
  }

  /** Copies of every stored object with its kind (controllers scan these). */
  entries(): StoredEntry[] {
    const all: StoredEntry[] = [];
    for (const { def, objects } of this.kinds.values()) {
      for (const object of objects.values()) all.push({ def, object: structuredClone(object) });
    }
    return all;
  }

  /** Stores the object with the next `resourceVersion`; returns the stored copy. */
  write(def: KindDef, object: KubeObject): KubeObject {
    const objects = this.objectsOf(def);
    const key = objectKey(object.metadata.namespace, object.metadata.name);
    const previous = objects.get(key);
    const stored = structuredClone(object);
    stored.metadata.resourceVersion = String(++this.counter);
    objects.set(key, stored);
    this.record(previous ? 'MODIFIED' : 'ADDED', def, stored, previous);
    return structuredClone(stored);
  }

  /** Removes the object (a delete consumes a `resourceVersion` too); returns the removed copy, or undefined. */
  remove(def: KindDef, namespace: string | undefined, name: string): KubeObject | undefined {
    const objects = this.objectsOf(def);
    const key = objectKey(namespace, name);
    const existing = objects.get(key);
    if (!existing) return undefined;
    objects.delete(key);
    // Stored objects are never changed in place: watches and the window may still hold `existing`.
    const last: KubeObject = { ...existing, metadata: { ...existing.metadata, resourceVersion: String(++this.counter) } };
    this.record('DELETED', def, last, existing);
    return structuredClone(last);
  }

  private objectsOf(def: KindDef): Map<string, KubeObject> {
    let entry = this.kinds.get(kindKey(def));
    if (!entry) {
      entry = { def, objects: new Map() };
      this.kinds.set(kindKey(def), entry);
    }
    entry.def = def;
    return entry.objects;
  }

  private record(type: StoreChange['type'], def: KindDef, object: KubeObject, previous: KubeObject | undefined): void {
    this.changeLog.push({
      resourceVersion: object.metadata.resourceVersion,
      time: this.now().toISOString(),
      type,
      apiVersion: def.apiVersion,
      kind: def.kind,
      ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
      name: object.metadata.name,
      uid: object.metadata.uid,
    });
    const event: StoreEvent = { resourceVersion: this.counter, type, def, object, ...(previous ? { previous } : {}) };
    this.window.push(event);
    for (const listener of this.listeners) listener(event);
  }
}
