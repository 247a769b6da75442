/**
 * OpenAPI documents of the local API server, for clients that read them (kubectl's `apply`,
 * `create -f` validation, `explain`): `/openapi/v2` (Swagger 2.0, JSON) and `/openapi/v3` with one
 * OpenAPI 3.0 document per group-version at `/openapi/v3/<api|apis/group>/<version>`
 * (staging/src/k8s.io/kube-openapi/pkg/handler3). Generated from the schemas the server validates
 * and prunes bodies with (object-schema.ts): the field tree of `@kubernetes/client-node`'s models and
 * the `required` lists of the `kubernetes-models` validators, so what kubectl checks is what the
 * server enforces. As kube-apiserver does, each kind's schema and PATCH operation carry
 * `x-kubernetes-group-version-kind`, PATCH lists the `fieldValidation` / `dryRun` / `fieldManager`
 * query parameters (kubectl then leaves validation to the server) and its patch content types, and
 * the keyed lists of strategic merge patch carry `x-kubernetes-patch-merge-key` / `-strategy`.
 * Custom resources are described as objects that keep unknown fields, as a CRD without a schema is.
 */
import { createHash } from 'node:crypto';
import * as models from '@kubernetes/client-node';
import type { KindDef, KindRegistry } from './kinds.js';
import { requiredFieldsOf, schemaModelOf } from './object-schema.js';
import { MERGE_KEYS, PATCH_TYPES, SET_LISTS } from './patches.js';

type Schema = Record<string, unknown>;

interface Attribute {
  readonly baseName: string;
  readonly type: string;
  readonly format: string;
}

type ModelClass = { getAttributeTypeMap(): Attribute[] };

const MAP_OF = /^\{ \[key: string\]: (.+); \}$/;
const ARRAY_OF = /^Array<(.+)>$/;

function modelOf(type: string): ModelClass | undefined {
  const candidate = (models as unknown as Record<string, unknown>)[type];
  return typeof candidate === 'function' && 'getAttributeTypeMap' in candidate ? (candidate as ModelClass) : undefined;
}

/** Collects the definitions reachable from `model` into `out`, keyed by model name; `ref` builds a `$ref`. */
class DefinitionBuilder {
  readonly out: Record<string, Schema> = {};

  constructor(private readonly ref: (name: string) => string) {}

  /** The schema of one attribute type; `field` is the property name (for patch extensions). */
  schemaOf(type: string, format: string, field?: string): Schema {
    const array = ARRAY_OF.exec(type);
    if (array) {
      const items = this.schemaOf(array[1]!, '');
      const key = field !== undefined && items.$ref !== undefined ? MERGE_KEYS[field] : undefined;
      // The one key that depends on the list: a container's ports merge by containerPort, a Service's by port.
      const sample = array[1] === 'V1ContainerPort' ? { containerPort: 0 } : {};
      return {
        type: 'array',
        items,
        ...(key ? { 'x-kubernetes-patch-merge-key': key(sample), 'x-kubernetes-patch-strategy': 'merge' } : {}),
        ...(field !== undefined && SET_LISTS.has(field) ? { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' } : {}),
      };
    }
    const map = MAP_OF.exec(type);
    if (map) return { type: 'object', additionalProperties: this.schemaOf(map[1]!, '') };
    switch (type) {
      case 'string':
        return { type: 'string', ...(format ? { format } : {}) };
      case 'number':
        return format === 'double' ? { type: 'number', format } : { type: 'integer', ...(format ? { format } : {}) };
      case 'boolean':
        return { type: 'boolean' };
      case 'Date':
        return { type: 'string', format: 'date-time' };
      case 'V1MicroTime':
        return { type: 'string', format: 'date-time' };
      case 'IntOrString':
        return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
      case 'any':
        return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
      default:
        return modelOf(type) ? { $ref: this.ref(this.add(type)) } : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    }
  }

  /** Adds the definition of a model class (and what it references); returns its name. */
  add(type: string, extra: Schema = {}): string {
    if (this.out[type] === undefined) {
      this.out[type] = {};
      const properties: Record<string, Schema> = {};
      for (const a of modelOf(type)!.getAttributeTypeMap()) properties[a.baseName] = this.schemaOf(a.type, a.format, a.baseName);
      const required = requiredFieldsOf(type);
      this.out[type] = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
    }
    Object.assign(this.out[type]!, extra);
    return type;
  }
}

const gvkOf = (def: KindDef) => ({ group: def.group, version: def.version, kind: def.kind });

/** The collection and item paths of a kind, `{namespace}` and `{name}` as parameters. */
function pathsOf(def: KindDef): { collection: string; item: string } {
  const prefix = def.group === '' ? `/api/${def.version}` : `/apis/${def.group}/${def.version}`;
  const scope = def.namespaced ? `${prefix}/namespaces/{namespace}` : prefix;
  return { collection: `${scope}/${def.plural}`, item: `${scope}/${def.plural}/{name}` };
}

const WRITE_PARAMETERS = ['dryRun', 'fieldManager', 'fieldValidation'];

/** The operations kube-apiserver lists for a kind, shaped for Swagger 2 (`v2`) or OpenAPI 3. */
function operationsOf(def: KindDef, ref: string, v2: boolean): Record<string, Record<string, unknown>> {
  const gvk = { 'x-kubernetes-group-version-kind': gvkOf(def) };
  const query = (name: string) =>
    v2 ? { name, in: 'query', type: 'string', uniqueItems: true } : { name, in: 'query', schema: { type: 'string', uniqueItems: true } };
  const path = (name: string) =>
    v2 ? { name, in: 'path', required: true, type: 'string' } : { name, in: 'path', required: true, schema: { type: 'string' } };
  const scope = def.namespaced ? [path('namespace')] : [];
  const ok = (code: string) => ({
    [code]: v2
      ? { description: 'OK', schema: { $ref: ref } }
      : { description: 'OK', content: { 'application/json': { schema: { $ref: ref } } } },
  });
  const body = (types: readonly string[], schema: Schema) =>
    v2
      ? { consumes: [...types], parameters: [{ name: 'body', in: 'body', required: true, schema }] }
      : { requestBody: { content: Object.fromEntries(types.map((t) => [t, { schema }])), required: true } };
  const withParams = (op: Record<string, unknown>, params: unknown[]) => ({
    ...op,
    parameters: [...params, ...((op.parameters as unknown[] | undefined) ?? [])],
  });
  const id = (verb: string) =>
    `${verb}${def.group === '' ? 'Core' : ''}${def.version[0]!.toUpperCase()}${def.version.slice(1)}${def.namespaced ? 'Namespaced' : ''}${def.kind}`;
  const patchTypes = def.builtIn ? Object.values(PATCH_TYPES) : [PATCH_TYPES.json, PATCH_TYPES.merge, PATCH_TYPES.apply];
  const patchSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const writes = WRITE_PARAMETERS.map(query);
  return {
    collectionGet: {
      operationId: id('list'),
      ...gvk,
      'x-kubernetes-action': 'list',
      parameters: [...scope, query('labelSelector'), query('fieldSelector'), query('limit'), query('continue'), query('watch')],
      responses: { '200': { description: 'OK' } },
    },
    collectionPost: withParams(
      {
        operationId: id('create'),
        ...gvk,
        'x-kubernetes-action': 'post',
        ...body(['application/json', 'application/yaml'], { $ref: ref }),
        responses: { ...ok('200'), ...ok('201') },
      },
      [...scope, ...writes],
    ),
    itemGet: { operationId: id('read'), ...gvk, 'x-kubernetes-action': 'get', parameters: [...scope, path('name')], responses: ok('200') },
    itemPut: withParams(
      {
        operationId: id('replace'),
        ...gvk,
        'x-kubernetes-action': 'put',
        ...body(['application/json', 'application/yaml'], { $ref: ref }),
        responses: { ...ok('200'), ...ok('201') },
      },
      [...scope, path('name'), ...writes],
    ),
    itemPatch: withParams(
      {
        operationId: id('patch'),
        ...gvk,
        'x-kubernetes-action': 'patch',
        ...body(patchTypes, patchSchema),
        responses: { ...ok('200'), ...ok('201') },
      },
      [...scope, path('name'), ...writes, query('force')],
    ),
    itemDelete: {
      operationId: id('delete'),
      ...gvk,
      'x-kubernetes-action': 'delete',
      parameters: [...scope, path('name'), query('dryRun'), query('propagationPolicy'), query('gracePeriodSeconds')],
      responses: { '200': { description: 'OK' } },
    },
  };
}

/** Adds a kind's schema (named `model` for built-ins) and returns its definition name. */
function addKind(builder: DefinitionBuilder, def: KindDef): string {
  const model = schemaModelOf(def.apiVersion, def.kind);
  const gvk = { 'x-kubernetes-group-version-kind': [gvkOf(def)] };
  if (model) return builder.add(model, gvk);
  const name = `${def.group}.${def.version}.${def.kind}`;
  builder.out[name] = {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: builder.schemaOf('V1ObjectMeta', '') },
    ...gvk,
  };
  return name;
}

function pathItems(def: KindDef, ref: string, v2: boolean): Record<string, Record<string, unknown>> {
  const ops = operationsOf(def, ref, v2);
  const { collection, item } = pathsOf(def);
  return {
    [collection]: { get: ops.collectionGet, post: ops.collectionPost },
    [item]: { get: ops.itemGet, put: ops.itemPut, patch: ops.itemPatch, delete: ops.itemDelete },
  };
}

/** `/openapi/v2`: every served kind in one Swagger 2.0 document. */
export function openApiV2(kinds: KindRegistry, version: string): Record<string, unknown> {
  const builder = new DefinitionBuilder((name) => `#/definitions/${name}`);
  let paths: Record<string, unknown> = {};
  for (const def of kinds.all()) paths = { ...paths, ...pathItems(def, `#/definitions/${addKind(builder, def)}`, true) };
  return { swagger: '2.0', info: { title: 'Kubernetes', version }, paths, definitions: builder.out };
}

/** The group-versions served, as `/openapi/v3` names them (`api/v1`, `apis/apps/v1`). */
function groupVersionPaths(kinds: KindRegistry): string[] {
  const paths = new Set<string>();
  for (const def of kinds.all()) paths.add(def.group === '' ? `api/${def.version}` : `apis/${def.group}/${def.version}`);
  return [...paths];
}

/** `/openapi/v3/<gvPath>`: one group-version's OpenAPI 3.0 document, or undefined when not served. */
export function openApiV3Document(kinds: KindRegistry, gvPath: string, version: string): Record<string, unknown> | undefined {
  const defs = kinds.all().filter((d) => (d.group === '' ? `api/${d.version}` : `apis/${d.group}/${d.version}`) === gvPath);
  if (defs.length === 0) return undefined;
  const builder = new DefinitionBuilder((name) => `#/components/schemas/${name}`);
  let paths: Record<string, unknown> = {};
  for (const def of defs) paths = { ...paths, ...pathItems(def, `#/components/schemas/${addKind(builder, def)}`, false) };
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version }, paths, components: { schemas: builder.out } };
}

/**
 * `/openapi/v3`: the discovery of the per-group-version documents, each with a `hash` query that
 * changes when its document does (clients cache by it).
 */
export function openApiV3Root(kinds: KindRegistry, version: string): Record<string, unknown> {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gvPath of groupVersionPaths(kinds)) {
    const hash = createHash('sha512')
      .update(JSON.stringify(openApiV3Document(kinds, gvPath, version)))
      .digest('hex')
      .slice(0, 128)
      .toUpperCase();
    paths[gvPath] = { serverRelativeURL: `/openapi/v3/${gvPath}?hash=${hash}` };
  }
  return { paths };
}
