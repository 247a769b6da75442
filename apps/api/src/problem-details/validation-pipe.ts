/**
 * The global ValidationPipe: whitelist, forbid unknown fields, transform; its errors become
 * HyperFleet validation problems with `errors[{field, value, constraint, message}]`.
 */
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import type { FieldViolation } from '@decom/domain';
import { Problems } from './problem.js';

/**
 * The constraint name of a query parameter that may be given once (resources/dto/given-once.ts): answered
 * `unique`, with the values given (a list, unlike other violations, whose value is shown only when scalar).
 */
export const GIVEN_ONCE = 'givenOnce';

const CONSTRAINTS: Record<string, FieldViolation['constraint']> = {
  isDefined: 'required',
  min: 'min',
  max: 'max',
  minLength: 'min_length',
  maxLength: 'max_length',
  matches: 'pattern',
  isEnum: 'enum',
  whitelistValidation: 'format',
  [GIVEN_ONCE]: 'unique',
};

export function createValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: true, value: true },
    exceptionFactory,
  });
}

/**
 * A DTO body that is not a JSON object (`[]`, `"x"`, `3`) is one problem, "body must be a JSON object", not a
 * list of every field the DTO declares.
 */
class BodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: Parameters<ValidationPipe['transform']>[1]): Promise<unknown> {
    if (
      metadata.type === 'body' &&
      isDtoClass(metadata.metatype) &&
      value !== undefined &&
      (value === null || typeof value !== 'object' || Array.isArray(value))
    ) {
      throw Problems.malformed(`body must be a JSON object, got ${describe(value)}`);
    }
    return super.transform(value, metadata);
  }
}

/** A DTO class, not a body typed `unknown`/`object`/built-in (which the pipe leaves alone, as Nest does). */
function isDtoClass(metatype: unknown): boolean {
  return typeof metatype === 'function' && ![Object, Array, String, Number, Boolean, Buffer, Date].includes(metatype as never);
}

/**
 * A param pipe that validates against `expectedType` but drops unknown fields instead of refusing them:
 * HyperFleet ignores unknown list query parameters and read-only/unknown create-body fields.
 * The parameter must be typed without a class (e.g. `Readonly<Dto>`) so the global strict pipe skips it.
 */
export function createLenientValidationPipe(expectedType: new () => object): ValidationPipe {
  return new BodyValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    expectedType,
    validationError: { target: true, value: true },
    exceptionFactory,
  });
}

/**
 * `createLenientValidationPipe` for query DTOs whose fields are all optional. Validation of a query string
 * is deterministic, so the outcome of each distinct one is kept (up to 256; failures are not kept and
 * throw anew): a repeated `?size=20` or `?search=...` skips class-transformer and class-validator, and a
 * request without parameters (most GETs) never runs them (their metadata walk was a measurable
 * share of a GET's cost). Handlers treat the result as read-only, so sharing it is safe.
 */
export function createQueryValidationPipe(expectedType: new () => object): QueryValidationPipe {
  return new QueryValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    expectedType,
    validationError: { target: true, value: true },
    exceptionFactory,
  });
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
  if (hasUnknownField(errors)) return Problems.malformed(detail);
  // Only when nothing else is wrong: HyperFleet validates page/size/ref_* before it reads `order`.
  if (isBadRequestOnly(errors)) return Problems.badRequest(detail, violations);
  return Problems.validation(detail, violations);
}

function hasUnknownField(errors: readonly ValidationError[]): boolean {
  return errors.some((e) => 'whitelistValidation' in (e.constraints ?? {}) || hasUnknownField(e.children ?? []));
}

function isBadRequestOnly(errors: readonly ValidationError[]): boolean {
  return (
    errors.length > 0 &&
    errors.every(
      (e) =>
        (e.children ?? []).length === 0 &&
        Object.keys(e.constraints ?? {}).length > 0 &&
        Object.keys(e.constraints ?? {}).every((name) => e.contexts?.[name]?.['problem'] === BAD_REQUEST_CONTEXT.problem),
    )
  );
}

/** class-validator's type checks, by constraint name: what the field must be. */
const TYPE_CHECKS: Record<string, string> = {
  isString: 'a string',
  isInt: 'an integer',
  isNumber: 'a number',
  isBoolean: 'true or false',
  isObject: 'a JSON object',
  isArray: 'an array',
  nestedValidation: 'a JSON object',
};
/** Which type check speaks for a field that fails several: the container before what its items must be. */
const TYPE_CHECK_ORDER = ['isArray', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isObject', 'nestedValidation'];

/**
 * One violation per problem: class-validator reports every constraint of a field at once ("must not be
 * greater than 1000; must not be less than 1; must be an integer number" for `abc`), which hides the one
 * that matters. A missing field is only "required"; a value of the wrong type only says the type wanted
 * and what was sent; the remaining constraints (range, pattern, enum) each say their own rule.
 */
function flatten(errors: readonly ValidationError[], prefix = ''): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const error of errors) {
    const field = prefix ? (/^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`) : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    const shown = error.value !== undefined && typeof error.value !== 'object' ? { value: error.value } : {};
    if (constraints.some(([name]) => name === 'whitelistValidation')) {
      const allowed = allowedFields(error.target);
      out.push({
        field,
        constraint: 'format',
        message: `field '${field}' is not allowed${allowed.length > 0 ? `; allowed: ${allowed.join(', ')}` : ''}`,
      });
      continue;
    }
    if (constraints.length > 0 && error.value === undefined) {
      const own = constraints.find(([name]) => name === 'isDefined');
      out.push({ field, constraint: 'required', message: own?.[1] ?? `${field} is required` });
      continue;
    }
    // The field's own type first: a list of objects sent as `"x"` fails `isArray` and the per-item object
    // checks at once, and "must be an array" is what the caller needs to hear.
    const wrongType = constraints
      .filter(([name]) => name in TYPE_CHECKS)
      .sort(([a], [b]) => TYPE_CHECK_ORDER.indexOf(a) - TYPE_CHECK_ORDER.indexOf(b))[0];
    if (wrongType) {
      const [name, message] = wrongType;
      // A custom message (e.g. IntegerQueryParam's) already names the value; class-validator's default does not.
      const custom = !/ must be an? (string|integer number|number conforming|boolean value|object|array)|either object or array/.test(
        message,
      );
      out.push({
        field,
        ...shown,
        constraint: 'format',
        message: custom ? message : `${field} must be ${TYPE_CHECKS[name]}, got ${describe(error.value)}`,
      });
      continue;
    }
    for (const [name, message] of constraints) {
      const value = name === GIVEN_ONCE ? { value: error.value } : shown;
      out.push({ field, ...value, constraint: CONSTRAINTS[name] ?? 'format', message });
    }
    out.push(...flatten(error.children ?? [], field));
  }
  return out;
}

/** The fields a DTO declares (its class-validator metadata), for "allowed: …" in an unknown-field message. */
function allowedFields(target: object | undefined): string[] {
  if (!target) return [];
  const declared = getMetadataStorage().getTargetValidationMetadatas(target.constructor, '', true, false);
  return [...new Set(declared.map((m) => m.propertyName))].sort();
}

/** What was sent, briefly: a quoted string (at most 32 characters), a number, null, an array or an object. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 32 ? `${value.slice(0, 32)}…` : value);
  return String(value);
}
