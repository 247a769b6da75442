import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';

/**
 * Conversion between the JSON-ish JS values the executor works with and cel-js's runtime values.
 *
 * In:  integer `number`s (within int64) → CEL `int` (bigint), so `generation == 2`, `generation + 1`
 *      and `int` overloads behave as in cel-go; other numbers stay `double`; `Date` is a timestamp;
 *      `undefined` object members are left out (the key is absent), as JSON would.
 * Out: CEL `int`/`uint` → `number` when a safe integer, else `bigint`; maps → plain objects;
 *      timestamps → `Date`; durations → their CEL string form (`"90s"`, `"1.5s"`, as `string(d)`);
 *      optionals → their value, or `null` when empty; types → their name (`"int"`); bytes → `Uint8Array`.
 */

const INT64_LIMIT = 2 ** 63;

/** Converts one variable's value for the activation. `path` names it in error messages. */
export function toCelValue(value: unknown, path: string): unknown {
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && value >= -INT64_LIMIT && value < INT64_LIMIT ? BigInt(value) : value;
    case 'string':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return value;
    case 'object':
      return value === null ? null : objectToCel(value, path);
    default:
      throw new TypeError(`unsupported ${typeof value} value at ${path}`);
  }
}

function objectToCel(value: object, path: string): unknown {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`invalid Date at ${path}`);
    return value;
  }
  // Array.from, not map: the result must be this realm's Array even for an array built in another
  // realm (structuredClone, vm contexts), or cel-js's constructor-based type check rejects it.
  if (Array.isArray(value)) return Array.from(value, (item, i) => toCelValue(item, `${path}[${i}]`) ?? null);
  if (value instanceof Uint8Array || value instanceof Duration || value instanceof UnsignedInt) return value;
  if (value instanceof Optional) return value;
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>();
    for (const [k, v] of value) {
      const converted = toCelValue(v, `${path}.${String(k)}`);
      if (converted !== undefined) out.set(typeof k === 'number' ? toCelValue(k, path) : k, converted);
    }
    return out;
  }
  // Plain objects and class instances (e.g. @kubernetes/client-node models) alike: own enumerable
  // data members, the same view JSON.stringify takes.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'function') continue;
    const converted = toCelValue(v, `${path}.${k}`);
    if (converted !== undefined) out[k] = converted;
  }
  return out;
}

/** Converts an evaluation result to plain JS (see the module comment for the mapping). */
export function fromCelValue(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      return integerToJs(value);
    case 'undefined':
      return null;
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof UnsignedInt) return integerToJs(value.value);
  if (value instanceof Duration) return formatDuration(value);
  if (value instanceof Optional) return value.hasValue() ? fromCelValue(value.value()) : null;
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (Array.isArray(value) || value instanceof Set) return [...value].map(fromCelValue);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[mapKeyToString(k)] = fromCelValue(v);
    return out;
  }
  if (isCelType(value)) return value.name;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = fromCelValue(v);
  return out;
}

function integerToJs(value: bigint): number | bigint {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

/** String form of a map key (CEL keys are string, int, uint or bool). */
export function mapKeyToString(key: unknown): string {
  if (key instanceof UnsignedInt) return key.value.toString();
  return String(key);
}

/** cel-js does not export its `Type` class; its values print as `Type<int>` and carry a `name`. */
function isCelType(value: object): value is { name: string } {
  return Object.prototype.toString.call(value).startsWith('[object Type<') && typeof (value as { name?: unknown }).name === 'string';
}

/**
 * RFC 3339 in UTC with the fraction trimmed of trailing zeros and left out when zero, as Go's
 * `time.RFC3339Nano` (cel-go's `string(timestamp)`) prints it: `2024-01-01T00:00:00Z`, `…:00.5Z`.
 */
export function formatTimestamp(value: Date): string {
  return value
    .toISOString()
    .replace(/(\.\d*?)0+Z$/, '$1Z')
    .replace(/\.Z$/, 'Z');
}

/** cel-go's `string(duration)`: seconds with a trimmed fraction and an `s` suffix (`90s`, `-1.5s`). */
export function formatDuration(value: Duration): string {
  const totalNanos = durationNanos(value);
  const sign = totalNanos < 0n ? '-' : '';
  const abs = totalNanos < 0n ? -totalNanos : totalNanos;
  const seconds = abs / 1_000_000_000n;
  const fraction = (abs % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${sign}${seconds}${fraction ? `.${fraction}` : ''}s`;
}

/** Total nanoseconds of a duration (cel-js stores seconds as bigint and nanos as a signed number). */
export function durationNanos(value: Duration): bigint {
  return value.seconds * 1_000_000_000n + BigInt(value.nanos);
}
