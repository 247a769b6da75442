/**
 * The PATCH body formats the local API server applies: JSON merge patch (RFC 7386), JSON patch
 * (RFC 6902) and an approximation of Kubernetes' strategic merge patch.
 * Hand-rolled: the project has no JSON-patch dependency, and each format is a few dozen lines here.
 */

export const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

/** A patch that cannot be applied (bad pointer, failed `test`, wrong body shape). */
export class PatchError extends Error {
  override readonly name = 'PatchError';
}

type Json = unknown;
type JsonObject = Record<string, Json>;

const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386: objects merge recursively, `null` deletes a key, anything else (arrays too) replaces. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  const result: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setMember(result, key, applyMergePatch(member(result, key), value));
  }
  return result;
}

/**
 * A member of `parent` named `token`: an own property only. A JSON pointer names members of the document, and
 * `__proto__` or `constructor` of a plain object is not one: following them would reach (and let a patch
 * change) `Object.prototype` of the whole process.
 */
function member(parent: JsonObject, token: string): Json | undefined {
  return Object.hasOwn(parent, token) ? parent[token] : undefined;
}

/** Sets an own property, also for a key like `__proto__` (a plain assignment would replace the prototype). */
function setMember(parent: JsonObject, token: string, value: Json): void {
  Object.defineProperty(parent, token, { value, writable: true, enumerable: true, configurable: true });
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`invalid JSON pointer '${pointer}'`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Resolves the parent container of `pointer` and the last token. */
function locate(doc: Json, pointer: string): { parent: Json; token: string } {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw new PatchError('operations on the document root are not supported');
  let parent: Json = doc;
  for (const token of tokens.slice(0, -1)) {
    parent = Array.isArray(parent) ? parent[Number(token)] : isObject(parent) ? member(parent, token) : undefined;
    if (parent === undefined) throw new PatchError(`path '${pointer}' does not exist`);
  }
  return { parent, token: tokens[tokens.length - 1]! };
}

function read(doc: Json, pointer: string): Json {
  const { parent, token } = locate(doc, pointer);
  const value = Array.isArray(parent) ? parent[Number(token)] : isObject(parent) ? member(parent, token) : undefined;
  if (value === undefined) throw new PatchError(`path '${pointer}' does not exist`);
  return value;
}

function put(doc: Json, pointer: string, value: Json, insert: boolean): void {
  const { parent, token } = locate(doc, pointer);
  if (Array.isArray(parent)) {
    const index = token === '-' ? parent.length : Number(token);
    if (!Number.isInteger(index) || index < 0 || index > parent.length)
      throw new PatchError(`index '${token}' out of range at '${pointer}'`);
    if (insert) parent.splice(index, 0, value);
    else if (index < parent.length) parent[index] = value;
    else throw new PatchError(`path '${pointer}' does not exist`);
  } else if (isObject(parent)) {
    if (!insert && !Object.hasOwn(parent, token)) throw new PatchError(`path '${pointer}' does not exist`);
    setMember(parent, token, value);
  } else {
    throw new PatchError(`path '${pointer}' does not exist`);
  }
}

function removeAt(doc: Json, pointer: string): void {
  read(doc, pointer);
  const { parent, token } = locate(doc, pointer);
  if (Array.isArray(parent)) parent.splice(Number(token), 1);
  else delete (parent as JsonObject)[token];
}

/**
 * RFC 6902 operations `add`, `remove`, `replace`, `move`, `copy`, `test`, applied to a copy.
 * @throws PatchError for a malformed patch, a missing path or a failed `test`.
 */
export function applyJsonPatch(target: Json, operations: Json): Json {
  if (!Array.isArray(operations)) throw new PatchError('a JSON patch must be an array of operations');
  const doc = structuredClone(target);
  for (const op of operations) {
    if (!isObject(op) || typeof op.op !== 'string' || typeof op.path !== 'string') {
      throw new PatchError(`invalid JSON patch operation: ${JSON.stringify(op)}`);
    }
    switch (op.op) {
      case 'add':
        put(doc, op.path, structuredClone(op.value), true);
        break;
      case 'replace':
        put(doc, op.path, structuredClone(op.value), false);
        break;
      case 'remove':
        removeAt(doc, op.path);
        break;
      case 'move':
      case 'copy': {
        const value = structuredClone(read(doc, String(op.from)));
        if (op.op === 'move') removeAt(doc, String(op.from));
        put(doc, op.path, value, true);
        break;
      }
      case 'test':
        if (JSON.stringify(read(doc, op.path)) !== JSON.stringify(op.value)) {
          throw new PatchError(`testing value ${op.path} failed: test failed`);
        }
        break;
      default:
        throw new PatchError(`unexpected JSON patch operation '${op.op}'`);
    }
  }
  return doc;
}

/** Lists merged by a key instead of replaced (the `patchMergeKey` tags of the built-in types we serve). */
export const MERGE_KEYS: Readonly<Record<string, (item: JsonObject) => string>> = {
  containers: () => 'name',
  initContainers: () => 'name',
  ephemeralContainers: () => 'name',
  volumes: () => 'name',
  env: () => 'name',
  imagePullSecrets: () => 'name',
  volumeMounts: () => 'mountPath',
  ownerReferences: () => 'uid',
  conditions: () => 'type',
  ports: (item) => ('containerPort' in item ? 'containerPort' : 'port'),
};

/** Lists of scalars merged as sets (`patchStrategy: merge` on `metadata.finalizers`). */
export const SET_LISTS: ReadonlySet<string> = new Set(['finalizers']);

function mergeKeyedList(existing: Json, items: Json[], keyOf: (item: JsonObject) => string): Json[] {
  if (items.some((i) => isObject(i) && i.$patch === 'replace')) return items.filter((i) => !(isObject(i) && i.$patch));
  const result = Array.isArray(existing) ? [...existing] : [];
  for (const item of items) {
    if (!isObject(item)) {
      result.push(item);
      continue;
    }
    const key = keyOf(item);
    const index = result.findIndex((e) => isObject(e) && e[key] === item[key]);
    if (item.$patch === 'delete') {
      if (index >= 0) result.splice(index, 1);
    } else if (index >= 0) {
      result[index] = applyStrategicMergePatch(result[index], item);
    } else {
      result.push(applyStrategicMergePatch({}, item));
    }
  }
  return result;
}

/**
 * Strategic merge patch, approximated: merge-patch semantics, plus keyed merging of the lists in
 * `MERGE_KEYS`, set-merging of `finalizers`, and the directives `$patch: replace|delete` and
 * `$deleteFromPrimitiveList/<field>`; `$setElementOrder` and `$retainKeys` are ignored.
 */
export function applyStrategicMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _directive, ...rest } = patch;
    return structuredClone(rest);
  }
  const result: JsonObject = isObject(target) ? { ...target } : {};
  const deletions: [string, Json][] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys' || key.startsWith('$setElementOrder/')) continue;
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      deletions.push([key.slice('$deleteFromPrimitiveList/'.length), value]);
    } else if (value === null || (isObject(value) && value.$patch === 'delete')) {
      delete result[key];
    } else if (Array.isArray(value) && Object.hasOwn(MERGE_KEYS, key) && value.every(isObject)) {
      setMember(result, key, mergeKeyedList(member(result, key), value, MERGE_KEYS[key]!));
    } else if (Array.isArray(value) && SET_LISTS.has(key)) {
      const present = member(result, key);
      const current = Array.isArray(present) ? present : [];
      setMember(result, key, [...current, ...value.filter((v) => !current.includes(v))]);
    } else {
      setMember(result, key, applyStrategicMergePatch(member(result, key), value));
    }
  }
  for (const [field, values] of deletions) {
    if (Array.isArray(result[field]) && Array.isArray(values)) {
      result[field] = (result[field] as Json[]).filter((v) => !values.includes(v));
    }
  }
  return result;
}
