import { EvaluationError, Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { durationNanos } from './cel-values.js';

/**
 * CEL equality and ordering over cel-js runtime values, for the list extension (`distinct`,
 * `sort`, `sortBy`). Hand-rolled: cel-js keeps its `==` and `<` overloads internal.
 * Equality is CEL's heterogeneous equality (`1 == 1.0 == 1u`, deep on lists and maps);
 * ordering follows cel-go's `ext.Lists` and only compares values of the same kind.
 */

type Kind = 'null' | 'bool' | 'number' | 'string' | 'bytes' | 'timestamp' | 'duration' | 'list' | 'map' | 'optional' | 'other';

function kindOf(value: unknown): Kind {
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'bigint':
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'object':
      if (value === null) return 'null';
      if (value instanceof UnsignedInt) return 'number';
      if (value instanceof Date) return 'timestamp';
      if (value instanceof Duration) return 'duration';
      if (value instanceof Uint8Array) return 'bytes';
      if (value instanceof Optional) return 'optional';
      if (Array.isArray(value) || value instanceof Set) return 'list';
      return 'map';
    default:
      return 'other';
  }
}

/** The sort-relevant type name: CEL's `sort` refuses to mix `int` with `double` or `uint`. */
function sortTypeOf(value: unknown): string {
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (value instanceof UnsignedInt) return 'uint';
  return kindOf(value);
}

function numericValue(value: unknown): bigint | number {
  return value instanceof UnsignedInt ? value.value : (value as bigint | number);
}

function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'number' && Number.isNaN(a)) return NaN;
  if (typeof b === 'number' && Number.isNaN(b)) return NaN;
  if (typeof a === typeof b) return a < b ? -1 : a > b ? 1 : 0;
  // Mixed bigint/number: compare exactly, without rounding the bigint through a double.
  if (typeof a === 'number') return -compareNumbers(b, a);
  const n = b as number;
  if (!Number.isFinite(n)) return n > 0 ? -1 : 1;
  const floor = BigInt(Math.floor(n));
  if (a !== floor) return a < floor ? -1 : 1;
  return n === Math.floor(n) ? 0 : -1;
}

/**
 * Orders strings by Unicode code point (as Go compares UTF-8 bytes), not by UTF-16 unit:
 * surrogates (astral code points) sort after U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function mapEntries(value: unknown): Map<string, unknown> {
  if (value instanceof Map) {
    const out = new Map<string, unknown>();
    for (const [k, v] of value) out.set(`${kindOf(k)}:${String(numericKey(k))}`, v);
    return out;
  }
  return new Map(Object.entries(value as object).map(([k, v]) => [`string:${k}`, v]));
}

/** Numeric map keys compare by value (`{1: x}` and `{1u: x}` share a key). */
function numericKey(key: unknown): unknown {
  return key instanceof UnsignedInt ? key.value : typeof key === 'number' && Number.isInteger(key) ? BigInt(key) : key;
}

/** CEL `==` over runtime values. */
export function celEquals(a: unknown, b: unknown): boolean {
  const kind = kindOf(a);
  if (kind !== kindOf(b)) return false;
  switch (kind) {
    case 'null':
      return true;
    case 'number':
      return compareNumbers(numericValue(a), numericValue(b)) === 0;
    case 'timestamp':
      return (a as Date).getTime() === (b as Date).getTime();
    case 'duration':
      return durationNanos(a as Duration) === durationNanos(b as Duration);
    case 'bytes': {
      const x = a as Uint8Array;
      const y = b as Uint8Array;
      return x.length === y.length && x.every((byte, i) => byte === y[i]);
    }
    case 'list': {
      const x = [...(a as Iterable<unknown>)];
      const y = [...(b as Iterable<unknown>)];
      return x.length === y.length && x.every((item, i) => celEquals(item, y[i]));
    }
    case 'map': {
      const x = mapEntries(a);
      const y = mapEntries(b);
      if (x.size !== y.size) return false;
      for (const [k, v] of x) if (!y.has(k) || !celEquals(v, y.get(k))) return false;
      return true;
    }
    case 'optional': {
      const x = a as Optional;
      const y = b as Optional;
      if (!x.hasValue() || !y.hasValue()) return x.hasValue() === y.hasValue();
      return celEquals(x.value(), y.value());
    }
    default:
      return a === b;
  }
}

/**
 * CEL ordering for `sort`/`sortBy`: negative, zero or positive.
 * @throws EvaluationError when the two values are of different types or not orderable.
 */
export function celCompare(a: unknown, b: unknown): number {
  const type = sortTypeOf(a);
  if (type !== sortTypeOf(b)) {
    throw new EvaluationError(`list elements must have the same type: got '${type}' and '${sortTypeOf(b)}'`);
  }
  switch (kindOf(a)) {
    case 'bool':
      return Number(a) - Number(b);
    case 'number':
      return compareNumbers(numericValue(a), numericValue(b));
    case 'string':
      return compareCodePoints(a as string, b as string);
    case 'timestamp':
      return (a as Date).getTime() - (b as Date).getTime();
    case 'duration': {
      const d = durationNanos(a as Duration) - durationNanos(b as Duration);
      return d < 0n ? -1 : d > 0n ? 1 : 0;
    }
    case 'bytes': {
      const x = a as Uint8Array;
      const y = b as Uint8Array;
      for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return x.length - y.length;
    }
    default:
      throw new EvaluationError(`values of type '${type}' are not orderable`);
  }
}
