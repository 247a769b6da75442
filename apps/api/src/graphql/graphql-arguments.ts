/**
 * Checks of GraphQL arguments the schema's types cannot express, refused (400, as REST refuses its query
 * parameters) rather than clamped.
 */
import { ValidationFailed } from '@decom/domain';

/** The highest `page` a list accepts (hyperfleet-api `pkg/handlers/list_params.go`, as REST). */
export const MAX_PAGE = 100_000;

/** @throws ValidationFailed (400, `min`/`max`) for an argument that is not an integer in [min, max]. */
export function requireRange(field: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ValidationFailed(`${field} must be an integer between ${min} and ${max}`, [
      { field, value, constraint: value < min ? 'min' : 'max', message: `${field} must be an integer between ${min} and ${max}` },
    ]);
  }
}

/** @throws ValidationFailed (400, `enum`) naming each of `values` that is not one of `allowed`. */
export function requireAmong(field: string, values: readonly string[] | null | undefined, allowed: readonly string[]): void {
  const unknown = (values ?? []).filter((value) => !allowed.includes(value));
  if (unknown.length === 0) return;
  const message = `${field} must be among ${allowed.join(', ')}`;
  throw new ValidationFailed(
    message,
    unknown.map((value) => ({ field, value, constraint: 'enum' as const, message })),
  );
}
