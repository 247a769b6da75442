/**
 * How JavaScript data maps onto the Go values a HyperFleet template sees.
 *
 * | JavaScript                           | Go                          | prints (`%v`)     |
 * |--------------------------------------|-----------------------------|-------------------|
 * | string                               | string                      | as is             |
 * | boolean                              | bool                        | true / false      |
 * | integral number (JSON `3`)           | int                         | `3`               |
 * | non-integral number (JSON `1.5`)     | float64                     | `1.5`             |
 * | `goFloat64(n)` (a param of type float, `float64` output) | float64 | `1e+06`, `3`   |
 * | `goInt64(n)` (a param of type int)   | int64                       | `3`               |
 * | array                                | []interface {}              | `[1 2 3]`         |
 * | plain object                         | map[string]interface {}     | `map[a:1 b:2]`    |
 * | `null` (in a map or a list)          | nil interface               | `<no value>` / `<nil>` |
 * | `Date`, `GoTime` (`now`)             | time.Time (UTC)             | `2026-03-07 14:05:09.123 +0000 UTC` |
 *
 * So a JSON integer prints as an integer. Real HyperFleet decodes event JSON into float64, where
 * 1000000 prints as `1e+06`; callers that want that (a param declared `float`) wrap the number with
 * `goFloat64`. Integers are exact only within ±2^53 (JS numbers). A key whose value is `undefined`
 * counts as missing.
 *
 * Inside the engine `undefined` also stands for Go's invalid `reflect.Value` ("no value"), and `null`
 * for a nil held in an interface (a map entry or list element that is nil).
 */

export type NumberType = 'int' | 'int64' | 'uint8' | 'float64';

/** A number with an explicit Go type (plain JS numbers are `int` when integral, else `float64`). */
export class GoNumber {
  constructor(
    readonly type: NumberType,
    readonly value: number,
  ) {}
}

/** A Go `time.Time` in UTC with millisecond precision (what `now` returns). */
export class GoTime {
  constructor(readonly epochMs: number) {}
  static from(d: Date): GoTime {
    return new GoTime(d.getTime());
  }
  toDate(): Date {
    return new Date(this.epochMs);
  }
}

/** Marks `n` as a Go float64 (e.g. a param of type `float`), so 1000000 prints `1e+06` as in Go. */
export function goFloat64(n: number): GoNumber {
  return new GoNumber('float64', n);
}

/** Marks `n` as a Go int64 (e.g. a param of type `int`). */
export function goInt64(n: number): GoNumber {
  return new GoNumber('int64', Math.trunc(n));
}

export type GoMap = { readonly [key: string]: unknown };

export type Kind = 'invalid' | 'nil' | 'string' | 'bool' | 'int' | 'uint' | 'float' | 'slice' | 'map' | 'time';

const TWO_63 = 2 ** 63;

export function isGoMap(v: unknown): v is GoMap {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export function kindOf(v: unknown): Kind {
  if (v === undefined) return 'invalid';
  if (v === null) return 'nil';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) && v >= -TWO_63 && v < TWO_63 ? 'int' : 'float';
    case 'bigint':
      return 'int';
  }
  if (v instanceof GoNumber) return v.type === 'float64' ? 'float' : v.type === 'uint8' ? 'uint' : 'int';
  if (v instanceof GoTime || v instanceof Date) return 'time';
  if (Array.isArray(v)) return 'slice';
  if (isGoMap(v)) return 'map';
  throw new TypeError(`unsupported template data value: ${Object.prototype.toString.call(v)}`);
}

/** Go's name for the dynamic type of `v`, as `%T` and error messages print it. */
export function goTypeName(v: unknown): string {
  if (v instanceof GoNumber) return v.type;
  switch (kindOf(v)) {
    case 'string':
      return 'string';
    case 'bool':
      return 'bool';
    case 'int':
      return 'int';
    case 'uint':
      return 'uint8';
    case 'float':
      return 'float64';
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    case 'time':
      return 'time.Time';
    default:
      return 'interface {}';
  }
}

/** The numeric value of an int, uint or float value. */
export function numberValue(v: unknown): number {
  if (v instanceof GoNumber) return v.value;
  if (typeof v === 'bigint') return Number(v);
  return v as number;
}

export function timeValue(v: GoTime | Date): GoTime {
  return v instanceof GoTime ? v : GoTime.from(v);
}

/** Entries of a map that count as present (a key whose value is `undefined` does not). */
export function mapKeys(m: GoMap): string[] {
  return Object.keys(m).filter((k) => m[k] !== undefined);
}

/** Go's map key order for string keys: byte order of UTF-8, i.e. code point order. */
export function sortedKeys(m: GoMap): string[] {
  return mapKeys(m).sort(compareCodePoints);
}

export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i) as number;
    const cb = b.codePointAt(i) as number;
    if (ca !== cb) return ca - cb;
    if (ca > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Length of a string as Go counts it (UTF-8 bytes). */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Go's `isTrue` for values that went through `indirectInterface`. */
export function isTrue(v: unknown): boolean {
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return false;
    case 'string':
      return (v as string).length > 0;
    case 'bool':
      return v as boolean;
    case 'int':
    case 'uint':
    case 'float':
      return numberValue(v) !== 0;
    case 'slice':
      return (v as unknown[]).length > 0;
    case 'map':
      return mapKeys(v as GoMap).length > 0;
    case 'time':
      return true; // a struct: always true
  }
}
