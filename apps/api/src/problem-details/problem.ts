/**
 * RFC 9457 problem details in HyperFleet's error model (contract §1.7): `type`, `title`, `status`,
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
  ) {
    super(detail);
  }
}

export const Problems = {
  notFoundEndpoint: (path: string) => new HttpProblem(404, 'HYPERFLEET-NTF-000', 'Endpoint Not Found', 'not-found', `no route for ${path}`),
  malformed: (detail: string) => new HttpProblem(400, 'HYPERFLEET-VAL-006', 'Malformed Request', 'malformed-request', detail),
  validation: (detail: string, errors: readonly FieldViolation[]) =>
    new HttpProblem(400, 'HYPERFLEET-VAL-000', 'Validation Failed', 'validation-error', detail, errors),
  forbidden: (detail: string) => new HttpProblem(403, 'HYPERFLEET-AUZ-001', 'Permission Denied', 'permission-denied', detail),
  childKindCreate: (kind: string, parentPlural: string, plural: string) =>
    new HttpProblem(422, 'HYPERFLEET-VAL-000', 'Unprocessable Entity', 'validation-error', `${kind} is a child kind; create it via /${parentPlural}/{id}/${plural}`),
  preconditionFailed: (detail: string) => new HttpProblem(412, 'HYPERFLEET-CNF-002', 'Version Conflict', 'conflict', detail),
};
