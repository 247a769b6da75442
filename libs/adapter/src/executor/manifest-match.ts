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
 * A manifest as an API server stores it, for the fields that are written one way and read
 * another: a core/v1 Secret's `stringData` is write-only, merged over `data` as base64
 * (kubernetes pkg/apis/core/v1/conversion.go), so an existing Secret is compared on `data`.
 */
export function asStored(manifest: Record<string, unknown>): Record<string, unknown> {
  if (manifest.apiVersion !== 'v1' || manifest.kind !== 'Secret' || !isRecord(manifest.stringData)) return manifest;
  const { stringData, ...rest } = manifest;
  const data = { ...(isRecord(rest.data) ? rest.data : {}) };
  for (const [key, value] of Object.entries(stringData))
    if (typeof value === 'string') data[key] = Buffer.from(value, 'utf8').toString('base64');
  return { ...rest, data };
}

/**
 * The fields a manifest sets that the existing object does not match (deep subset compare:
 * maps key by key, lists item by item with equal length, scalars strictly), as paths such as
 * `data.mode` or `spec.containers[0].image`. Fields only the existing object has are ignored;
 * so are the `hyperfleet.io/generation` and `decom.io/owner` annotations and the `decom.io/managed-by` and
 * `decom.io/owner-id` labels. The manifest is compared in its stored form (`asStored`: a Secret's
 * `stringData` as the base64 `data.<key>` it becomes). `[]` = matching
 * (seed 003 `AdoptIfMatching`).
 */
export function manifestDifferences(desired: Record<string, unknown>, existing: Record<string, unknown>): string[] {
  const out: string[] = [];
  collect(asStored(desired), existing, '', out);
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
 * Each differing field with both values, for messages (`AdoptedWithDrift`):
 * `spec.replicas: manifest 5, object 3` (values as JSON, an absent one as `absent`).
 */
export function describeDrift(desired: Record<string, unknown>, existing: Record<string, unknown>, paths: readonly string[]): string[] {
  const show = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));
  const stored = asStored(desired);
  return paths.map((path) => `${path}: manifest ${show(valueAt(stored, path))}, object ${show(valueAt(existing, path))}`);
}
