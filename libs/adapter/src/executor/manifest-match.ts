import { GENERATION_ANNOTATION } from '../transport/newest-generation.js';
import { OWNER_ANNOTATION } from './ownership.js';

/** Bookkeeping annotations that say who manages an object, not what it is: never compared. */
const IGNORED_PATHS = new Set([`metadata.annotations.${GENERATION_ANNOTATION}`, `metadata.annotations.${OWNER_ANNOTATION}`]);

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
 * so are the `hyperfleet.io/generation` and `decom.io/owner` annotations. `[]` = matching
 * (seed 003 `AdoptIfMatching`).
 */
export function manifestDifferences(desired: Record<string, unknown>, existing: Record<string, unknown>): string[] {
  const out: string[] = [];
  collect(desired, existing, '', out);
  return out;
}
