/**
 * GET, LIST, POST, PUT and PATCH semantics of the local API server, after kube-apiserver's generic
 * registry store and `rest.BeforeCreate`/`BeforeUpdate`: server-owned metadata (`uid`,
 * `creationTimestamp`, `resourceVersion`, `generation`, `deletionTimestamp`), optimistic concurrency,
 * status subresources, NamespaceLifecycle admission and no-op writes that keep the `resourceVersion`.
 */
import { randomInt } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { isNamespaceKind, namespaceKind, rfc3339, scopeOf, type ApiContext } from './api-context.js';
import { removeIfReleased } from './deletion.js';
import { matchesFields, parseFieldSelector, selectableFields } from './field-selector.js';
import { jsonEqual } from './json-equal.js';
import type { KindDef } from './kinds.js';
import { parseLabelSelector, SelectorSyntaxError } from './label-selector.js';
import { compareKeys, storageKey, type KubeObject } from './object-store.js';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PATCH_TYPES, PatchError } from './patches.js';
import {
  alreadyExists,
  applyConflict,
  badRequest,
  conflict,
  forbidden,
  internalError,
  invalid,
  invalidOptions,
  namespaceNotFound,
  type FieldError,
  notFound,
  staleResourceVersion,
  unprocessable,
  unsupportedMediaType,
} from './status-errors.js';
import { applyDefaults, convertIncoming, validateKind, validateKindUpdate } from './kind-rules.js';
import { afterUpdate, planApply, sameOwnership, type ManagedFieldsEntry, type Writer } from './managed-fields.js';
import { nestsDeeperThan } from './nesting-depth.js';
import { checkStructure, pruneUnknownFields } from './object-schema.js';
import { validateObjectMeta } from './validation.js';

export type Subresource = 'status' | 'finalize';

export interface ListOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Page size; 0 or absent = everything. */
  readonly limit?: number;
  /** The `metadata.continue` of the previous page. */
  readonly continueToken?: string;
}

export interface KubeList {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: Record<string, unknown>[];
}

/** `fieldValidation` query values (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface WriteOptions {
  readonly dryRun?: boolean;
  readonly subresource?: Subresource;
  /** What to do with fields the kind's schema does not define; default `Warn` (as kube-apiserver since 1.27). */
  readonly fieldValidation?: FieldValidation;
  /** Receives the `Warning` header texts of the write (unknown fields dropped under `Warn`). */
  readonly warnings?: string[];
  /**
   * Who writes, for `metadata.managedFields` (the `fieldManager` query parameter, else the User-Agent's
   * prefix, as kube-apiserver takes it). Undefined for the server's own writes (fixtures, `setStatus`),
   * which leave ownership as it is.
   */
  readonly fieldManager?: string;
  /** `force=true` on an apply: take conflicting fields instead of answering 409. */
  readonly force?: boolean;
}

/** What `create`/`applyUpdate` store as `managedFields` when an apply planned them. */
interface InternalWriteOptions extends WriteOptions {
  readonly applyOwnership?: ManagedFieldsEntry[];
}

const GENERATE_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Everything but `metadata` and `status`: a change here bumps `generation`. */
function specPart(object: KubeObject): Record<string, unknown> {
  const { metadata: _metadata, status: _status, ...rest } = object;
  return rest;
}

export class ResourceOperations {
  constructor(private readonly ctx: ApiContext) {}

  /** The stored object (frozen: read it, or copy it to change it). @throws KubeStatusError 404 NotFound. */
  get(def: KindDef, namespace: string | undefined, name: string): KubeObject {
    const found = this.ctx.store.read(def, scopeOf(def, namespace), name);
    if (!found) throw notFound(def, name);
    return found;
  }

  /**
   * Lists a kind, in one namespace or (namespace undefined) across all, filtered and paged.
   * Built-in kinds' items carry no `apiVersion`/`kind`, as real API servers send them.
   * @throws KubeStatusError 400 BadRequest for an unparsable selector or continue token.
   */
  list(def: KindDef, namespace: string | undefined, options: ListOptions = {}): KubeList {
    let labels, fields;
    try {
      labels = parseLabelSelector(options.labelSelector ?? '');
      fields = parseFieldSelector(options.fieldSelector ?? '', selectableFields(def));
    } catch (error) {
      if (error instanceof SelectorSyntaxError) throw badRequest(error.message);
      throw error;
    }
    let items = this.ctx.store.list(def, scopeOf(def, namespace), labels).filter((o) => matchesFields(fields, o));
    if (options.continueToken) {
      const after = this.decodeContinue(options.continueToken);
      items = items.filter((o) => compareKeys(storageKey(o), after) > 0);
    }
    const metadata: KubeList['metadata'] = { resourceVersion: this.ctx.store.resourceVersion };
    if (options.limit && options.limit > 0 && items.length > options.limit) {
      metadata.remainingItemCount = items.length - options.limit;
      items = items.slice(0, options.limit);
      metadata.continue = Buffer.from(JSON.stringify({ start: storageKey(items[items.length - 1]!) })).toString('base64url');
    }
    return {
      apiVersion: def.apiVersion,
      kind: `${def.kind}List`,
      metadata,
      items: items.map((o) => {
        if (!def.builtIn) return o;
        const { apiVersion: _apiVersion, kind: _kind, ...rest } = o;
        return rest;
      }),
    };
  }

  /**
   * Creates an object in `namespace` (ignored for cluster-scoped kinds).
   * @throws KubeStatusError 400 for a mismatched apiVersion/kind/namespace; 404 when the namespace is
   *   missing; 403 Forbidden (cause `NamespaceTerminating`) when it is terminating; 422 Invalid;
   *   500 when `metadata.resourceVersion` is set (as etcd3 storage refuses it); 409 AlreadyExists.
   */
  create(def: KindDef, namespace: string | undefined, body: unknown, options: InternalWriteOptions = {}): KubeObject {
    const incoming = this.checkBody(def, body);
    const meta = incoming.metadata;
    const scope = scopeOf(def, namespace);
    if (def.namespaced && meta.namespace && meta.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const name = meta.name || (meta.generateName ? `${meta.generateName}${this.randomSuffix()}` : '');
    if (scope !== undefined) this.admitIntoNamespace(def, scope, name);

    const object: KubeObject = structuredClone(incoming);
    object.metadata = {
      ...structuredClone(meta),
      name,
      uid: this.ctx.newUid(),
      creationTimestamp: rfc3339(this.ctx.now()),
      generation: 1,
      resourceVersion: '',
    };
    if (scope !== undefined) object.metadata.namespace = scope;
    else delete object.metadata.namespace;
    delete object.metadata.deletionTimestamp;
    delete object.metadata.deletionGracePeriodSeconds;
    if (def.statusSubresource) delete object.status;
    if (isNamespaceKind(def)) {
      object.spec = { ...(isObject(object.spec) ? object.spec : {}), finalizers: ['kubernetes'] };
      object.status = { phase: 'Active' };
    }
    if (def.builtIn && def.kind === 'Pod') object.status = { phase: 'Pending' };

    const errors = [...this.admitBody(def, object, options, true), ...validateObjectMeta(def, object)];
    if (errors.length > 0) throw invalid(def, name, errors);
    if (meta.resourceVersion) throw internalError('resourceVersion should not be set on objects to be created');
    if (this.ctx.store.read(def, scope, name)) throw alreadyExists(def, name);
    if (options.fieldManager !== undefined) {
      const ownership = options.applyOwnership ?? afterUpdate(undefined, object, this.writer(def, options.fieldManager));
      if (ownership.length > 0) object.metadata.managedFields = ownership;
      else delete object.metadata.managedFields;
    }
    if (options.dryRun) return object;
    return this.ctx.store.write(def, object);
  }

  /**
   * Replaces an object (PUT), or only its `status` / a namespace's `spec.finalizers` for those subresources.
   * @throws KubeStatusError 400 for a mismatched name/namespace/kind; 404; 409 Conflict for a stale
   *   `resourceVersion` or another `uid`; 422 Invalid (including new finalizers on a deleting object).
   */
  update(def: KindDef, namespace: string | undefined, name: string, body: unknown, options: WriteOptions = {}): KubeObject {
    const incoming = this.checkBody(def, body);
    this.checkIdentity(def, namespace, name, incoming);
    const existing = this.get(def, namespace, name);
    return this.applyUpdate(def, existing, incoming, options);
  }

  /**
   * Patches an object with a JSON merge, JSON, strategic merge (built-in kinds only, as for real CRDs)
   * or apply patch. An apply (server-side apply, managed-fields.ts) creates a missing object, owns the
   * fields of its configuration, removes the ones its manager applied before and left out, and merges
   * the rest like a strategic merge patch (a merge patch for custom resources).
   * @returns the object, and whether apply created it (the HTTP layer answers 201).
   * @throws KubeStatusError 415 for an unsupported patch type; 400/422 for a bad patch; 422 for an apply
   *   without `fieldManager` or `force` on another patch type; 400 for an apply without a matching
   *   `apiVersion`/`kind`; 409 `Apply failed with N conflicts` unless forced; as `update`.
   */
  patch(
    def: KindDef,
    namespace: string | undefined,
    name: string,
    contentType: string,
    rawBody: string,
    options: WriteOptions & { fieldManager?: string } = {},
  ): { object: KubeObject; created: boolean } {
    const type = contentType.split(';')[0]!.trim().toLowerCase();
    const accepted = def.builtIn ? Object.values(PATCH_TYPES) : [PATCH_TYPES.json, PATCH_TYPES.merge, PATCH_TYPES.apply];
    if (!accepted.includes(type as never)) throw unsupportedMediaType(type, accepted);
    if (type === PATCH_TYPES.apply && !options.fieldManager) {
      throw invalidOptions('PatchOptions', [
        { reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' },
      ]);
    }
    if (type !== PATCH_TYPES.apply && options.force !== undefined) {
      throw invalidOptions('PatchOptions', [
        { reason: 'FieldValueForbidden', field: 'force', message: 'Forbidden: may not be specified for non-apply patch' },
      ]);
    }
    const patch = this.parsePatchBody(type, rawBody);
    const existing = this.ctx.store.get(def, scopeOf(def, namespace), name);
    if (type === PATCH_TYPES.apply) return this.apply(def, namespace, name, existing, this.checkApplyConfig(def, patch, rawBody), options);
    if (!existing) throw notFound(def, name);
    let patched: unknown;
    try {
      if (type === PATCH_TYPES.json) patched = applyJsonPatch(existing, patch);
      else if (type === PATCH_TYPES.strategic) patched = applyStrategicMergePatch(existing, patch);
      else patched = applyMergePatch(existing, patch);
    } catch (error) {
      if (error instanceof PatchError) throw unprocessable(error.message);
      throw error;
    }
    const incoming = this.checkBody(def, patched);
    this.checkIdentity(def, namespace, name, incoming);
    return { object: this.applyUpdate(def, existing, incoming, options), created: false };
  }

  /** Server-side apply of `config` by `options.fieldManager` (see `patch`). */
  private apply(
    def: KindDef,
    namespace: string | undefined,
    name: string,
    existing: KubeObject | undefined,
    config: KubeObject,
    options: WriteOptions,
  ): { object: KubeObject; created: boolean } {
    this.checkIdentity(def, namespace, name, config);
    const writer = this.writer(def, options.fieldManager!, options.subresource);
    const plan = planApply(
      existing ?? { apiVersion: def.apiVersion, kind: def.kind, metadata: {} },
      config,
      writer,
      options.force === true,
    );
    if ('conflicts' in plan) throw applyConflict(plan.conflicts);
    if (!existing) {
      const body = { ...config, metadata: { ...config.metadata, name } };
      return { object: this.create(def, namespace, body, { ...options, applyOwnership: plan.managedFields }), created: true };
    }
    const merged = def.builtIn ? applyStrategicMergePatch(plan.pruned, config) : applyMergePatch(plan.pruned, config);
    const incoming = this.checkBody(def, merged);
    return { object: this.applyUpdate(def, existing, incoming, { ...options, applyOwnership: plan.managedFields }), created: false };
  }

  /**
   * An apply configuration must name this kind's apiVersion and kind
   * (staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/structuredmerge.go Apply).
   * @throws KubeStatusError 400 BadRequest otherwise.
   */
  private checkApplyConfig(def: KindDef, config: unknown, rawBody: string): KubeObject {
    if (!isObject(config)) throw badRequest('the body of an apply patch must be an object');
    if (config.apiVersion !== def.apiVersion) {
      throw badRequest(
        `Incorrect version specified in apply patch. Specified patch version: ${typeof config.apiVersion === 'string' ? config.apiVersion : ''}, expected: ${def.apiVersion}`,
      );
    }
    if (config.kind === undefined || config.kind === '') throw badRequest(`Object 'Kind' is missing in '${rawBody.trim()}'`);
    return this.checkBody(def, config);
  }

  private writer(def: KindDef, manager: string, subresource?: Subresource): Writer {
    return {
      manager,
      apiVersion: def.apiVersion,
      time: rfc3339(this.ctx.now()),
      keyed: def.builtIn,
      ...(subresource ? { subresource } : {}),
    };
  }

  private applyUpdate(def: KindDef, existing: KubeObject, incoming: KubeObject, options: InternalWriteOptions): KubeObject {
    const meta = incoming.metadata;
    const name = existing.metadata.name;
    if (meta.uid && meta.uid !== existing.metadata.uid) {
      throw conflict(def, name, `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${existing.metadata.uid}`);
    }
    if (meta.resourceVersion && meta.resourceVersion !== existing.metadata.resourceVersion) throw staleResourceVersion(def, name);

    const next = options.subresource
      ? this.subresourceUpdate(existing, incoming, options.subresource)
      : this.mainUpdate(def, existing, incoming, options);
    if (options.fieldManager !== undefined) {
      // Ownership is the server's to compute: what a client sent in managedFields does not count.
      if (existing.metadata.managedFields !== undefined) next.metadata.managedFields = structuredClone(existing.metadata.managedFields);
      else delete next.metadata.managedFields;
      const ownership = options.applyOwnership ?? afterUpdate(existing, next, this.writer(def, options.fieldManager, options.subresource));
      if (jsonEqual(next, existing) && sameOwnership(ownership, existing.metadata.managedFields as ManagedFieldsEntry[] | undefined))
        return existing;
      if (ownership.length > 0) next.metadata.managedFields = ownership;
      else delete next.metadata.managedFields;
    } else if (jsonEqual(next, existing)) {
      return existing;
    }
    if (options.dryRun) return next;
    const stored = this.ctx.store.write(def, next);
    // The write that drops the last finalizer of a marked object is also its removal (store.go Update).
    removeIfReleased(this.ctx, def, stored);
    return stored;
  }

  private mainUpdate(def: KindDef, existing: KubeObject, incoming: KubeObject, options: WriteOptions): KubeObject {
    const old = existing.metadata;
    const next: KubeObject = structuredClone(incoming);
    next.metadata = {
      ...structuredClone(incoming.metadata),
      name: old.name,
      uid: old.uid,
      creationTimestamp: old.creationTimestamp,
      generation: old.generation,
      resourceVersion: old.resourceVersion,
    };
    if (old.namespace !== undefined) next.metadata.namespace = old.namespace;
    else delete next.metadata.namespace;
    for (const field of ['deletionTimestamp', 'deletionGracePeriodSeconds'] as const) {
      if (old[field] !== undefined) next.metadata[field] = old[field] as never;
      else delete next.metadata[field];
    }
    if (def.statusSubresource) {
      if (existing.status !== undefined) next.status = structuredClone(existing.status);
      else delete next.status;
    }
    if (isNamespaceKind(def)) {
      // Only the `finalize` subresource may change a namespace's `spec.finalizers`.
      const finalizers = (existing.spec as { finalizers?: string[] } | undefined)?.finalizers;
      next.spec = { ...(isObject(next.spec) ? next.spec : {}), finalizers };
    }
    const errors = [...this.admitBody(def, next, options, false), ...validateObjectMeta(def, next)];
    if (errors.length === 0) errors.push(...validateKindUpdate(def, existing, next));
    if (old.deletionTimestamp) {
      const added = (next.metadata.finalizers ?? []).filter((f) => !(old.finalizers ?? []).includes(f));
      if (added.length > 0) {
        errors.push({
          reason: 'FieldValueForbidden',
          field: 'metadata.finalizers',
          message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => `"${f}"`).join(', ')}}`,
        });
      }
    }
    if (errors.length > 0) throw invalid(def, old.name, errors);
    if (!jsonEqual(specPart(next), specPart(existing))) next.metadata.generation = (old.generation ?? 0) + 1;
    return next;
  }

  /**
   * What kube-apiserver does to a body between reading it and storing it: decoding (unknown fields
   * pruned per `fieldValidation`; a type mismatch or bad base64 is a 400), conversion (Secret
   * `stringData`), defaulting, then the kind's validation. Changes `object` in place.
   * @returns the kind's validation errors (the caller adds metadata errors and answers 422).
   * @throws KubeStatusError 400 BadRequest for a decode error or an unknown field under `Strict`.
   */
  private admitBody(def: KindDef, object: KubeObject, options: WriteOptions, creating: boolean): FieldError[] {
    const unknown = pruneUnknownFields(def.apiVersion, def.kind, object);
    if (unknown.length > 0) {
      const texts = unknown.map((field) => `unknown field "${field}"`);
      if (options.fieldValidation === 'Strict') throw badRequest(`strict decoding error: ${texts.join(', ')}`);
      if (options.fieldValidation !== 'Ignore') options.warnings?.push(...texts);
    }
    const structure = checkStructure(def.apiVersion, def.kind, object);
    if (structure.decodeError !== undefined) throw badRequest(structure.decodeError);
    convertIncoming(def, object);
    applyDefaults(def, object, creating);
    // Go validation reports what is missing below a required field (a Job's empty template →
    // its containers and restartPolicy), so a schema `required` it covers is not repeated.
    const errors = validateKind(def, object);
    const covered = (field: string) =>
      errors.some((e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`));
    return [...structure.errors.filter((e) => !covered(e.field)), ...errors];
  }

  /** `/status` takes only `status` from the body (CRD status strategy); `/finalize` only `spec.finalizers`. */
  private subresourceUpdate(existing: KubeObject, incoming: KubeObject, subresource: Subresource): KubeObject {
    const next = structuredClone(existing);
    if (subresource === 'status') {
      if (incoming.status !== undefined) next.status = structuredClone(incoming.status);
      else delete next.status;
    } else {
      const finalizers = (incoming.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
      next.spec = { ...(isObject(next.spec) ? next.spec : {}), finalizers: [...finalizers] };
    }
    return next;
  }

  /** @throws KubeStatusError 400 unless the body is an object of this kind (missing apiVersion/kind default to it). */
  private checkBody(def: KindDef, body: unknown): KubeObject {
    if (!isObject(body)) throw badRequest('the body of the request must be a JSON object');
    if (body.apiVersion !== undefined && body.apiVersion !== def.apiVersion) {
      throw badRequest(
        `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${def.apiVersion})`,
      );
    }
    if (body.kind !== undefined && body.kind !== def.kind) {
      throw badRequest(`the kind in the data (${String(body.kind)}) does not match the expected kind (${def.kind})`);
    }
    if (body.metadata !== undefined && !isObject(body.metadata)) throw badRequest('metadata must be an object');
    return { ...body, apiVersion: def.apiVersion, kind: def.kind, metadata: (body.metadata ?? {}) as KubeObject['metadata'] };
  }

  private checkIdentity(def: KindDef, namespace: string | undefined, name: string, incoming: KubeObject): void {
    if (incoming.metadata.name && incoming.metadata.name !== name) {
      throw badRequest(`the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`);
    }
    if (def.namespaced && incoming.metadata.namespace && incoming.metadata.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
  }

  /** NamespaceLifecycle admission: no new content in a missing or terminating namespace. */
  private admitIntoNamespace(def: KindDef, namespace: string, name: string): void {
    const ns = this.ctx.store.read(namespaceKind(this.ctx), undefined, namespace);
    if (!ns) throw namespaceNotFound(namespace);
    if (ns.metadata.deletionTimestamp) {
      throw forbidden(def, name, `unable to create new content in namespace ${namespace} because it is being terminated`, [
        { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' },
      ]);
    }
  }

  private parsePatchBody(type: string, rawBody: string): unknown {
    let patch: unknown;
    try {
      patch = type === PATCH_TYPES.apply ? parseYaml(rawBody) : JSON.parse(rawBody);
    } catch (error) {
      throw badRequest(`error decoding patch: ${(error as Error).message}`);
    }
    if (nestsDeeperThan(patch)) throw badRequest('error decoding patch: exceeded max depth');
    return patch;
  }

  private decodeContinue(token: string): string {
    try {
      const start = (JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { start?: unknown }).start;
      if (typeof start === 'string') return start;
    } catch {
      // fall through to the error below
    }
    throw badRequest('continue key is not valid: invalid continue token');
  }

  private randomSuffix(): string {
    return Array.from({ length: 5 }, () => GENERATE_NAME_ALPHABET[randomInt(GENERATE_NAME_ALPHABET.length)]).join('');
  }
}
