import { GENERATION_ANNOTATION } from '../transport/newest-generation.js';
import { OWNERSHIP_LABELS, OWNER_ANNOTATION } from './ownership.js';

/** Bookkeeping annotations and labels that say who manages an object, not what it is: never compared. */
const IGNORED_PATHS = new Set([
  `metadata.annotations.${GENERATION_ANNOTATION}`,
  `metadata.annotations.${OWNER_ANNOTATION}`,
  ...OWNERSHIP_LABELS.map((label) => `metadata.labels.${label}`),
  'metadata.resourceVersion',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

function collect(desired: unknown, existing: unknown, path: string, out: string[]): void {
  if (IGNORED_PATHS.has(path)) return;
  if (isRecord(desired)) {
    if (!isRecord(existing)) {
      out.push(path);
      return;
    }
    for (const [key, value] of Object.entries(desired)) collect(value, existing[key], child(path, key), out);
    return;
  }
  if (Array.isArray(desired)) {
    // Same length, each item a subset: servers default fields inside list items (containers...).
    if (!Array.isArray(existing) || existing.length !== desired.length) {
      out.push(path);
      return;
    }
    desired.forEach((item, i) => collect(item, existing[i], child(path, i), out));
    return;
  }
  if (desired !== existing) out.push(path);
}

/**
 * The fields a manifest sets that the existing object does not match (deep subset compare:
 * maps key by key, lists item by item with equal length, scalars strictly), as paths such as
 * `data.mode` or `spec.containers[0].image`. Fields only the existing object has are ignored;
 * so are the `hyperfleet.io/generation` and `decom.io/owner` annotations and the `decom.io/managed-by` and
 * `decom.io/owner-id` labels. `[]` = matching
 * (seed 003 `AdoptIfMatching`).
 */
export function manifestDifferences(desired: Record<string, unknown>, existing: Record<string, unknown>): string[] {
  const out: string[] = [];
  collect(desired, existing, '', out);
  return out;
}

/** The value at a path of `manifestDifferences` (`spec.containers[0].image`), or undefined. */
export function valueAt(object: unknown, path: string): unknown {
  let current: unknown = object;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[/^\d+$/.test(part) && Array.isArray(current) ? Number(part) : part];
  }
  return current;
}

/**
 * Each differing field with both values, for messages (issue #11 `AdoptedWithDrift`):
 * `spec.replicas: manifest 5, object 3` (values as JSON, an absent one as `absent`).
 */
export function describeDrift(desired: Record<string, unknown>, existing: Record<string, unknown>, paths: readonly string[]): string[] {
  const show = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));
  return paths.map((path) => `${path}: manifest ${show(valueAt(desired, path))}, object ${show(valueAt(existing, path))}`);
}
