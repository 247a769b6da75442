import { JSONPath } from 'jsonpath-plus';
import type { FieldPath } from './task-config.types.js';

/**
 * Parses a capture/condition/value `field`: Kubernetes-style JSONPath when wrapped in braces
 * (`{.items[0].name}`, `{.items[?(@.adapter=='x')].data}`), otherwise a dot path
 * (`status.phase`, `items.0.name`).
 * @returns the parsed path, or an error message for the loader.
 */
export function parseFieldPath(source: string, where: string): FieldPath | { error: string } {
  const text = source.trim();
  if (text.startsWith('{')) {
    if (!text.endsWith('}') || text.length < 3) return { error: `invalid JSONPath ${JSON.stringify(source)}: expected {.path}` };
    const inner = text.slice(1, -1).trim();
    const jsonPath = inner.startsWith('$') ? inner : `$${inner.startsWith('.') || inner.startsWith('[') ? '' : '.'}${inner}`;
    return { source, where, jsonPath };
  }
  const segments = text.split('.');
  if (segments.some((s) => s === '')) return { error: `invalid field path ${JSON.stringify(source)}: empty segment` };
  return { source, where, segments };
}

/** Result of reading a field: `found: false` when any segment is missing or null. */
export type FieldValue = { readonly found: true; readonly value: unknown } | { readonly found: false };

/**
 * Reads a parsed field path from `data`. Dot paths walk maps and (numeric segments) lists;
 * JSONPath returns the single match, or the list of matches when there are several.
 */
export function readFieldPath(path: FieldPath, data: unknown): FieldValue {
  if (path.jsonPath !== undefined) {
    if (data === null || typeof data !== 'object') return { found: false };
    const matches = JSONPath({ path: path.jsonPath, json: data as object, wrap: true }) as unknown[];
    if (!Array.isArray(matches) || matches.length === 0) return { found: false };
    const value = matches.length === 1 ? matches[0] : matches;
    return value === null || value === undefined ? { found: false } : { found: true, value };
  }
  let current: unknown = data;
  for (const segment of path.segments ?? []) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (current !== null && typeof current === 'object' && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else return { found: false };
    if (current === undefined) return { found: false };
  }
  return current === null ? { found: false } : { found: true, value: current };
}
