/**
 * Field ownership for server-side apply, after structured-merge-diff (sigs.k8s.io/structured-merge-diff
 * `merge.Updater`) as kube-apiserver wires it (staging/src/k8s.io/apimachinery/pkg/util/managedfields):
 * - every write records, in `metadata.managedFields`, which manager set which fields
 *   (`fieldsType: FieldsV1`, `operation: Apply | Update`, `apiVersion`, `time`, `subresource`);
 * - an Update (POST, PUT, non-apply PATCH) takes the fields it changed from everyone else, without conflicts;
 * - an Apply owns exactly the fields of its configuration: applying a field another manager owns with
 *   another value is a conflict (409) unless forced, which moves the field to the applier; a field the
 *   manager applied before and leaves out now is removed, unless another manager still owns it.
 *
 * The model is the part of structured-merge-diff kubectl's default use reaches: object fields (`f:`),
 * lists merged by key (`k:`, the `x-kubernetes-patch-merge-key`s the server merges by), lists of scalars
 * merged as sets (`v:`, `metadata.finalizers`); every other list is atomic (owned as one field).
 * Server-set metadata (`name`, `uid`, `resourceVersion`, ...) and, outside the status subresource,
 * `status` are owned by nobody, as in kube-apiserver's field manager (`resetfields`).
 */
import { MERGE_KEYS, SET_LISTS } from './patches.js';

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

/** One owned field: its path elements (`f:data`, `k:{"name":"main"}`, `v:"x"`), joined by newlines. */
type FieldPath = string;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Metadata fields a client may own; the rest is set by the server. */
const OWNED_METADATA = new Set(['labels', 'annotations', 'finalizers', 'ownerReferences', 'generateName']);

/** The part of an object an operation on `subresource` owns fields in. */
function ownedPart(object: Json, subresource: string | undefined): Json {
  if (subresource === 'status') return object.status === undefined ? {} : { status: object.status };
  const part: Json = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === 'apiVersion' || key === 'kind' || key === 'status') continue;
    if (key === 'metadata' && isObject(value)) {
      const meta = Object.fromEntries(Object.entries(value).filter(([k]) => OWNED_METADATA.has(k)));
      if (Object.keys(meta).length > 0) part.metadata = meta;
      continue;
    }
    part[key] = value;
  }
  return part;
}

function keyElement(item: Json, key: string): string {
  return `k:${JSON.stringify({ [key]: item[key] })}`;
}

/** Collects the owned paths below `value` (reached by `path`) into `out`. */
function collect(value: unknown, path: string[], field: string | undefined, keyed: boolean, out: Set<FieldPath>): void {
  if (Array.isArray(value) && field !== undefined && keyed) {
    const keyOf = MERGE_KEYS[field];
    if (keyOf && value.every(isObject)) {
      out.add(path.join('\n'));
      for (const item of value as Json[]) {
        const elementPath = [...path, keyElement(item, keyOf(item))];
        out.add(elementPath.join('\n'));
        for (const [k, v] of Object.entries(item)) collect(v, [...elementPath, `f:${k}`], k, keyed, out);
      }
      return;
    }
    if (SET_LISTS.has(field)) {
      out.add(path.join('\n'));
      for (const item of value) out.add([...path, `v:${JSON.stringify(item)}`].join('\n'));
      return;
    }
  }
  if (isObject(value) && Object.keys(value).length > 0) {
    if (path.length > 0) out.add(path.join('\n'));
    for (const [k, v] of Object.entries(value)) collect(v, [...path, `f:${k}`], k, keyed, out);
    return;
  }
  out.add(path.join('\n'));
}

/**
 * The fields an object (or an apply configuration) sets, for an operation on `subresource`.
 * @param keyed whether lists merge by key (built-in kinds); custom resources' lists are atomic.
 */
export function fieldSetOf(object: Json, subresource: string | undefined, keyed: boolean): Set<FieldPath> {
  const out = new Set<FieldPath>();
  collect(ownedPart(object, subresource), [], undefined, keyed, out);
  out.delete('');
  return out;
}

/** Leaves only: a path none of whose longer paths is in the set (what a conflict or a removal is about). */
function leaves(set: ReadonlySet<FieldPath>): FieldPath[] {
  return [...set].filter((p) => ![...set].some((q) => q !== p && q.startsWith(`${p}\n`)));
}

/** The value at a path, or undefined. */
export function valueAt(object: unknown, path: FieldPath): unknown {
  let current: unknown = object;
  for (const element of path.split('\n')) {
    if (element.startsWith('f:')) {
      current = isObject(current) ? current[element.slice(2)] : undefined;
    } else if (element.startsWith('k:')) {
      const [[key, wanted]] = Object.entries(JSON.parse(element.slice(2)) as Json) as [[string, unknown]];
      current = Array.isArray(current) ? current.find((i) => isObject(i) && JSON.stringify(i[key]) === JSON.stringify(wanted)) : undefined;
    } else {
      const wanted = element.slice(2);
      current = Array.isArray(current) ? current.find((i) => JSON.stringify(i) === wanted) : undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/** Removes the field, list element or set member at `path` from `object`, in place. */
export function removeAt(object: Json, path: FieldPath): void {
  const elements = path.split('\n');
  const last = elements.pop()!;
  const parent = elements.length === 0 ? object : valueAt(object, elements.join('\n'));
  if (last.startsWith('f:')) {
    if (isObject(parent)) delete parent[last.slice(2)];
    return;
  }
  if (!Array.isArray(parent)) return;
  const index = parent.findIndex((i) =>
    last.startsWith('k:') ? valueAt([i], `k:${last.slice(2)}`) !== undefined : JSON.stringify(i) === last.slice(2),
  );
  if (index >= 0) parent.splice(index, 1);
}

/** FieldsV1 JSON of a set of paths (a `.` entry marks a list element owned as a whole). */
export function toFieldsV1(set: ReadonlySet<FieldPath>): Json {
  const root: Json = {};
  for (const path of [...set].sort()) {
    let node = root;
    for (const element of path.split('\n')) {
      if (!isObject(node[element])) node[element] = {};
      node = node[element] as Json;
    }
    if (path.split('\n').at(-1)!.startsWith('k:')) node['.'] = {};
  }
  return root;
}

/** The set of paths a FieldsV1 value names. */
export function fromFieldsV1(fields: unknown, prefix: string[] = [], out = new Set<FieldPath>()): Set<FieldPath> {
  if (!isObject(fields)) return out;
  for (const [element, child] of Object.entries(fields)) {
    if (element === '.') continue;
    const path = [...prefix, element];
    out.add(path.join('\n'));
    fromFieldsV1(child, path, out);
  }
  return out;
}

/** A field another manager owns that an apply would set to another value. */
export interface FieldConflict {
  /** `"name"`, or `"name" using v1 at <time>` for an Update manager (internal/conflict.go printManager). */
  readonly manager: string;
  /** `.data.a`, `.spec.template.spec.containers[name="main"].image`, as kube-apiserver prints it. */
  readonly field: string;
}

/** kube-apiserver's printed form of a path (structured-merge-diff `fieldpath.Path.String`). */
function printPath(path: FieldPath): string {
  return path
    .split('\n')
    .map((e) => {
      if (e.startsWith('f:')) return `.${e.slice(2)}`;
      if (e.startsWith('k:'))
        return `[${Object.entries(JSON.parse(e.slice(2)) as Json)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`;
      return `[=${e.slice(2)}]`;
    })
    .join('');
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function entriesOf(object: Json): ManagedFieldsEntry[] {
  const meta = object.metadata as { managedFields?: ManagedFieldsEntry[] } | undefined;
  return Array.isArray(meta?.managedFields) ? meta.managedFields : [];
}

const sameSlot = (e: ManagedFieldsEntry, manager: string, operation: string, subresource: string | undefined) =>
  e.manager === manager && e.operation === operation && (e.subresource ?? undefined) === subresource;

/** Entries with `taken` removed from every manager but the writer's own slot; empty entries dropped. */
function without(
  entries: readonly ManagedFieldsEntry[],
  taken: ReadonlySet<FieldPath>,
  keep: (e: ManagedFieldsEntry) => boolean,
): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const entry of entries) {
    if (keep(entry)) {
      out.push(entry);
      continue;
    }
    const set = fromFieldsV1(entry.fieldsV1);
    const before = new Set(set);
    for (const path of taken) set.delete(path);
    // A parent owned only through children that were taken goes with them.
    for (const path of [...set].sort((a, b) => b.length - a.length)) {
      const hadChildren = [...before].some((q) => q.startsWith(`${path}\n`));
      if (hadChildren && ![...set].some((q) => q.startsWith(`${path}\n`))) set.delete(path);
    }
    if (set.size > 0) out.push({ ...entry, fieldsV1: toFieldsV1(set) });
  }
  return out;
}

export interface Writer {
  readonly manager: string;
  readonly apiVersion: string;
  readonly time: string;
  readonly subresource?: string;
  readonly keyed: boolean;
}

/**
 * `managedFields` after an Update by `writer` from `before` (undefined on create) to `after`: the
 * writer's Update entry owns what it changed (on create: everything it set), other managers lose it.
 */
export function afterUpdate(before: Json | undefined, after: Json, writer: Writer): ManagedFieldsEntry[] {
  const entries = before ? entriesOf(before) : [];
  const now = fieldSetOf(after, writer.subresource, writer.keyed);
  const changed = new Set(leaves(now).filter((p) => !before || !sameValue(valueAt(before, p), valueAt(after, p))));
  // Parents of what changed come along (owning `f:data.f:a` means owning into `f:data`).
  for (const p of [...changed]) {
    const parts = p.split('\n');
    for (let i = 1; i < parts.length; i++) changed.add(parts.slice(0, i).join('\n'));
  }
  const gone = before ? [...fieldSetOf(before, writer.subresource, writer.keyed)].filter((p) => !now.has(p)) : [];
  const isMine = (e: ManagedFieldsEntry) => sameSlot(e, writer.manager, 'Update', writer.subresource);
  const others = without(entries, new Set([...leaves(changed), ...gone]), isMine).filter((e) => !isMine(e));
  const mine = entries.find(isMine);
  const owned = new Set([...(mine ? fromFieldsV1(mine.fieldsV1) : []), ...changed].filter((p) => now.has(p)));
  if (changed.size === 0 && !mine) return others;
  const entry: ManagedFieldsEntry = {
    manager: writer.manager,
    operation: 'Update',
    apiVersion: writer.apiVersion,
    time: changed.size > 0 || !mine ? writer.time : mine.time,
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(owned),
    ...(writer.subresource ? { subresource: writer.subresource } : {}),
  };
  return owned.size > 0 ? [...others, entry] : others;
}

export interface ApplyPlan {
  /** The live object with the fields this manager no longer applies (and nobody else owns) removed. */
  readonly pruned: Json;
  /** `managedFields` once the apply is stored. */
  readonly managedFields: ManagedFieldsEntry[];
}

/**
 * Plans an apply of `config` by `writer` onto `live`: conflicts, removals and the new ownership.
 * The caller merges `config` over `pruned` (strategic merge for built-in kinds).
 * @returns the plan, or the conflicts when there are some and `force` is false.
 */
export function planApply(live: Json, config: Json, writer: Writer, force: boolean): ApplyPlan | { conflicts: FieldConflict[] } {
  const entries = entriesOf(live);
  const applied = fieldSetOf(config, writer.subresource, writer.keyed);
  const isMine = (e: ManagedFieldsEntry) => sameSlot(e, writer.manager, 'Apply', writer.subresource);
  const conflicts: FieldConflict[] = [];
  const taken = new Set<FieldPath>();
  for (const entry of entries) {
    if (isMine(entry)) continue;
    for (const path of leaves(fromFieldsV1(entry.fieldsV1))) {
      if (!applied.has(path)) continue;
      const liveValue = valueAt(live, path);
      if (liveValue === undefined || sameValue(liveValue, valueAt(config, path))) continue;
      const who = entry.operation === 'Update' ? `"${entry.manager}" using ${entry.apiVersion} at ${entry.time}` : `"${entry.manager}"`;
      conflicts.push({ manager: who, field: printPath(path) });
      taken.add(path);
    }
  }
  if (conflicts.length > 0 && !force) return { conflicts };
  const previous = entries.find(isMine);
  const ownedByOthers = new Set(entries.filter((e) => !isMine(e)).flatMap((e) => [...fromFieldsV1(e.fieldsV1)]));
  const pruned = structuredClone(live);
  const dropped = previous ? [...fromFieldsV1(previous.fieldsV1)].filter((p) => !applied.has(p) && !ownedByOthers.has(p)) : [];
  // Longest first: a list element goes before (and with) its fields.
  for (const path of dropped.sort((a, b) => b.length - a.length)) removeAt(pruned, path);
  const others = without(entries, taken, isMine).filter((e) => !isMine(e));
  const entry: ManagedFieldsEntry = {
    manager: writer.manager,
    operation: 'Apply',
    apiVersion: writer.apiVersion,
    time: writer.time,
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(applied),
    ...(writer.subresource ? { subresource: writer.subresource } : {}),
  };
  return { pruned, managedFields: applied.size > 0 ? [...others, entry] : others };
}

/** `managedFields` compared without their `time`s (a write that changes nothing else keeps them). */
export function sameOwnership(a: readonly ManagedFieldsEntry[] | undefined, b: readonly ManagedFieldsEntry[] | undefined): boolean {
  const strip = (list: readonly ManagedFieldsEntry[] | undefined) => (list ?? []).map(({ time: _time, ...rest }) => rest);
  return sameValue(strip(a), strip(b));
}
