/**
 * Reads `key` of a CEL map value as the activation holds it (a plain object, or a `Map` built by a
 * CEL map literal). `undefined` when `value` is not a map or has no such key; own keys only, so a
 * key named `constructor` or `__proto__` is never read from the prototype.
 */
export function mapGet(value: unknown, key: string): unknown {
  if (value instanceof Map) return value.get(key);
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
