/**
 * The name rule of a resource kind (HyperFleet `entities`: `name_min_len`, `name_max_len`): lower-case
 * letters, digits and `-`, starting and ending with a letter or digit, within the kind's own length limits.
 */
import type { FieldViolation } from './errors.js';
import type { KindDescriptor } from './kinds.js';

export const RESOURCE_NAME_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The kind's length limits (HyperFleet's defaults 1..253 when the entity declares none). */
export function nameLimits(descriptor: KindDescriptor): { readonly min: number; readonly max: number } {
  return { min: descriptor.name_min_len ?? 1, max: descriptor.name_max_len ?? 253 };
}

/**
 * Violations of `name` (at most one): missing or not a string, wrong length for this kind, bad characters.
 * Every message states the whole rule with the kind's limits, e.g. `Cluster name must be 3..53 characters
 * of a-z, 0-9 and "-" (starting and ending with a letter or digit), got 1 character`.
 */
export function nameViolations(name: unknown, descriptor: KindDescriptor): FieldViolation[] {
  const { min, max } = nameLimits(descriptor);
  const rule = `${descriptor.kind} name must be ${min}..${max} characters of a-z, 0-9 and "-" (starting and ending with a letter or digit)`;
  if (typeof name !== 'string')
    return [
      {
        field: 'name',
        constraint: name === undefined ? 'required' : 'format',
        message: `${rule}, got ${name === undefined ? 'none' : typeof name === 'object' ? (name === null ? 'null' : 'an object') : `a ${typeof name}`}`,
      },
    ];
  if (name.length < min)
    return [
      {
        field: 'name',
        value: name,
        constraint: 'min_length',
        message: `${rule}, got ${name.length} character${name.length === 1 ? '' : 's'}`,
      },
    ];
  if (name.length > max)
    return [{ field: 'name', value: name, constraint: 'max_length', message: `${rule}, got ${name.length} characters` }];
  if (!RESOURCE_NAME_PATTERN.test(name))
    return [{ field: 'name', value: name, constraint: 'pattern', message: `${rule}, got other characters` }];
  return [];
}
