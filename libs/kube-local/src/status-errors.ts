/**
 * Kubernetes `Status` bodies and the errors that carry them, worded like k8s.io/apimachinery's
 * `errors.New*` helpers so clients that match on `reason`, `code` or `details` see what a real API server sends.
 */
import type { KindDef } from './kinds.js';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'UnsupportedMediaType'
  | 'RequestEntityTooLarge'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout';

export interface StatusCause {
  readonly reason?: string;
  readonly message: string;
  readonly field?: string;
}

export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  /** The resource plural for most errors (k8s quirk), the Kind for `Invalid`. */
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly StatusCause[];
  /** Seconds a client should wait before retrying (`Timeout`, `TooManyRequests`). */
  readonly retryAfterSeconds?: number;
}

/** A `Status` object (`kind: Status, apiVersion: v1`). */
export interface KubeStatus {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Success' | 'Failure';
  readonly message?: string;
  readonly reason?: StatusReason;
  readonly details?: StatusDetails;
  /** Present on failures; a DELETE's success `Status` omits it, as real servers do. */
  readonly code?: number;
}

/** A failure `Status`: always has a `code`. */
export type FailureStatus = KubeStatus & { readonly status: 'Failure'; readonly code: number };

/** Thrown inside the server; the HTTP layer answers with `status` as the body and `status.code`. */
export class KubeStatusError extends Error {
  override readonly name = 'KubeStatusError';
  constructor(readonly status: FailureStatus) {
    super(status.message);
  }
}

const REASON_BY_CODE: Record<number, StatusReason> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** The reason k8s pairs with an HTTP code (500 → `InternalError`); unknown codes map to `InternalError`. */
export function reasonForCode(code: number): StatusReason {
  return REASON_BY_CODE[code] ?? 'InternalError';
}

function failure(code: number, reason: StatusReason, message: string, details?: StatusDetails): KubeStatusError {
  return new KubeStatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  });
}

/** `deployments.apps`, or `configmaps` for the core group (k8s `GroupResource.String()`). */
export function qualifiedResource(def: KindDef): string {
  return def.group === '' ? def.plural : `${def.plural}.${def.group}`;
}

function resourceDetails(def: KindDef, name: string): StatusDetails {
  return { name, ...(def.group ? { group: def.group } : {}), kind: def.plural };
}

export function notFound(def: KindDef, name: string): KubeStatusError {
  return failure(404, 'NotFound', `${qualifiedResource(def)} "${name}" not found`, resourceDetails(def, name));
}

/** 404 for a namespace that is missing when creating into it (NamespaceLifecycle admission). */
export function namespaceNotFound(namespace: string): KubeStatusError {
  return failure(404, 'NotFound', `namespaces "${namespace}" not found`, { name: namespace, kind: 'namespaces' });
}

/** 404 for a URL no resource serves. */
export function routeNotFound(): KubeStatusError {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function alreadyExists(def: KindDef, name: string): KubeStatusError {
  return failure(409, 'AlreadyExists', `${qualifiedResource(def)} "${name}" already exists`, resourceDetails(def, name));
}

export function conflict(def: KindDef, name: string, why: string): KubeStatusError {
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(def)} "${name}": ${why}`,
    resourceDetails(def, name),
  );
}

/** The optimistic-concurrency failure of PUT/PATCH with a stale `metadata.resourceVersion`. */
export function staleResourceVersion(def: KindDef, name: string): KubeStatusError {
  return conflict(def, name, 'the object has been modified; please apply your changes to the latest version and try again');
}

export function forbidden(def: KindDef, name: string, why: string, causes?: StatusCause[]): KubeStatusError {
  const subject = name ? `${qualifiedResource(def)} "${name}"` : qualifiedResource(def);
  return failure(403, 'Forbidden', `${subject} is forbidden: ${why}`, {
    ...resourceDetails(def, name),
    ...(causes ? { causes } : {}),
  });
}

/** A field-level validation failure (`FieldValueRequired`, `FieldValueInvalid`, `FieldValueForbidden`, …). */
export interface FieldError {
  readonly reason: string;
  readonly field: string;
  /** Already prefixed like k8s: `Required value: …`, `Invalid value: "x": …`, `Forbidden: …`. */
  readonly message: string;
}

export function invalid(def: KindDef, name: string, errors: readonly FieldError[]): KubeStatusError {
  const kind = def.group ? `${def.kind}.${def.group}` : def.kind;
  const texts = errors.map((e) => `${e.field}: ${e.message}`);
  const summary = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return failure(422, 'Invalid', `${kind} "${name}" is invalid: ${summary}`, {
    name,
    ...(def.group ? { group: def.group } : {}),
    kind: def.kind,
    causes: errors.map((e) => ({ reason: e.reason, message: e.message, field: e.field })),
  });
}

/**
 * 422 for bad request options (`CreateOptions`, `UpdateOptions`, `PatchOptions`, `DeleteOptions`
 * in group `meta.k8s.io`), as the handlers answer a failed ValidateCreateOptions & co.
 */
export function invalidOptions(kind: string, errors: readonly FieldError[]): KubeStatusError {
  const texts = errors.map((e) => `${e.field}: ${e.message}`);
  const summary = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return failure(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: ${summary}`, {
    group: 'meta.k8s.io',
    kind,
    causes: errors.map((e) => ({ reason: e.reason, message: e.message, field: e.field })),
  });
}

/**
 * 409 for a server-side apply that would take fields other managers own, worded as
 * staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/conflict.go NewConflictError
 * (`Apply failed with 1 conflict: conflict with "m": .data.a`), one `FieldManagerConflict` cause each.
 */
export function applyConflict(conflicts: readonly { manager: string; field: string }[]): KubeStatusError {
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${conflicts[0]!.manager}: ${conflicts[0]!.field}`;
  } else {
    const managers = [...new Set(conflicts.map((c) => c.manager))].sort();
    const lines = managers.flatMap((m) => [`conflicts with ${m}:`, ...conflicts.filter((c) => c.manager === m).map((c) => `- ${c.field}`)]);
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return failure(409, 'Conflict', message, {
    causes: conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${c.manager}`, field: c.field })),
  });
}

export function badRequest(message: string): KubeStatusError {
  return failure(400, 'BadRequest', message);
}

/**
 * 413 for a body over the limit: kube-apiserver's words (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
 * limitedReadBody, errors.NewRequestEntityTooLargeError).
 */
export function requestEntityTooLarge(limitBytes: number): KubeStatusError {
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limitBytes}`);
}

export function unprocessable(message: string): KubeStatusError {
  return failure(422, 'Invalid', message);
}

export function internalError(message: string): KubeStatusError {
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

export function methodNotAllowed(method: string): KubeStatusError {
  return failure(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource (${method})`, {});
}

export function unsupportedMediaType(contentType: string, accepted: readonly string[]): KubeStatusError {
  return failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format (${contentType}) - accepted media types include: ${accepted.join(', ')}`,
  );
}

/**
 * 410 Expired for a watch from a `resourceVersion` the server no longer keeps, worded as the watch
 * cache words it (`too old resource version: <asked> (<oldest kept - 1>)`).
 */
export function expired(resourceVersion: number, floor: number): KubeStatusError {
  return failure(410, 'Expired', `too old resource version: ${resourceVersion} (${floor})`);
}

/** 504 for a watch from a `resourceVersion` the server has not reached (storage.NewTooLargeResourceVersionError). */
export function tooLargeResourceVersion(resourceVersion: number, current: number): KubeStatusError {
  return failure(504, 'Timeout', `Timeout: Too large resource version: ${resourceVersion}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

/** An injected failure: any code, k8s reason for it unless given. */
export function injected(code: number, message: string, reason?: StatusReason): KubeStatusError {
  return failure(code, reason ?? reasonForCode(code), message);
}

/** The `Status` a DELETE answers with when the object is gone at once (`details.kind` is the plural). */
export function deletedStatus(def: KindDef, name: string, uid: string): KubeStatus {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { ...resourceDetails(def, name), uid },
  };
}
