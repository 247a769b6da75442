/**
 * DELETE semantics of the local API server, after the generic registry store of kube-apiserver
 * (`staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`):
 * - the propagation policy becomes a finalizer: `Orphan` → `orphan`, `Foreground` → `foregroundDeletion`,
 *   `Background` → neither (the garbage collector acts once the owner is gone);
 * - an object left with finalizers is only marked (`deletionTimestamp`, `deletionGracePeriodSeconds: 0`,
 *   `generation + 1`) and answered with 200 and the object; without finalizers it is removed at once
 *   and answered with a success `Status`;
 * - namespaces go `Terminating`; the namespace controller empties and then removes them.
 */
import { isNamespaceKind, rfc3339, scopeOf, type ApiContext } from './api-context.js';
import { PROPAGATION_POLICIES, type KindDef, type PropagationPolicy } from './kinds.js';
import type { KubeObject } from './object-store.js';
import { conflict, deletedStatus, forbidden, invalid, notFound, type KubeStatus } from './status-errors.js';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';
/** `spec.finalizers` entry the namespace controller removes once the namespace is empty. */
export const NAMESPACE_FINALIZER = 'kubernetes';

/** Namespaces real clusters refuse to delete. */
const UNDELETABLE_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/** What a DELETE carries, from the `DeleteOptions` body and query parameters merged. */
export interface DeleteRequest {
  readonly propagationPolicy?: string;
  /** Deprecated twin of `propagationPolicy`: true = Orphan, false = Background (and answers 202). */
  readonly orphanDependents?: boolean;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly dryRun?: boolean;
}

export interface DeleteResult {
  /** 200, or 202 when `orphanDependents: false` left the object in place. */
  readonly code: number;
  /** The marked (or, for Pods, the removed) object, or a success `Status` when removed at once. */
  readonly body: KubeObject | KubeStatus;
  readonly removed: boolean;
}

/** @throws KubeStatusError 422 for an unknown policy or both fields set. */
function resolvePolicy(def: KindDef, name: string, request: DeleteRequest): PropagationPolicy | undefined {
  if (request.propagationPolicy !== undefined && request.orphanDependents !== undefined) {
    throw invalid(def, name, [
      {
        reason: 'FieldValueForbidden',
        field: 'propagationPolicy',
        message: 'Forbidden: orphanDependents and deletionPropagation cannot be both set',
      },
    ]);
  }
  if (request.orphanDependents !== undefined) return request.orphanDependents ? 'Orphan' : 'Background';
  if (request.propagationPolicy === undefined) return undefined;
  if (!PROPAGATION_POLICIES.includes(request.propagationPolicy as PropagationPolicy)) {
    throw invalid(def, name, [
      {
        reason: 'FieldValueNotSupported',
        field: 'propagationPolicy',
        message: `Unsupported value: "${request.propagationPolicy}": supported values: "Foreground", "Background", "Orphan"`,
      },
    ]);
  }
  return request.propagationPolicy as PropagationPolicy;
}

/** The finalizers an object has after a DELETE with `policy` (undefined: keep a GC finalizer, else the kind's default). */
function finalizersAfterDelete(def: KindDef, current: readonly string[], policy: PropagationPolicy | undefined): string[] {
  const hasGcFinalizer = current.includes(ORPHAN_FINALIZER) || current.includes(FOREGROUND_FINALIZER);
  const effective = policy ?? (hasGcFinalizer ? undefined : def.defaultPropagation);
  if (effective === undefined) return [...current];
  const others = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (effective === 'Orphan') return [...others, ORPHAN_FINALIZER];
  if (effective === 'Foreground') return [...others, FOREGROUND_FINALIZER];
  return others;
}

/** True when a marked object has nothing left holding it (namespaces also wait for `spec.finalizers`). */
export function isReleased(def: KindDef, object: KubeObject): boolean {
  if (!object.metadata.deletionTimestamp || (object.metadata.finalizers ?? []).length > 0) return false;
  if (!isNamespaceKind(def)) return true;
  const spec = object.spec as { finalizers?: string[] } | undefined;
  return (spec?.finalizers ?? []).length === 0;
}

/** Removes a marked object whose last finalizer is gone; returns whether it did. */
export function removeIfReleased(ctx: ApiContext, def: KindDef, object: KubeObject): boolean {
  if (!isReleased(def, object)) return false;
  ctx.store.remove(def, object.metadata.namespace, object.metadata.name);
  return true;
}

function checkPreconditions(def: KindDef, existing: KubeObject, request: DeleteRequest): void {
  const { uid, resourceVersion } = request.preconditions ?? {};
  const meta = existing.metadata;
  if (uid && uid !== meta.uid) {
    throw conflict(def, meta.name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${meta.uid}`);
  }
  if (resourceVersion && resourceVersion !== meta.resourceVersion) {
    throw conflict(
      def,
      meta.name,
      `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`,
    );
  }
}

/**
 * Deletes (or marks) one object.
 * @throws KubeStatusError 404 NotFound; 409 Conflict on failed preconditions or a namespace already
 *   terminating; 403 Forbidden for `default`/`kube-system`/`kube-public`; 422 Invalid for a bad policy.
 */
export function deleteObject(
  ctx: ApiContext,
  def: KindDef,
  namespace: string | undefined,
  name: string,
  request: DeleteRequest,
): DeleteResult {
  const existing = ctx.store.read(def, scopeOf(def, namespace), name);
  if (!existing) throw notFound(def, name);
  checkPreconditions(def, existing, request);
  const policy = resolvePolicy(def, name, request);
  const isNamespace = isNamespaceKind(def);
  if (isNamespace && UNDELETABLE_NAMESPACES.has(name)) throw forbidden(def, name, 'this namespace may not be deleted');
  const namespaceFinalizers = (existing.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
  if (isNamespace && existing.metadata.deletionTimestamp && namespaceFinalizers.length > 0) {
    throw conflict(
      def,
      name,
      'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
    );
  }

  const next = structuredClone(existing);
  next.metadata.finalizers = finalizersAfterDelete(def, existing.metadata.finalizers ?? [], policy);
  if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
  if (!next.metadata.deletionTimestamp) {
    next.metadata.deletionTimestamp = rfc3339(ctx.now());
    next.metadata.deletionGracePeriodSeconds = 0;
    next.metadata.generation = (next.metadata.generation ?? 0) + 1;
  }
  if (isNamespace) next.status = { ...(next.status as object | undefined), phase: 'Terminating' };

  if (isReleased(def, next)) {
    if (!request.dryRun) ctx.store.remove(def, existing.metadata.namespace, name);
    const body = def.returnsDeletedObject ? existing : deletedStatus(def, name, existing.metadata.uid);
    return { code: 200, body, removed: true };
  }
  const unchanged =
    existing.metadata.deletionTimestamp !== undefined &&
    JSON.stringify(existing.metadata.finalizers ?? []) === JSON.stringify(next.metadata.finalizers ?? []);
  const stored = unchanged || request.dryRun ? (unchanged ? existing : next) : ctx.store.write(def, next);
  const waitingFor = (stored.metadata.finalizers ?? []).filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (!unchanged && !request.dryRun && !isNamespace && waitingFor.length > 0) {
    // The object stays until whoever owns these finalizers removes them: say so where `kubectl describe` looks.
    ctx.events.record(
      def,
      stored,
      'Normal',
      'WaitingForFinalizers',
      `Deletion waits for finalizers: ${waitingFor.join(', ')}`,
      'kube-apiserver',
    );
  }
  return { code: request.orphanDependents === false ? 202 : 200, body: stored, removed: false };
}
