import { EvaluationError, type Environment } from '@marcbachmann/cel-js';
import type { Duration } from '@marcbachmann/cel-js/evaluator';
import { formatDuration, formatTimestamp } from './cel-values.js';

/**
 * The parts of cel-go's `ext.Strings()` (and `string(timestamp)`) that cel-js 8 lacks, with cel-go's
 * semantics: `charAt`, `replace` (2 and 3 arguments), `strings.quote`, `string(timestamp)`,
 * `string(duration)`. cel-js already has `indexOf`, `lastIndexOf`, `lowerAscii`, `upperAscii`,
 * `split`, `substring`, `trim` and `join`.
 * Indexes count code points, as cel-go's do.
 * @see HyperFleet: hyperfleet-adapter docs/conventions/cel.md (ext.Strings()).
 */
export function registerStringsExtension(env: Environment): void {
  env
    .registerType('StringsNamespace', StringsNamespace)
    // `strings` is a namespace constant, so `strings` cannot also be a variable name.
    .registerConstant('strings', 'StringsNamespace', new StringsNamespace())
    .registerFunction('StringsNamespace.quote(string): string', (_ns: StringsNamespace, s: string) => quote(s))
    .registerFunction('string.charAt(int): string', charAt)
    .registerFunction('string.replace(string, string): string', (s: string, old: string, rep: string) => goReplace(s, old, rep, -1))
    .registerFunction('string.replace(string, string, int): string', (s: string, old: string, rep: string, n: bigint) =>
      goReplace(s, old, rep, Number(n)),
    )
    .registerFunction('string(google.protobuf.Timestamp): string', (t: Date) => formatTimestamp(t))
    .registerFunction('string(google.protobuf.Duration): string', (d: Duration) => formatDuration(d));
}

/** Receiver of `strings.quote(...)`; carries no state. */
class StringsNamespace {}

/** `'hello'.charAt(4)` → `'o'`; `charAt(size)` → `''`; beyond that or negative: error. */
function charAt(s: string, index: bigint): string {
  const runes = [...s];
  if (index < 0n || index > BigInt(runes.length)) {
    throw new EvaluationError(`charAt(): index out of range: ${index}`);
  }
  return runes[Number(index)] ?? '';
}

/** Go's `strings.Replace(s, old, rep, n)`: `n < 0` replaces all; an empty `old` matches around every code point. */
export function goReplace(s: string, old: string, rep: string, n: number): string {
  if (old === rep || n === 0) return s;
  if (old === '') {
    const runes = [...s];
    let out = '';
    let done = 0;
    for (let i = 0; i <= runes.length; i += 1) {
      if (n < 0 || done < n) {
        out += rep;
        done += 1;
      }
      if (i < runes.length) out += runes[i];
    }
    return out;
  }
  let out = '';
  let start = 0;
  let done = 0;
  while (n < 0 || done < n) {
    const at = s.indexOf(old, start);
    if (at < 0) break;
    out += s.slice(start, at) + rep;
    start = at + old.length;
    done += 1;
  }
  return out + s.slice(start);
}

const QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/** cel-go's `strings.quote`: wraps in `"` and escapes only the characters above; lone surrogates become U+FFFD. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    out += QUOTE_ESCAPES[ch] ?? (code >= 0xd800 && code <= 0xdfff ? '\ufffd' : ch);
  }
  return `${out}"`;
}
