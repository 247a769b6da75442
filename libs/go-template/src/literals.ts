/**
 * Go literal syntax used inside actions: `strconv.Unquote` for "interpreted" and `raw` strings and
 * 'c' character constants, and `parse.newNumber` for numbers (decimal, 0x/0o/0b/leading-0 octal,
 * `_` separators, decimal and hex floats). Errors carry Go's messages ("invalid syntax", ...).
 */

export class LiteralError extends Error {}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/**
 * Reads one possibly escaped character of a quoted literal starting at `s[i]` (Go's
 * `strconv.UnquoteChar`). Returns the character and the index after it.
 */
function unquoteChar(s: string, i: number, quote: string): { ch: string; next: number } {
  const c = s.codePointAt(i);
  if (c === undefined) throw new LiteralError('invalid syntax');
  const ch = String.fromCodePoint(c);
  if (ch === quote && (quote === "'" || quote === '"')) throw new LiteralError('invalid syntax');
  if (ch !== '\\') return { ch, next: i + ch.length };
  const e = s[i + 1];
  if (e === undefined) throw new LiteralError('invalid syntax');
  const simple = SIMPLE_ESCAPES[e];
  if (simple !== undefined) return { ch: simple, next: i + 2 };
  const hex = (n: number): { ch: string; next: number } => {
    const digits = s.slice(i + 2, i + 2 + n);
    if (digits.length !== n || !/^[0-9a-fA-F]+$/.test(digits)) throw new LiteralError('invalid syntax');
    const v = parseInt(digits, 16);
    if (e !== 'x' && (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))) throw new LiteralError('invalid syntax');
    return { ch: String.fromCodePoint(v), next: i + 2 + n };
  };
  switch (e) {
    case 'x':
      return hex(2);
    case 'u':
      return hex(4);
    case 'U':
      return hex(8);
    case "'":
    case '"':
      if (e !== quote) throw new LiteralError('invalid syntax');
      return { ch: e, next: i + 2 };
  }
  if (e >= '0' && e <= '7') {
    const digits = s.slice(i + 1, i + 4);
    if (!/^[0-7]{3}$/.test(digits)) throw new LiteralError('invalid syntax');
    const v = parseInt(digits, 8);
    if (v > 255) throw new LiteralError('invalid syntax');
    return { ch: String.fromCodePoint(v), next: i + 4 };
  }
  throw new LiteralError('invalid syntax');
}

/** Go's `strconv.Unquote` for a "double-quoted" or `back-quoted` literal. */
export function unquoteString(quoted: string): string {
  const q = quoted[0];
  if (quoted.length < 2 || quoted[quoted.length - 1] !== q) throw new LiteralError('invalid syntax');
  const body = quoted.slice(1, -1);
  if (q === '`') {
    if (body.includes('`')) throw new LiteralError('invalid syntax');
    return body.replaceAll('\r', '');
  }
  if (q !== '"') throw new LiteralError('invalid syntax');
  let out = '';
  for (let i = 0; i < body.length;) {
    if (body[i] === '\n') throw new LiteralError('invalid syntax');
    const { ch, next } = unquoteChar(body, i, '"');
    out += ch;
    i = next;
  }
  return out;
}

/** The code point of a 'c' character constant. */
export function unquoteCharConstant(text: string): number {
  const { ch, next } = unquoteChar(text, 1, "'");
  if (text.slice(next) !== "'") throw new LiteralError(`malformed character constant: ${text}`);
  return ch.codePointAt(0) as number;
}

export interface NumberValue {
  readonly isInt: boolean;
  readonly isUint: boolean;
  readonly isFloat: boolean;
  readonly int: number;
  readonly float: number;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's `strconv` rule: `_` only between digits (or after a base prefix). */
export function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s[0] === '+' || s[0] === '-') s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1] as string)) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i] as string;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** `strconv.ParseInt(s, 0, 64)` / `ParseUint` without range check: the value, or null on syntax error. */
function parseIntBase0(text: string, allowSign: boolean): bigint | null {
  let s = text;
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    if (!allowSign) return null;
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s.includes('_')) {
    if (!underscoreOK(s)) return null;
    s = s.replaceAll('_', '');
  }
  let digits: string;
  let re: RegExp;
  let prefix: string;
  if (/^0[xX]/.test(s)) [digits, re, prefix] = [s.slice(2), /^[0-9a-fA-F]+$/, '0x'];
  else if (/^0[oO]/.test(s)) [digits, re, prefix] = [s.slice(2), /^[0-7]+$/, '0o'];
  else if (/^0[bB]/.test(s)) [digits, re, prefix] = [s.slice(2), /^[01]+$/, '0b'];
  else if (s.length > 1 && s[0] === '0') [digits, re, prefix] = [s.slice(1), /^[0-7]+$/, '0o'];
  else [digits, re, prefix] = [s, /^[0-9]+$/, ''];
  if (!re.test(digits)) return null;
  const v = BigInt(prefix + digits);
  return neg ? -v : v;
}

/** `strconv.ParseFloat(s, 64)` for the forms the lexer lets through; null on syntax or range error. */
function parseFloat64(text: string): number | null {
  let s = text;
  if (s.includes('_')) {
    if (!underscoreOK(s)) return null;
    s = s.replaceAll('_', '');
  }
  let v: number;
  const hexMatch = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(s);
  if (hexMatch) {
    const [, sign, intPart = '', frac = '', exp = '0'] = hexMatch;
    if (intPart === '' && frac === '') return null;
    const mant = Number(BigInt(`0x${intPart}${frac}`));
    v = mant * 2 ** (Number(exp) - 4 * frac.length);
    if (sign === '-') v = -v;
  } else {
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
    v = Number(s);
  }
  return Number.isFinite(v) ? v : null;
}

/** Go's `parse.newNumber` for a number token (complex constants are not supported). */
export function parseNumber(text: string): NumberValue {
  if (text.endsWith('i')) throw new LiteralError(`complex constants are not supported: ${text}`);
  const u = parseIntBase0(text, false);
  const isUint = u !== null && u <= UINT64_MAX;
  const i = parseIntBase0(text, true);
  let isInt = i !== null && i >= INT64_MIN && i <= INT64_MAX;
  let isFloat = false;
  let int = isInt ? Number(i) : 0;
  let float = 0;
  if (isInt) {
    isFloat = true;
    float = int;
  } else if (isUint) {
    isFloat = true;
    float = Number(u);
  } else {
    const f = parseFloat64(text);
    if (f !== null) {
      if (!/[.eEpP]/.test(text)) throw new LiteralError(`integer overflow: ${JSON.stringify(text)}`);
      isFloat = true;
      float = f;
      if (Number.isInteger(f) && f >= -(2 ** 63) && f < 2 ** 63) {
        isInt = true;
        int = f;
      }
    }
  }
  if (!isInt && !isUint && !isFloat) throw new LiteralError(`illegal number syntax: ${JSON.stringify(text)}`);
  return { isInt, isUint: isUint || (isInt && int >= 0), isFloat, int, float };
}
