/**
 * The functions a HyperFleet template can call: Go's builtins (`and or not len index print printf
 * println eq ne lt le gt ge`) and HyperFleet's FuncMap (`ADP:pkg/utils/template.go`). Each declares
 * Go's parameter types so the executor checks and converts arguments as `text/template` does.
 * Not provided: the builtins `slice html js urlquery call` (a template using them fails to compile
 * with Go's "function not defined").
 */
import { formatValue, sprint, sprintln } from './go-print.js';
import { sprintf } from './go-printf.js';
import { goQuote, goReplaceAll, goTitle, goToLower, goToUpper, goTrimSpace } from './go-strings.js';
import { formatGoTime } from './go-time-layout.js';
import { underscoreOK } from './literals.js';
import { compareCodePoints, type GoMap, GoNumber, GoTime, goTypeName, isTrue, kindOf, mapKeys, numberValue, utf8Length } from './values.js';

/**
 * A Go parameter type: `string`, `time` (time.Time), `any` (interface{}) or `value` (reflect.Value,
 * the builtins' type: nil arrives as an invalid value instead of a nil interface).
 */
export type ParamType = 'string' | 'time' | 'any' | 'value';

export const PARAM_TYPE_NAMES: Readonly<Record<ParamType, string>> = {
  string: 'string',
  time: 'time.Time',
  any: 'interface {}',
  value: 'reflect.Value',
};

export interface CallEnv {
  now(): Date;
}

export interface GoFunc {
  readonly params: readonly ParamType[];
  /** Element type of a trailing variadic parameter. */
  readonly variadic?: ParamType;
  /** The result is statically an interface (field access on it reports "interface {}"). */
  readonly boxedResult?: boolean;
  call(args: unknown[], env: CallEnv): unknown;
}

/** A Go function's returned error; the executor reports it as `error calling NAME: MESSAGE`. */
export class FuncError extends Error {}

/** `indirectInterface`: a nil held in an interface becomes "no value". */
const unbox = (v: unknown): unknown => (v === null ? undefined : v);
const truth = (v: unknown): boolean => isTrue(unbox(v));

type BasicKind = 'bool' | 'int' | 'uint' | 'float' | 'string' | 'invalid';
function basicKind(v: unknown): BasicKind {
  const k = kindOf(v);
  return k === 'bool' || k === 'int' || k === 'uint' || k === 'float' || k === 'string' ? k : 'invalid';
}

const ERR_BAD_COMPARISON_TYPE = 'invalid type for comparison';
const ERR_BAD_COMPARISON = 'incompatible types for comparison';

function eq(arg1: unknown, ...rest: unknown[]): boolean {
  arg1 = unbox(arg1);
  if (rest.length === 0) throw new FuncError('missing argument for comparison');
  const k1 = basicKind(arg1);
  for (let arg of rest) {
    arg = unbox(arg);
    const k2 = basicKind(arg);
    let truth = false;
    if (k1 !== k2) {
      if ((k1 === 'int' && k2 === 'uint') || (k1 === 'uint' && k2 === 'int')) {
        truth = numberValue(arg1) >= 0 && numberValue(arg) >= 0 && numberValue(arg1) === numberValue(arg);
      } else if (arg1 !== undefined && arg !== undefined) {
        throw new FuncError(ERR_BAD_COMPARISON);
      }
    } else if (k1 === 'int' || k1 === 'uint' || k1 === 'float') {
      truth = numberValue(arg1) === numberValue(arg);
    } else if (k1 !== 'invalid') {
      truth = arg1 === arg;
    } else {
      const c1 = kindOf(arg1);
      const c2 = kindOf(arg);
      if (c1 !== c2 && c1 !== 'invalid' && c2 !== 'invalid') {
        throw new FuncError(sprintf('non-comparable types %s: %v, %s: %v', [arg1, goTypeName(arg1), goTypeName(arg), arg]));
      }
      if (arg1 === undefined || arg === undefined) {
        truth = arg1 === arg;
      } else if (c2 !== 'time') {
        throw new FuncError(sprintf('non-comparable type %s: %v', [arg, goTypeName(arg)]));
      } else {
        truth = timeMs(arg1) === timeMs(arg);
      }
    }
    if (truth) return true;
  }
  return false;
}

const timeMs = (v: unknown): number => (v instanceof GoTime ? v.epochMs : (v as Date).getTime());

function lt(arg1: unknown, arg2: unknown): boolean {
  arg1 = unbox(arg1);
  const k1 = basicKind(arg1);
  if (k1 === 'invalid') throw new FuncError(ERR_BAD_COMPARISON_TYPE);
  arg2 = unbox(arg2);
  const k2 = basicKind(arg2);
  if (k2 === 'invalid') throw new FuncError(ERR_BAD_COMPARISON_TYPE);
  if (k1 !== k2) {
    if (k1 === 'int' && k2 === 'uint') return numberValue(arg1) < numberValue(arg2);
    if (k1 === 'uint' && k2 === 'int') return numberValue(arg2) >= 0 && numberValue(arg1) < numberValue(arg2);
    throw new FuncError(ERR_BAD_COMPARISON);
  }
  switch (k1) {
    case 'bool':
      throw new FuncError(ERR_BAD_COMPARISON_TYPE);
    case 'string':
      return compareCodePoints(arg1 as string, arg2 as string) < 0;
    default:
      return numberValue(arg1) < numberValue(arg2);
  }
}
const le = (a: unknown, b: unknown): boolean => lt(a, b) || eq(a, b);

function length(item: unknown): number {
  if (item === null) throw new FuncError('len of nil pointer');
  if (item === undefined) throw new FuncError('reflect: call of reflect.Value.Type on zero Value');
  switch (kindOf(item)) {
    case 'string':
      return utf8Length(item as string);
    case 'slice':
      return (item as unknown[]).length;
    case 'map':
      return mapKeys(item as GoMap).length;
    default:
      throw new FuncError(`len of type ${goTypeName(item)}`);
  }
}

function indexArg(index: unknown, cap: number): number {
  const k = kindOf(index);
  if (k === 'invalid') throw new FuncError('cannot index slice/array with nil');
  if (k !== 'int' && k !== 'uint') throw new FuncError(`cannot index slice/array with type ${goTypeName(index)}`);
  const x = numberValue(index);
  if (x < 0 || x > cap) throw new FuncError(`index out of range: ${x}`);
  return x;
}

function index(item: unknown, ...indexes: unknown[]): unknown {
  item = unbox(item);
  if (item === undefined) throw new FuncError('index of untyped nil');
  for (let idx of indexes) {
    idx = unbox(idx);
    if (item === null) throw new FuncError('index of nil pointer');
    switch (kindOf(item)) {
      case 'slice': {
        const list = item as unknown[];
        const x = indexArg(idx, list.length);
        if (x === list.length) throw new FuncError('reflect: slice index out of range');
        item = list[x] === undefined ? null : list[x];
        break;
      }
      case 'string': {
        const bytes = Buffer.from(item as string, 'utf8');
        const x = indexArg(idx, bytes.length);
        if (x === bytes.length) throw new FuncError('reflect: string index out of range');
        item = new GoNumber('uint8', bytes[x] as number);
        break;
      }
      case 'map': {
        if (idx === undefined) throw new FuncError('value is nil; should be of type string');
        if (typeof idx !== 'string') throw new FuncError(`value has type ${goTypeName(idx)}; should be string`);
        const m = item as GoMap;
        item = m[idx] === undefined ? null : m[idx];
        break;
      }
      default:
        throw new FuncError(`can't index item of type ${goTypeName(item)}`);
    }
  }
  return item;
}

const TWO_63 = 2 ** 63;
/** Go's float64 → int conversion on amd64 (out of range gives the minimum int64). */
function truncToInt(f: number): number {
  if (Number.isNaN(f) || f >= TWO_63 || f < -TWO_63) return -TWO_63;
  return Math.trunc(f) + 0;
}

/** `strconv.ParseInt(s, 10, 64)` as the FuncMap uses it: 0 on a syntax error, clamped on overflow. */
function parseInt10(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) return 0;
  const v = BigInt(s);
  if (v >= 2n ** 63n) return TWO_63 - 1;
  if (v < -(2n ** 63n)) return -TWO_63;
  return Number(v);
}

/** `strconv.ParseFloat(s, 64)`, errors ignored (0 on a syntax error, ±Inf on overflow). */
function parseFloat64(s: string): number {
  const lower = s.toLowerCase();
  const sign = lower.startsWith('-') ? -1 : 1;
  const unsigned = lower.replace(/^[+-]/, '');
  if (unsigned === 'inf' || unsigned === 'infinity') return sign * Infinity;
  if (unsigned === 'nan') return NaN;
  let t = s;
  if (t.includes('_')) {
    if (!underscoreOK(t)) return 0;
    t = t.replaceAll('_', '');
  }
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(t);
  if (hex) {
    const [, sg, intPart = '', frac = '', exp = '0'] = hex;
    if (intPart === '' && frac === '') return 0;
    const v = Number(BigInt(`0x${intPart}${frac}`)) * 2 ** (Number(exp) - 4 * frac.length);
    return sg === '-' ? -v : v;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return 0;
  return Number(t);
}

/** The value as a Go int, int64 or float64 conversion would see it (`int`/`int64`/`float64` cases). */
function toNumberFunc(out: 'int' | 'int64' | 'float64') {
  return (v: unknown): unknown => {
    let n: number;
    const k = kindOf(v);
    if (v instanceof GoNumber && v.type === 'uint8')
      n = 0; // not a case of the type switch
    else if (k === 'int') n = numberValue(v);
    else if (k === 'float') n = out === 'float64' ? numberValue(v) : truncToInt(numberValue(v));
    else if (k === 'string') n = out === 'float64' ? parseFloat64(v as string) : parseInt10(v as string);
    else n = 0;
    return new GoNumber(out, n);
  };
}

const str1 = (f: (s: string) => unknown): GoFunc => ({ params: ['string'], call: ([s]) => f(s as string) });
const str2 = (f: (a: string, b: string) => unknown): GoFunc => ({
  params: ['string', 'string'],
  call: ([a, b]) => f(a as string, b as string),
});

const dateFunc: GoFunc = {
  params: ['string', 'time'],
  call: ([layout, t]) => formatGoTime((t as GoTime).epochMs, layout as string),
};

/** Go's builtin functions (the subset we support). */
const BUILTINS: Readonly<Record<string, GoFunc>> = {
  and: { params: ['value'], variadic: 'value', boxedResult: true, call: () => undefined /* short-circuits in exec */ },
  or: { params: ['value'], variadic: 'value', boxedResult: true, call: () => undefined },
  not: { params: ['value'], call: ([v]) => !truth(v) },
  len: { params: ['value'], call: ([v]) => length(v) },
  index: { params: ['value'], variadic: 'value', boxedResult: true, call: ([item, ...idx]) => index(item, ...idx) },
  print: { params: [], variadic: 'any', call: (args) => sprint(args) },
  printf: { params: ['string'], variadic: 'any', call: ([f, ...args]) => sprintf(f as string, args) },
  println: { params: [], variadic: 'any', call: (args) => sprintln(args) },
  eq: { params: ['value'], variadic: 'value', call: ([a, ...rest]) => eq(a, ...rest) },
  ne: { params: ['value', 'value'], call: ([a, b]) => !eq(a, b) },
  lt: { params: ['value', 'value'], call: ([a, b]) => lt(a, b) },
  le: { params: ['value', 'value'], call: ([a, b]) => le(a, b) },
  gt: { params: ['value', 'value'], call: ([a, b]) => !le(a, b) },
  ge: { params: ['value', 'value'], call: ([a, b]) => !lt(a, b) },
};

/**
 * HyperFleet's FuncMap. `replace trimPrefix trimSuffix contains hasPrefix hasSuffix` take the
 * subject FIRST (Go's `strings` signatures), so `{{ .s | replace "a" "b" }}` calls
 * `replace "a" "b" .s` — wrong, but what Go does. `date` and `default` take the
 * subject last and are pipe-friendly.
 */
const HYPERFLEET_FUNCS: Readonly<Record<string, GoFunc>> = {
  now: { params: [], call: (_args, env) => GoTime.from(env.now()) },
  date: dateFunc,
  dateFormat: dateFunc,
  lower: str1(goToLower),
  upper: str1(goToUpper),
  title: str1(goTitle),
  trim: str1(goTrimSpace),
  trimPrefix: str2((s, p) => (p !== '' && s.startsWith(p) ? s.slice(p.length) : s)),
  trimSuffix: str2((s, p) => (p !== '' && s.endsWith(p) ? s.slice(0, s.length - p.length) : s)),
  replace: { params: ['string', 'string', 'string'], call: ([s, o, n]) => goReplaceAll(s as string, o as string, n as string) },
  contains: str2((s, sub) => s.includes(sub)),
  hasPrefix: str2((s, p) => s.startsWith(p)),
  hasSuffix: str2((s, p) => s.endsWith(p)),
  quote: str1(goQuote),
  default: {
    params: ['any', 'any'],
    boxedResult: true,
    call: ([d, v]) => (v === null || v === undefined || v === '' ? d : v),
  },
  int: { params: ['any'], call: ([v]) => toNumberFunc('int')(v) },
  int64: { params: ['any'], call: ([v]) => toNumberFunc('int64')(v) },
  float: { params: ['any'], call: ([v]) => toNumberFunc('float64')(v) },
  float64: { params: ['any'], call: ([v]) => toNumberFunc('float64')(v) },
  string: { params: ['any'], call: ([v]) => formatValue(v === undefined ? null : v) },
};

export const FUNCS: Readonly<Record<string, GoFunc>> = { ...BUILTINS, ...HYPERFLEET_FUNCS };

export function isBuiltin(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(BUILTINS, name);
}

export function hasFunction(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(FUNCS, name);
}

/** `truth` for the executor's `and`/`or` short-circuit. */
export { truth };
