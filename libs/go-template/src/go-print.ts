/**
 * Go's `fmt` printing of template values: `Sprint`, `Sprintln` and the `%v` form actions print
 * (`[1 2 3]`, `map[a:1 b:2]`, `1e+06`, `<nil>`, `%!d(string=x)`), plus the per-verb formatting that
 * `Sprintf` (go-printf.ts) drives. Verbs: `v s d q x X o O b c U e E f F g G t T` with flags
 * `+ - # space 0`, width and precision. Not supported: Go-syntax `%#v` of maps and lists (printed
 * like `%v`), `%x`/`%b` of floats, and non-string verbs on a time.Time (Go prints its struct fields).
 */
import { formatFloat } from './go-float.js';
import { canBackquote, goQuote, goQuoteRune } from './go-strings.js';
import { formatGoTime } from './go-time-layout.js';
import { type GoMap, type GoTime, goTypeName, kindOf, numberValue, sortedKeys, timeValue } from './values.js';

export interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  sharpV: boolean;
  plusV: boolean;
  wid: number;
  widPresent: boolean;
  prec: number;
  precPresent: boolean;
}

export const clearFlags = (): Flags => ({
  plus: false,
  minus: false,
  sharp: false,
  space: false,
  zero: false,
  sharpV: false,
  plusV: false,
  wid: 0,
  widPresent: false,
  prec: 0,
  precPresent: false,
});

const runeCount = (s: string): number => [...s].length;

/** `time.Time.String()` (no monotonic reading: our times never carry one). */
export function goTimeString(t: GoTime): string {
  return formatGoTime(t.epochMs, '2006-01-02 15:04:05.999999999 -0700 MST');
}

/** Go's `fmt.pp`: formats operands into `buf` under the current flags `f`. */
export class Printer {
  buf = '';
  f: Flags = clearFlags();
  private arg: unknown = undefined;
  private erroring = false;

  writePadding(n: number): void {
    if (n <= 0) return;
    this.buf += (this.f.zero ? '0' : ' ').repeat(n);
  }

  pad(s: string): void {
    if (!this.f.widPresent || this.f.wid === 0) {
      this.buf += s;
      return;
    }
    const width = this.f.wid - runeCount(s);
    if (!this.f.minus) {
      this.writePadding(width);
      this.buf += s;
    } else {
      this.buf += s;
      this.writePadding(width);
    }
  }

  badVerb(verb: string): void {
    this.erroring = true;
    this.buf += `%!${verb}(`;
    if (this.arg !== null && this.arg !== undefined) {
      this.buf += `${goTypeName(this.arg)}=`;
      this.printArg(this.arg, 'v');
    } else {
      this.buf += '<nil>';
    }
    this.buf += ')';
    this.erroring = false;
  }

  printArg(arg: unknown, verb: string): void {
    this.arg = arg;
    if (arg === null || arg === undefined) {
      if (verb === 'T' || verb === 'v') this.pad('<nil>');
      else this.badVerb(verb);
      return;
    }
    if (verb === 'T') {
      this.fmtS(goTypeName(arg));
      return;
    }
    this.printValue(arg, verb, 0);
  }

  /** Strings-valued methods (`time.Time` is a Stringer). */
  private handleMethods(v: unknown, verb: string): boolean {
    if (this.erroring) return false;
    if (kindOf(v) === 'time' && 'vsxXq'.includes(verb)) {
      this.fmtString(goTimeString(timeValue(v as GoTime)), verb);
      return true;
    }
    return false;
  }

  printValue(v: unknown, verb: string, depth: number): void {
    if (depth > 0 && v !== undefined && v !== null) this.arg = v;
    if (this.handleMethods(v, verb)) return;
    switch (kindOf(v)) {
      case 'invalid':
        if (depth === 0) this.buf += '<invalid reflect.Value>';
        else if (verb === 'v') this.buf += '<nil>';
        else this.badVerb(verb);
        return;
      case 'nil':
        // A nil element of a []interface{} or map[string]interface{}.
        this.buf += '<nil>';
        return;
      case 'bool':
        if (verb === 't' || verb === 'v') this.pad((v as boolean) ? 'true' : 'false');
        else this.badVerb(verb);
        return;
      case 'int':
        this.fmtIntegerVerb(numberValue(v), verb);
        return;
      case 'uint':
        this.fmtIntegerVerb(numberValue(v), verb);
        return;
      case 'float':
        this.fmtFloatVerb(numberValue(v), verb);
        return;
      case 'string':
        this.fmtString(v as string, verb);
        return;
      case 'slice': {
        this.buf += '[';
        (v as unknown[]).forEach((e, i) => {
          if (i > 0) this.buf += ' ';
          this.printValue(e === undefined ? null : e, verb, depth + 1);
        });
        this.buf += ']';
        return;
      }
      case 'map': {
        const m = v as GoMap;
        this.buf += 'map[';
        sortedKeys(m).forEach((k, i) => {
          if (i > 0) this.buf += ' ';
          this.printValue(k, verb, depth + 1);
          this.buf += ':';
          this.printValue(m[k], verb, depth + 1);
        });
        this.buf += ']';
        return;
      }
      case 'time':
        // Verbs a Stringer does not handle: Go would print the struct's fields; we say so instead.
        if (this.erroring) this.buf += goTimeString(timeValue(v as GoTime));
        else this.badVerb(verb);
        return;
    }
  }

  fmtString(s: string, verb: string): void {
    switch (verb) {
      case 'v':
        if (this.f.sharpV) this.fmtQ(s);
        else this.fmtS(s);
        return;
      case 's':
        this.fmtS(s);
        return;
      case 'x':
        this.fmtSx(s, false);
        return;
      case 'X':
        this.fmtSx(s, true);
        return;
      case 'q':
        this.fmtQ(s);
        return;
      default:
        this.badVerb(verb);
    }
  }

  private truncate(s: string): string {
    if (this.f.precPresent) {
      const runes = [...s];
      if (this.f.prec < runes.length) return runes.slice(0, this.f.prec).join('');
    }
    return s;
  }

  fmtS(s: string): void {
    this.pad(this.truncate(s));
  }

  fmtQ(s: string): void {
    s = this.truncate(s);
    if (this.f.sharp && canBackquote(s)) this.pad(`\`${s}\``);
    else if (this.f.plus) this.pad(asciiOnly(goQuote(s)));
    else this.pad(goQuote(s));
  }

  fmtSx(s: string, upper: boolean): void {
    const bytes = Buffer.from(s, 'utf8');
    const digits = upper ? '0123456789ABCDEF' : '0123456789abcdef';
    const x = upper ? 'X' : 'x';
    let length = bytes.length;
    if (this.f.precPresent && this.f.prec < length) length = this.f.prec;
    let width = 2 * length;
    if (width > 0) {
      if (this.f.space) {
        if (this.f.sharp) width *= 2;
        width += length - 1;
      } else if (this.f.sharp) {
        width += 2;
      }
    } else {
      if (this.f.widPresent) this.writePadding(this.f.wid);
      return;
    }
    if (this.f.widPresent && this.f.wid > width && !this.f.minus) this.writePadding(this.f.wid - width);
    if (this.f.sharp) this.buf += `0${x}`;
    for (let i = 0; i < length; i++) {
      if (this.f.space && i > 0) {
        this.buf += ' ';
        if (this.f.sharp) this.buf += `0${x}`;
      }
      const c = bytes[i] as number;
      this.buf += (digits[c >> 4] as string) + (digits[c & 0xf] as string);
    }
    if (this.f.widPresent && this.f.wid > width && this.f.minus) this.writePadding(this.f.wid - width);
  }

  fmtIntegerVerb(v: number, verb: string): void {
    switch (verb) {
      case 'v':
      case 'd':
        return this.fmtInteger(v, 10, verb, false);
      case 'b':
        return this.fmtInteger(v, 2, verb, false);
      case 'o':
      case 'O':
        return this.fmtInteger(v, 8, verb, false);
      case 'x':
        return this.fmtInteger(v, 16, verb, false);
      case 'X':
        return this.fmtInteger(v, 16, verb, true);
      case 'c':
        this.pad(String.fromCodePoint(validRune(v)));
        return;
      case 'q': {
        const r = validRune(v);
        if (this.f.plus) this.pad(asciiOnly(goQuoteRune(r)));
        else this.pad(goQuoteRune(r));
        return;
      }
      case 'U':
        return this.fmtUnicode(v);
      default:
        this.badVerb(verb);
    }
  }

  /** Go's `fmt.fmtInteger`. */
  fmtInteger(v: number, base: number, verb: string, upper: boolean): void {
    const negative = v < 0;
    const u = BigInt(Math.trunc(Math.abs(v)));
    let prec = 0;
    if (this.f.precPresent) {
      prec = this.f.prec;
      if (prec === 0 && u === 0n) {
        const oldZero = this.f.zero;
        this.f.zero = false;
        this.writePadding(this.f.wid);
        this.f.zero = oldZero;
        return;
      }
    } else if (this.f.zero && this.f.widPresent) {
      prec = this.f.wid;
      if (negative || this.f.plus || this.f.space) prec--;
    }
    let digits = u.toString(base);
    if (upper) digits = digits.toUpperCase();
    if (digits.length < prec) digits = '0'.repeat(prec - digits.length) + digits;
    if (this.f.sharp) {
      if (base === 2) digits = `0b${digits}`;
      else if (base === 8 && digits[0] !== '0') digits = `0${digits}`;
      else if (base === 16) digits = `0${upper ? 'X' : 'x'}${digits}`;
    }
    if (verb === 'O') digits = `0o${digits}`;
    if (negative) digits = `-${digits}`;
    else if (this.f.plus) digits = `+${digits}`;
    else if (this.f.space) digits = ` ${digits}`;
    const oldZero = this.f.zero;
    this.f.zero = false;
    this.pad(digits);
    this.f.zero = oldZero;
  }

  fmtUnicode(v: number): void {
    let prec = 4;
    if (this.f.precPresent && this.f.prec > 4) prec = this.f.prec;
    // Go formats the value as a uint64: negative numbers show their two's complement.
    const u = BigInt.asUintN(64, BigInt(Math.trunc(v)));
    let s = `U+${u.toString(16).toUpperCase().padStart(prec, '0')}`;
    if (this.f.sharp && v >= 0 && v <= 0x10ffff && /\P{C}/u.test(String.fromCodePoint(v))) {
      s += ` '${String.fromCodePoint(v)}'`;
    }
    const oldZero = this.f.zero;
    this.f.zero = false;
    this.pad(s);
    this.f.zero = oldZero;
  }

  fmtFloatVerb(v: number, verb: string): void {
    switch (verb) {
      case 'v':
        return this.fmtFloat(v, 'g', -1);
      case 'g':
      case 'G':
        return this.fmtFloat(v, verb, -1);
      case 'e':
      case 'E':
      case 'f':
        return this.fmtFloat(v, verb, 6);
      case 'F':
        return this.fmtFloat(v, 'f', 6);
      default:
        this.badVerb(verb);
    }
  }

  /** Go's `fmt.fmtFloat`. */
  fmtFloat(v: number, verb: 'g' | 'G' | 'e' | 'E' | 'f', prec: number): void {
    if (this.f.precPresent) prec = this.f.prec;
    let num = formatFloat(v, verb, prec);
    num = num[0] === '-' || num[0] === '+' ? num : `+${num}`;
    if (this.f.space && num[0] === '+' && !this.f.plus) num = ` ${num.slice(1)}`;
    if (num[1] === 'I' || num[1] === 'N') {
      const oldZero = this.f.zero;
      this.f.zero = false;
      if (num[1] === 'N' && !this.f.space && !this.f.plus) num = num.slice(1);
      this.pad(num);
      this.f.zero = oldZero;
      return;
    }
    if (this.f.sharp) num = sharpFloat(num, verb, prec);
    if (this.f.plus || num[0] !== '+') {
      if (this.f.zero && this.f.widPresent && this.f.wid > num.length) {
        this.buf += num[0];
        this.writePadding(this.f.wid - num.length);
        this.buf += num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }
}

/** The `#` flag on floats: always a decimal point, and `%g` keeps its trailing zeros. */
function sharpFloat(num: string, verb: string, prec: number): string {
  let digits = verb === 'g' || verb === 'G' ? (prec === -1 ? 6 : prec) : 0;
  let tail = '';
  let hasDecimalPoint = false;
  let sawNonzeroDigit = false;
  for (let i = 1; i < num.length; i++) {
    const c = num[i] as string;
    if (c === '.') {
      hasDecimalPoint = true;
    } else if (c === 'e' || c === 'E') {
      tail = num.slice(i);
      num = num.slice(0, i);
    } else {
      if (c !== '0') sawNonzeroDigit = true;
      if (sawNonzeroDigit) digits--;
    }
  }
  if (!hasDecimalPoint) {
    if (num.length === 2 && num[1] === '0') digits--;
    num += '.';
  }
  if (digits > 0) num += '0'.repeat(digits);
  return num + tail;
}

function validRune(v: number): number {
  return v >= 0 && v <= 0x10ffff && !(v >= 0xd800 && v <= 0xdfff) ? v : 0xfffd;
}

/** `strconv.QuoteToASCII` from a `strconv.Quote` result. */
function asciiOnly(quoted: string): string {
  let out = '';
  for (const ch of quoted) {
    const c = ch.codePointAt(0) as number;
    if (c < 0x80) out += ch;
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += `\\U${c.toString(16).padStart(8, '0')}`;
  }
  return out;
}

/** `fmt.Sprint`: spaces between operands when neither is a string. */
export function sprint(args: readonly unknown[]): string {
  const p = new Printer();
  let prevString = false;
  args.forEach((arg, i) => {
    const isString = typeof arg === 'string';
    if (i > 0 && !isString && !prevString) p.buf += ' ';
    p.printArg(arg, 'v');
    prevString = isString;
  });
  return p.buf;
}

/** `fmt.Sprintln`: spaces between all operands, newline at the end. */
export function sprintln(args: readonly unknown[]): string {
  const p = new Printer();
  args.forEach((arg, i) => {
    if (i > 0) p.buf += ' ';
    p.printArg(arg, 'v');
  });
  return `${p.buf}\n`;
}

/** `fmt.Sprint(v)` of one value: what an action prints. */
export function formatValue(v: unknown): string {
  const p = new Printer();
  p.printArg(v, 'v');
  return p.buf;
}
