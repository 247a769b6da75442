import { EvaluationError, Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { compareCodePoints } from './cel-compare.js';
import { durationNanos, formatTimestamp, mapKeyToString } from './cel-values.js';

/**
 * JSON text of a CEL value byte-for-byte as HyperFleet's `toJson()` prints it: Go's
 * `json.Marshal` of the native value. Hand-rolled because JSON.stringify differs from Go:
 * map keys sorted (by code point), `<` `>` `&` U+2028 U+2029 escaped as `\u003c`…, ints of any
 * size printed exactly, timestamps as RFC 3339 (nano) strings, durations as integer nanoseconds
 * (Go's `time.Duration`), bytes as base64, optional as its value or `null`.
 * @throws EvaluationError for NaN/±Infinity (Go refuses them too) and for unsupported map keys.
 */
export function toGoJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quoteGoJson(value);
    case 'boolean':
      return String(value);
    case 'bigint':
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new EvaluationError(`toJson(): unsupported value: ${value}`);
      // For finite doubles JS and Go agree (both switch to exponent form below 1e-6 and at 1e21).
      return JSON.stringify(value);
    case 'undefined':
      return 'null';
    case 'object':
      return objectToGoJson(value);
    default:
      throw new EvaluationError(`toJson(): unsupported value of type ${typeof value}`);
  }
}

function objectToGoJson(value: object | null): string {
  if (value === null) return 'null';
  if (value instanceof UnsignedInt) return value.value.toString();
  if (value instanceof Date) return quoteGoJson(formatTimestamp(value));
  if (value instanceof Duration) return durationNanos(value).toString();
  if (value instanceof Uint8Array) return quoteGoJson(Buffer.from(value).toString('base64'));
  if (value instanceof Optional) return value.hasValue() ? toGoJson(value.value()) : 'null';
  if (Array.isArray(value) || value instanceof Set) return `[${[...value].map(toGoJson).join(',')}]`;
  const entries: Array<[string, unknown]> = [];
  if (value instanceof Map) {
    for (const [k, v] of value) {
      if (typeof k === 'boolean') throw new EvaluationError('toJson(): map keys must be strings or integers');
      entries.push([mapKeyToString(k), v]);
    }
  } else {
    entries.push(...Object.entries(value));
  }
  entries.sort(([a], [b]) => compareCodePoints(a, b));
  return `{${entries.map(([k, v]) => `${quoteGoJson(k)}:${toGoJson(v)}`).join(',')}}`;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Go's encoding/json string encoding with HTML escaping (its default). */
function quoteGoJson(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const short = SHORT_ESCAPES[ch];
    if (short) out += short;
    else if (code < 0x20 || ch === '<' || ch === '>' || ch === '&' || code === 0x2028 || code === 0x2029) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else if (code >= 0xd800 && code <= 0xdfff)
      out += '\\ufffd'; // lone surrogate: Go writes U+FFFD
    else out += ch;
  }
  return `${out}"`;
}
