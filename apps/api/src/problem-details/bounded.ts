/**
 * Problem details never echo unbounded input: a 5,000-character id or a 100 KB query must not
 * come back in `detail`, `instance` or `errors[].value`. Every renderer (Nest filter, Fastify handlers,
 * GraphQL) passes its body through `boundedProblem` last, so no single message has to remember it.
 */
import type { FieldViolation } from '@decom/domain';

/** Characters kept of `detail` (a message plus a few quoted values fits easily). */
export const MAX_DETAIL_CHARS = 1024;
/** Characters kept of `instance` (the request path). */
export const MAX_INSTANCE_CHARS = 256;
/** Characters kept of a string in `errors[].value` and `errors[].field`. */
export const MAX_VALUE_CHARS = 128;
/** Violations listed at most. */
export const MAX_ERRORS = 50;

/** `text` cut to `max` characters with `…` marking the cut. */
export function bounded(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function boundedErrors(errors: readonly FieldViolation[]): FieldViolation[] {
  return errors.slice(0, MAX_ERRORS).map((e) => ({
    ...e,
    field: bounded(e.field, MAX_VALUE_CHARS),
    message: bounded(e.message, MAX_DETAIL_CHARS),
    ...(typeof e.value === 'string' ? { value: bounded(e.value, MAX_VALUE_CHARS) } : {}),
  }));
}

/** The same body with `detail`, `instance` and `errors` bounded. */
export function boundedProblem<T extends { detail: string; instance?: string; errors?: readonly FieldViolation[] }>(body: T): T {
  return {
    ...body,
    detail: bounded(body.detail, MAX_DETAIL_CHARS),
    ...(body.instance !== undefined ? { instance: bounded(body.instance, MAX_INSTANCE_CHARS) } : {}),
    ...(body.errors ? { errors: boundedErrors(body.errors) } : {}),
  };
}
