/**
 * `@ApiProblems(400, 404, 409)`: the 4xx answers an operation names (HyperFleet's spec lists them per
 * operation), plus `default`, each an RFC 9457 problem (`ProblemAnswer`). 401 and 403 are not listed here:
 * they follow from the route being public or not (operation-security.ts adds them).
 */
import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ProblemAnswer } from './answers/problem.answer.js';

const WHY: Record<number, string> = {
  400: 'the request is invalid (validation: HYPERFLEET-VAL-000; malformed: VAL-006)',
  401: 'no verified caller: the bearer token is missing, invalid or expired (HYPERFLEET-AUT-001..003)',
  403: "the caller's roles, tenant or host do not allow it (HYPERFLEET-AUZ-001)",
  404: 'no such resource, kind or route',
  405: 'the method is not allowed here (`Allow` names those that are)',
  409: "refused by the resource's state (e.g. while deleting, deletion protection)",
  429: 'rate limit or deletion budget exceeded (Retry-After in seconds)',
  501: 'not supported by this process',
  503: 'a dependency is unavailable, or writes are refused while the read models catch up (Retry-After)',
};

/** The `responses` entry of one problem answer, as the document states it. */
export function problemResponse(status: number | 'default'): {
  description: string;
  content: Record<string, { schema: { $ref: string } }>;
} {
  return {
    description:
      status === 'default' ? 'RFC 9457 problem details (HyperFleet error model)' : `RFC 9457 problem details: ${WHY[status] ?? 'refused'}`,
    content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemAnswer) } } },
  };
}

export function ApiProblems(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemAnswer),
    ...[...statuses, 'default' as const].map((status) => ApiResponse({ status, ...problemResponse(status) })),
  );
}
