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
 * `createLenientValidationPipe` for query DTOs whose fields are all optional: a request without query
 * parameters (most GETs) has nothing to validate or drop, so it skips class-transformer and class-validator
 * (issue 16: their metadata walk was a measurable share of a GET's cost).
 */
export function createQueryValidationPipe(expectedType: new () => object): ValidationPipe {
  return new QueryValidationPipe({ whitelist: true, forbidNonWhitelisted: false, transform: true, expectedType, exceptionFactory });
}

class QueryValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: Parameters<ValidationPipe['transform']>[1]): Promise<unknown> {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return Promise.resolve({});
    return super.transform(value, metadata);
  }
}

function exceptionFactory(errors: ValidationError[]) {
  const violations = flatten(errors);
  if (violations.some((v) => v.message.includes('should not exist'))) {
    return Problems.malformed(violations.map((v) => v.message).join('; '));
  }
  return Problems.validation(violations.map((v) => v.message).join('; '), violations);
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
