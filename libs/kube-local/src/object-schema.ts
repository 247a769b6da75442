/**
 * Structural checks of request bodies for the built-in kinds, as kube-apiserver's decoder and
 * OpenAPI-driven validation see them:
 * - types and required fields come from Kubernetes' published OpenAPI, compiled into validators by
 *   the `kubernetes-models` package (no hand-written schemas);
 * - the set of known fields (for pruning unknown ones) comes from the API model tree that
 *   `@kubernetes/client-node` generates from the same OpenAPI document.
 *
 * A type mismatch is a decode error in kube-apiserver (400 `BadRequest`, "cannot be handled as a
 * <Kind>": the JSON does not unmarshal into the Go struct), a missing required field is a
 * validation error (422 `Invalid` with a `Required value` cause). Unknown fields are dropped and
 * reported (`fieldValidation=Warn`, the default), refused (`Strict`, 400 "strict decoding error")
 * or dropped silently (`Ignore`) — staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go and
 * the field validation KEP (2885).
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as models from '@kubernetes/client-node';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Event as EventsV1Event } from 'kubernetes-models/events.k8s.io/v1/Event';
import { Event } from 'kubernetes-models/v1/Event';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Pod } from 'kubernetes-models/v1/Pod';
import { ReplicaSet } from 'kubernetes-models/apps/v1/ReplicaSet';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { FieldError } from './status-errors.js';

interface SchemaError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
}

type CompiledValidator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

/**
 * The compiled ajv validator behind a `kubernetes-models` class. The package exports its compiled
 * schemas only through the model classes (`Model#validate` throws ajv's `ValidationError`), so the
 * validator is re-exposed here with ajv's own `errors` property, which `checkStructure` reads.
 */
function compiledFrom(model: { prototype: { validate(this: unknown): void } }): CompiledValidator {
  const validate: CompiledValidator = (data: unknown): boolean => {
    try {
      model.prototype.validate.call(data);
      validate.errors = null;
      return true;
    } catch (error) {
      const errors = (error as { errors?: SchemaError[] }).errors;
      if (!Array.isArray(errors)) throw error;
      validate.errors = errors;
      return false;
    }
  };
  return validate;
}

interface KindSchema {
  readonly validate: CompiledValidator;
  /** The `@kubernetes/client-node` model class the field tree starts from. */
  readonly model: string;
}

const SCHEMAS: Readonly<Record<string, KindSchema>> = {
  'v1/Namespace': { validate: compiledFrom(Namespace), model: 'V1Namespace' },
  'v1/ConfigMap': { validate: compiledFrom(ConfigMap), model: 'V1ConfigMap' },
  'v1/Secret': { validate: compiledFrom(Secret), model: 'V1Secret' },
  'v1/ServiceAccount': { validate: compiledFrom(ServiceAccount), model: 'V1ServiceAccount' },
  'v1/Service': { validate: compiledFrom(Service), model: 'V1Service' },
  'v1/Pod': { validate: compiledFrom(Pod), model: 'V1Pod' },
  'v1/Event': { validate: compiledFrom(Event), model: 'CoreV1Event' },
  'events.k8s.io/v1/Event': { validate: compiledFrom(EventsV1Event), model: 'EventsV1Event' },
  'apps/v1/Deployment': { validate: compiledFrom(Deployment), model: 'V1Deployment' },
  'apps/v1/ReplicaSet': { validate: compiledFrom(ReplicaSet), model: 'V1ReplicaSet' },
  'batch/v1/Job': { validate: compiledFrom(Job), model: 'V1Job' },
  'rbac.authorization.k8s.io/v1/Role': { validate: compiledFrom(Role), model: 'V1Role' },
  'rbac.authorization.k8s.io/v1/RoleBinding': { validate: compiledFrom(RoleBinding), model: 'V1RoleBinding' },
  'rbac.authorization.k8s.io/v1/ClusterRole': { validate: compiledFrom(ClusterRole), model: 'V1ClusterRole' },
};

/** The `@kubernetes/client-node` model name of a built-in kind's schema (`V1ConfigMap`), or undefined. */
export function schemaModelOf(apiVersion: string, kind: string): string | undefined {
  return SCHEMAS[`${apiVersion}/${kind}`]?.model;
}

const requireHere = createRequire(import.meta.url);
let validatorFiles: Map<string, string> | undefined;

/**
 * The `kubernetes-models` validator files by the model names `@kubernetes/client-node` uses for the
 * same definition: `IoK8sApiCoreV1Container` → `V1Container` and `CoreV1Container` (the client
 * prefixes the group where two groups define the same name, as `CoreV1Event` / `EventsV1Event`).
 */
function validatorFileIndex(): Map<string, string> {
  if (validatorFiles) return validatorFiles;
  const dir = join(dirname(requireHere.resolve('kubernetes-models/package.json')), '_schemas');
  validatorFiles = new Map();
  for (const file of readdirSync(dir)) {
    const match = /^IoK8s(?:Api|Apimachinery\w*?)([A-Z][a-z]*)(V\d+(?:alpha\d+|beta\d+)?)([A-Z]\w*)\.js$/.exec(file);
    if (!match) continue;
    const [, group, version, name] = match;
    validatorFiles.set(`${group}${version}${name}`, join(dir, file));
    if (!validatorFiles.has(`${version}${name}`)) validatorFiles.set(`${version}${name}`, join(dir, file));
  }
  return validatorFiles;
}

const requiredCache = new Map<string, readonly string[]>();

/**
 * The required properties of a model (`V1Container` → `['name']`), read from the compiled
 * `kubernetes-models` validator of the same definition by validating an empty object; `[]` when
 * no validator matches.
 */
export function requiredFieldsOf(model: string): readonly string[] {
  const cached = requiredCache.get(model);
  if (cached) return cached;
  const file = validatorFileIndex().get(model);
  let required: string[] = [];
  if (file) {
    const { validate } = requireHere(file) as { validate: CompiledValidator };
    if (!validate({})) {
      required = (validate.errors ?? [])
        .filter((e) => e.keyword === 'required' && e.instancePath === '')
        .map((e) => String(e.params.missingProperty));
    }
  }
  requiredCache.set(model, required);
  return required;
}

/** The kinds with a published schema here (`<apiVersion>/<kind>`). */
export function hasSchema(apiVersion: string, kind: string): boolean {
  return `${apiVersion}/${kind}` in SCHEMAS;
}

/** `/spec/template/spec/containers/0` → `spec.template.spec.containers[0]` (Kubernetes field paths). */
export function fieldPath(instancePath: string, last?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (last !== undefined) parts.push(last);
  let out = '';
  for (const part of parts) {
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

const GO_TYPES: Readonly<Record<string, string>> = {
  integer: 'int32',
  number: 'float64',
  string: 'string',
  boolean: 'bool',
  object: 'map',
  array: 'slice',
};

function jsonTypeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

function valueAt(object: unknown, instancePath: string): unknown {
  let current = object;
  for (const part of instancePath.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

/** Go's `base64.StdEncoding` (padded), which `[]byte` fields decode with. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The byte offset Go's decoder reports for an invalid base64 string. */
function illegalBase64At(text: string): number {
  const bad = text.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) return bad;
  const padding = text.indexOf('=');
  return padding >= 0 ? padding : text.length - (text.length % 4);
}

export function isBase64(text: string): boolean {
  return BASE64.test(text);
}

/** What a body's structure says: decode errors (400) or validation causes (422). */
export interface StructuralResult {
  /** The first decode error, worded like kube-apiserver's (`Job in version "v1" cannot be handled as a Job: …`); undefined = decodes. */
  readonly decodeError?: string;
  /** `Required value` causes for missing required fields. */
  readonly errors: FieldError[];
}

/**
 * Checks a body of a built-in kind against Kubernetes' OpenAPI schema for it.
 * Kinds without a schema here (custom resources) always pass.
 */
export function checkStructure(apiVersion: string, kind: string, object: unknown): StructuralResult {
  const schema = SCHEMAS[`${apiVersion}/${kind}`];
  if (!schema || schema.validate(object)) return { errors: [] };
  const version = apiVersion.split('/').at(-1)!;
  const errors: FieldError[] = [];
  let decodeError: string | undefined;
  for (const error of schema.validate.errors ?? []) {
    if (error.keyword === 'required') {
      const field = fieldPath(error.instancePath, String(error.params.missingProperty));
      if (!errors.some((e) => e.field === field)) errors.push({ reason: 'FieldValueRequired', field, message: 'Required value' });
      continue;
    }
    if (decodeError !== undefined) continue;
    const value = valueAt(object, error.instancePath);
    if (error.keyword === 'format' && error.params.format === 'byte' && typeof value === 'string') {
      decodeError = `${kind} in version "${version}" cannot be handled as a ${kind}: illegal base64 data at input byte ${illegalBase64At(value)}`;
    } else if (error.keyword === 'type') {
      const expected = String(error.params.type);
      decodeError = `${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonTypeOf(value)} into Go struct field ${kind}.${fieldPath(error.instancePath)} of type ${GO_TYPES[expected] ?? expected}`;
    } else {
      errors.push({
        reason: 'FieldValueInvalid',
        field: fieldPath(error.instancePath),
        message: `Invalid value: ${JSON.stringify(value)}: must match ${error.keyword} ${JSON.stringify(error.params)}`,
      });
    }
  }
  return { ...(decodeError !== undefined ? { decodeError } : {}), errors };
}

interface Attribute {
  readonly baseName: string;
  readonly type: string;
}

type ModelClass = { getAttributeTypeMap(): Attribute[] };

function modelOf(type: string): ModelClass | undefined {
  const candidate = (models as unknown as Record<string, unknown>)[type];
  return typeof candidate === 'function' && 'getAttributeTypeMap' in candidate ? (candidate as ModelClass) : undefined;
}

const MAP_OF = /^\{ \[key: string\]: (.+); \}$/;
const ARRAY_OF = /^Array<(.+)>$/;

/** Removes, in place, every field the model tree does not know below `value`; returns their paths. */
function prune(value: unknown, type: string, path: string, out: string[]): void {
  if (value === null || typeof value !== 'object') return;
  const array = ARRAY_OF.exec(type);
  if (array) {
    if (Array.isArray(value)) value.forEach((item, i) => prune(item, array[1]!, `${path}[${i}]`, out));
    return;
  }
  const map = MAP_OF.exec(type);
  if (map) {
    if (!Array.isArray(value)) for (const [key, item] of Object.entries(value)) prune(item, map[1]!, `${path}.${key}`, out);
    return;
  }
  const model = modelOf(type);
  if (!model || Array.isArray(value)) return;
  const known = new Map(model.getAttributeTypeMap().map((a) => [a.baseName, a.type]));
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const child = path === '' ? key : `${path}.${key}`;
    const childType = known.get(key);
    if (childType === undefined) {
      out.push(child);
      delete record[key];
    } else {
      prune(record[key], childType, child, out);
    }
  }
}

/**
 * Drops, in place, the fields of a built-in kind's body its schema does not define, as
 * kube-apiserver's decoder does, and returns their paths (`spec.bogus`,
 * `spec.template.spec.containers[0].colour`). Custom resources are left alone (no schema here).
 */
export function pruneUnknownFields(apiVersion: string, kind: string, object: Record<string, unknown>): string[] {
  const schema = SCHEMAS[`${apiVersion}/${kind}`];
  if (!schema) return [];
  const out: string[] = [];
  prune(object, schema.model, '', out);
  return out;
}
