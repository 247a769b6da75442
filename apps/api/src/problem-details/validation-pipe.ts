/**
 * The global ValidationPipe (STYLE §4.1): whitelist, forbid unknown fields, transform; its errors become
 * HyperFleet validation problems with `errors[{field, value, constraint, message}]`.
 */
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import type { FieldViolation } from '@decom/domain';
import { Problems } from './problem.js';

const CONSTRAINTS: Record<string, FieldViolation['constraint']> = {
  isDefined: 'required',
  min: 'min',
  max: 'max',
  minLength: 'min_length',
  maxLength: 'max_length',
  matches: 'pattern',
  isEnum: 'enum',
  whitelistValidation: 'format',
};

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, exceptionFactory });
}

/**
 * A param pipe that validates against `expectedType` but drops unknown fields instead of refusing them:
 * HyperFleet ignores unknown list query parameters and read-only/unknown create-body fields.
 * The parameter must be typed without a class (e.g. `Readonly<Dto>`) so the global strict pipe skips it.
 */
export function createLenientValidationPipe(expectedType: new () => object): ValidationPipe {
  return new ValidationPipe({ whitelist: true, forbidNonWhitelisted: false, transform: true, expectedType, exceptionFactory });
}

/**
 * `createLenientValidationPipe` for query DTOs whose fields are all optional. Validation of a query string
 * is deterministic, so the outcome of each distinct one is kept (up to 256; failures are not kept and
 * throw anew): a repeated `?size=20` or `?search=...` skips class-transformer and class-validator, and a
 * request without parameters (most GETs) never runs them (issue 16: their metadata walk was a measurable
 * share of a GET's cost). Handlers treat the result as read-only, so sharing it is safe.
 */
export function createQueryValidationPipe(expectedType: new () => object): QueryValidationPipe {
  return new QueryValidationPipe({ whitelist: true, forbidNonWhitelisted: false, transform: true, expectedType, exceptionFactory });
}

const MAX_KEPT_QUERIES = 256;
/** Longer query strings are validated every time (not kept). */
const MAX_KEPT_QUERY_LENGTH = 2048;

export class QueryValidationPipe extends ValidationPipe {
  private readonly kept = new Map<string, unknown>();

  /** The outcome `transform` would give for `value` when it is already known (no parameters, or kept); else undefined. */
  keptResult(value: unknown): unknown {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    if (Object.keys(value).length === 0) return {};
    const key = JSON.stringify(value);
    return key.length > MAX_KEPT_QUERY_LENGTH ? undefined : this.kept.get(key);
  }

  override async transform(value: unknown, metadata: Parameters<ValidationPipe['transform']>[1]): Promise<unknown> {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return super.transform(value, metadata);
    if (Object.keys(value).length === 0) return {};
    const key = JSON.stringify(value);
    if (key.length > MAX_KEPT_QUERY_LENGTH) return super.transform(value, metadata);
    const hit = this.kept.get(key);
    if (hit !== undefined) return hit;
    const result: unknown = Object.freeze(await super.transform(value, metadata));
    if (this.kept.size >= MAX_KEPT_QUERIES) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, result);
    return result;
  }
}

/**
 * The `context` a DTO constraint sets to be answered as HyperFleet's `BadRequest` (400 VAL-005) rather
 * than a validation failure (VAL-000), e.g. `order` (HyperFleet checks it in its list service).
 */
export const BAD_REQUEST_CONTEXT = { problem: 'bad-request' } as const;

function exceptionFactory(errors: ValidationError[]) {
  const violations = flatten(errors);
  const detail = violations.map((v) => v.message).join('; ');
  if (violations.some((v) => v.message.includes('should not exist'))) return Problems.malformed(detail);
  // Only when nothing else is wrong: HyperFleet validates page/size/ref_* before it reads `order`.
  if (isBadRequestOnly(errors)) return Problems.badRequest(detail, violations);
  return Problems.validation(detail, violations);
}

function isBadRequestOnly(errors: readonly ValidationError[]): boolean {
  return errors.length > 0 && errors.every((e) => (e.children ?? []).length === 0 && Object.keys(e.constraints ?? {}).length > 0 && Object.keys(e.constraints ?? {}).every((name) => e.contexts?.[name]?.['problem'] === BAD_REQUEST_CONTEXT.problem));
}

function flatten(errors: readonly ValidationError[], prefix = ''): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const error of errors) {
    const field = prefix ? (/^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`) : error.property;
    for (const [name, message] of Object.entries(error.constraints ?? {})) {
      out.push({
        field,
        ...(error.value !== undefined && typeof error.value !== 'object' ? { value: error.value } : {}),
        constraint: CONSTRAINTS[name] ?? 'format',
        message: name === 'whitelistValidation' ? `field '${field}' should not exist` : message,
      });
    }
    out.push(...flatten(error.children ?? [], field));
  }
  return out;
}
