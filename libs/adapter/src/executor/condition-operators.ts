import { isDeepStrictEqual } from 'node:util';
import type { FieldValue } from '../config/field-path.js';
import type { ConditionOperator } from '../config/task-config.types.js';

/** A structured condition could not be evaluated (e.g. `greaterThan` on a string). */
export class ConditionTypeError extends Error {}

function same(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

function number(value: unknown, what: string): number {
  if (typeof value === 'number') return value;
  throw new ConditionTypeError(`${what} ${JSON.stringify(value)} is not a number`);
}

function contains(haystack: unknown, needle: unknown): boolean {
  if (typeof haystack === 'string') {
    if (typeof needle !== 'string') throw new ConditionTypeError('contains on a string needs a string value');
    return haystack.includes(needle);
  }
  if (Array.isArray(haystack)) return haystack.some((item) => same(item, needle));
  if (haystack !== null && typeof haystack === 'object') return typeof needle === 'string' && Object.hasOwn(haystack, needle);
  throw new ConditionTypeError('contains needs a string, list or map field');
}

/** `exists` = present and not empty (`""`, `[]`, `{}` count as absent, like HyperFleet). */
function exists(field: FieldValue): boolean {
  if (!field.found) return false;
  const value = field.value;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/**
 * Evaluates one `conditions[]` entry against the field's value.
 * @throws ConditionTypeError when the operator does not apply to the values' types.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go "preconditions[]" (11 operators).
 */
export function evaluateCondition(operator: ConditionOperator, field: FieldValue, expected: unknown): boolean {
  const value = field.found ? field.value : null;
  switch (operator) {
    case 'exists':
      return exists(field);
    case 'notExists':
      return !exists(field);
    case 'equals':
      return same(value, expected ?? null);
    case 'notEquals':
      return !same(value, expected ?? null);
    case 'in':
    case 'notIn': {
      if (!Array.isArray(expected)) throw new ConditionTypeError(`${operator} needs a list value`);
      const found = expected.some((item) => same(value, item));
      return operator === 'in' ? found : !found;
    }
    case 'contains':
      if (!field.found) return false;
      return contains(value, expected);
    case 'greaterThan':
      return number(value, 'field') > number(expected, 'value');
    case 'greaterThanOrEqual':
      return number(value, 'field') >= number(expected, 'value');
    case 'lessThan':
      return number(value, 'field') < number(expected, 'value');
    case 'lessThanOrEqual':
      return number(value, 'field') <= number(expected, 'value');
  }
}
