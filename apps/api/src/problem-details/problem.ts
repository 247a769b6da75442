/**
 * RFC 9457 problem details in HyperFleet's error model: `type`, `title`, `status`,
 * `detail`, `code`, `timestamp`, `instance`, `trace_id`, and `errors[]` for validation.
 */
import type { FieldViolation } from '@decom/domain';

export const PROBLEM_TYPE_BASE = 'https://api.hyperfleet.io/errors/';

export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly timestamp: string;
  readonly instance: string;
  readonly trace_id: string;
  readonly errors?: readonly FieldViolation[];
  /** Extension members (RFC 9457 §3.2), e.g. the existing resource's `id` and `href` on a name conflict. */
  readonly [extension: string]: unknown;
}

/** An HTTP-level problem raised at the edge (routing, body parsing, authorization). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly typeSlug: string,
    detail: string,
    readonly errors?: readonly FieldViolation[],
    /** Extension members added to the body. */
    readonly extensions?: Readonly<Record<string, unknown>>,
    /** Response headers, e.g. `Retry-After`. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(detail);
  }
}

/** Seconds a client should wait before retrying a 503 (the supervisor's first restarts take < 1 s). */
export const RETRY_AFTER_SECONDS = 2;

export const Problems = {
  notFoundEndpoint: (path: string) => new HttpProblem(404, 'HYPERFLEET-NTF-000', 'Endpoint Not Found', 'not-found', `no route for ${path}`),
  malformed: (detail: string) => new HttpProblem(400, 'HYPERFLEET-VAL-006', 'Malformed Request', 'malformed-request', detail),
  validation: (detail: string, errors: readonly FieldViolation[]) =>
    new HttpProblem(400, 'HYPERFLEET-VAL-000', 'Validation Failed', 'validation-error', detail, errors),
  /** 400 VAL-005, HyperFleet's `BadRequest`: a search that does not parse or names a bad field, a bad `order`, an empty PATCH. */
  badRequest: (detail: string, errors?: readonly FieldViolation[]) =>
    new HttpProblem(400, 'HYPERFLEET-VAL-005', 'Bad Request', 'bad-request', detail, errors),
  /** 401 AUT-001: no credentials on a request that needs them. */
  authenticationRequired: () =>
    new HttpProblem(
      401,
      'HYPERFLEET-AUT-001',
      'Authentication Required',
      'authentication-error',
      'this request needs a bearer token (Authorization: Bearer <JWT>)',
    ),
  /** 401 AUT-002: credentials present but not usable (not a bearer token, bad identity). */
  invalidCredentials: (detail: string) => new HttpProblem(401, 'HYPERFLEET-AUT-002', 'Invalid Credentials', 'authentication-error', detail),
  /**
   * 401 for a bearer token that does not verify, with HyperFleet's codes: AUT-003 "Token Expired" when
   * `reason` is `expired`, else AUT-002 "Invalid Credentials" (malformed, wrong audience, bad signature,
   * ...). `reason` is stable and never says which check failed beyond it.
   */
  invalidToken: (reason: string) =>
    reason === 'expired'
      ? new HttpProblem(401, 'HYPERFLEET-AUT-003', 'Token Expired', 'authentication-error', 'the bearer token was refused: expired')
      : new HttpProblem(
          401,
          'HYPERFLEET-AUT-002',
          'Invalid Credentials',
          'authentication-error',
          `the bearer token was refused: ${reason}`,
        ),
  /** 503 SVC-001: the issuer's keys cannot be fetched right now; nothing is accepted meanwhile. */
  authenticationUnavailable: () =>
    new HttpProblem(
      503,
      'HYPERFLEET-SVC-001',
      'Service Unavailable',
      'service-unavailable',
      'token keys are unavailable right now; retry later',
    ),
  rateLimited: (detail: string) => new HttpProblem(429, 'HYPERFLEET-LMT-001', 'Too Many Requests', 'rate-limit', detail),
  methodNotAllowed: (detail: string) => new HttpProblem(405, 'HYPERFLEET-VAL-006', 'Method Not Allowed', 'bad-request', detail),
  forbidden: (detail: string) => new HttpProblem(403, 'HYPERFLEET-AUZ-001', 'Permission Denied', 'permission-denied', detail),
  childKindCreate: (kind: string, parentPlural: string, plural: string) =>
    new HttpProblem(
      422,
      'HYPERFLEET-VAL-000',
      'Unprocessable Entity',
      'validation-error',
      `${kind} is a child kind; create it via /${parentPlural}/{id}/${plural}`,
    ),
  /** 503 while a dependency is down or the read model is catching up; nothing was applied. */
  unavailable: (detail: string) =>
    new HttpProblem(503, 'HYPERFLEET-SVC-001', 'Service Unavailable', 'service-unavailable', detail, undefined, undefined, {
      'retry-after': String(RETRY_AFTER_SECONDS),
    }),
  /** 409 on a name held by another resource, naming it (`id`, `href`) so a client retrying a lost create learns it. */
  nameTaken: (detail: string, existing: { id: string; href: string }) =>
    new HttpProblem(409, 'HYPERFLEET-CNF-001', 'Resource Conflict', 'conflict', detail, undefined, existing),
  preconditionFailed: (detail: string) => new HttpProblem(412, 'HYPERFLEET-CNF-002', 'Version Conflict', 'conflict', detail),
};
