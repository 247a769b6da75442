/**
 * The one error → HTTP table. Domain errors carry data; this maps each class once.
 */
import {
  ActiveChildrenRestrict,
  AdapterNotPending,
  DeletionBudgetExceeded,
  DeletionProtected,
  CascadeThroughLiveReference,
  DependencyCycle,
  InvalidParent,
  LiveReferrers,
  MutationWhileFinalizing,
  NameAlreadyTaken,
  NotFinalizing,
  ResourceNotFound,
  ValidationFailed,
  type FieldViolation,
  BreakGlassNotPending,
  BreakGlassRequestNotFound,
  SelfApproval,
} from '@decom/domain';
import { ConcurrencyConflict, isTransientError } from '@decom/event-store';
import { SearchFieldError, SearchSyntaxError } from '@decom/projections';
import { QueueUnavailable } from '@decom/jobs';
import { HttpProblem, RETRY_AFTER_SECONDS } from './problem.js';
import { DryRunRefused } from './dry-run-refused.js';

export interface MappedError {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly typeSlug: string;
  readonly detail: string;
  readonly errors?: readonly FieldViolation[];
  /** Extension members of the body (RFC 9457 §3.2). */
  readonly extensions?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** HyperFleet's answers several errors share; each adds its message as `detail`. */
const NOT_FOUND = { status: 404, code: 'HYPERFLEET-NTF-001', title: 'Resource Not Found', typeSlug: 'not-found' } as const;
const STATE_CONFLICT = { status: 409, code: 'HYPERFLEET-CNF-003', title: 'State Conflict', typeSlug: 'conflict' } as const;

/** Errors answered `NOT_FOUND` with their message and nothing more: an unknown resource or break-glass request. */
const NOT_FOUND_ERRORS = [ResourceNotFound, BreakGlassRequestNotFound];
/**
 * Errors answered `STATE_CONFLICT` with their message and nothing more. A cascade through a live reference
 * or a dependency cycle answers as a direct delete's guard does (the detail names the referrer and child, or
 * the cycle); an abandon answers so unless the deletion is Finalizing with that adapter pending.
 */
const STATE_CONFLICT_ERRORS = [
  MutationWhileFinalizing,
  NotFinalizing,
  ActiveChildrenRestrict,
  LiveReferrers,
  CascadeThroughLiveReference,
  DependencyCycle,
  AdapterNotPending,
];

/** Maps a thrown error, or undefined for an unexpected one (→ 500 with a generic detail, never a stack). */
export function mapError(error: unknown): MappedError | undefined {
  if (error instanceof DryRunRefused) {
    const mapped = mapError(error.refusal);
    return mapped && { ...mapped, extensions: { ...mapped.extensions, dry_run: true } };
  }
  if (error instanceof HttpProblem) {
    return {
      status: error.status,
      code: error.code,
      title: error.title,
      typeSlug: error.typeSlug,
      detail: error.message,
      ...(error.errors ? { errors: error.errors } : {}),
      ...(error.extensions ? { extensions: error.extensions } : {}),
      ...(error.headers ? { headers: error.headers } : {}),
    };
  }
  if (error instanceof ValidationFailed) {
    return {
      status: 400,
      code: 'HYPERFLEET-VAL-000',
      title: 'Validation Failed',
      typeSlug: 'validation-error',
      detail: error.message,
      errors: error.violations,
    };
  }
  if (NOT_FOUND_ERRORS.some((type) => error instanceof type)) return { ...NOT_FOUND, detail: (error as Error).message };
  if (STATE_CONFLICT_ERRORS.some((type) => error instanceof type)) return { ...STATE_CONFLICT, detail: (error as Error).message };
  // The protected resources are named in the detail and listed for clients (`protected_resources`).
  if (error instanceof DeletionProtected) {
    return { ...STATE_CONFLICT, detail: error.message, extensions: { protected_resources: error.protected_resources } };
  }
  // The blast-radius limit: Retry-After says when one more DELETE fits; `budget` names the bound hit.
  if (error instanceof DeletionBudgetExceeded) {
    return {
      status: 429,
      code: 'HYPERFLEET-LMT-001',
      title: 'Deletion Budget Exceeded',
      typeSlug: 'deletion-budget-exceeded',
      detail: error.message,
      extensions: {
        budget: {
          kind: error.kind,
          name: error.budget,
          limit: error.limit,
          used: error.used,
          ...(error.tenant ? { tenant: JSON.parse(error.tenant) as unknown } : {}),
        },
      },
      headers: { 'retry-after': String(error.retry_after_seconds) },
    };
  }
  // The two-person rule (break-glass.ts): a request no longer pending, the requester approving.
  if (error instanceof BreakGlassNotPending) {
    return { ...STATE_CONFLICT, detail: error.message, extensions: { request_id: error.request_id, request_status: error.status } };
  }
  if (error instanceof SelfApproval) {
    return { status: 403, code: 'HYPERFLEET-AUZ-001', title: 'Permission Denied', typeSlug: 'permission-denied', detail: error.message };
  }
  if (error instanceof NameAlreadyTaken) {
    return {
      status: 409,
      code: 'HYPERFLEET-CNF-001',
      title: 'Resource Conflict',
      typeSlug: 'conflict',
      detail: error.message,
      ...(error.existingId ? { extensions: { id: error.existingId } } : {}),
    };
  }
  if (error instanceof ConcurrencyConflict) {
    return {
      status: 409,
      code: 'HYPERFLEET-CNF-002',
      title: 'Version Conflict',
      typeSlug: 'conflict',
      detail: `the resource changed concurrently (${error.message}); retry`,
      extensions: { conflict: { stream: error.stream, expected: error.expected, actual: error.actual } },
    };
  }
  if (isTransientError(error)) {
    // A dependency (PostgreSQL, Redis) is away or the read side is behind: retry later.
    return {
      status: 503,
      code: 'HYPERFLEET-SVC-001',
      title: 'Service Unavailable',
      typeSlug: 'service-unavailable',
      detail:
        error instanceof QueueUnavailable
          ? `${error.message}; retry after ${RETRY_AFTER_SECONDS} s`
          : `a dependency (event store, read models or job queue) is unavailable; retry after ${RETRY_AFTER_SECONDS} s`,
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    };
  }
  // HyperFleet answers a search that does not parse with its BadRequest (VAL-005), as a bad field;
  // VAL-007 "Invalid Search Query" is defined there but never raised by a list.
  if (error instanceof SearchSyntaxError || error instanceof SearchFieldError) {
    return { status: 400, code: 'HYPERFLEET-VAL-005', title: 'Bad Request', typeSlug: 'bad-request', detail: error.message };
  }
  if (error instanceof InvalidParent) {
    return { status: 422, code: 'HYPERFLEET-VAL-000', title: 'Unprocessable Entity', typeSlug: 'validation-error', detail: error.message };
  }
  return undefined;
}
