/**
 * Go string functions as HyperFleet's FuncMap binds them: `strings.ToLower/ToUpper/TrimSpace/
 * ReplaceAll`, `strconv.Quote` (`%q`) and `cases.Title(language.English)` from golang.org/x/text.
 * Go maps case one code point at a time, so `upper "ß"` stays `ß` (JavaScript would give `SS`).
 */

const SPECIAL_LOWER: ReadonlyMap<string, string> = new Map([['\u0130', 'i']]);

function mapRunes(s: string, f: (ch: string) => string): string {
  let out = '';
  for (const ch of s) {
    const m = f(ch);
    // Keep the rune when the mapping is not one code point (Go has no multi-rune case mappings).
    out += [...m].length === 1 ? m : ch;
  }
  return out;
}

export function goToLower(s: string): string {
  return mapRunes(s, (ch) => SPECIAL_LOWER.get(ch) ?? ch.toLowerCase());
}

export function goToUpper(s: string): string {
  return mapRunes(s, (ch) => ch.toUpperCase());
}

/** Unicode White_Space as Go's `unicode.IsSpace` defines it (no U+FEFF, unlike JS `trim`). */
const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const TRIM_SPACE = new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, 'g');

export function goTrimSpace(s: string): string {
  return s.replace(TRIM_SPACE, '');
}

/** `strings.ReplaceAll`: an empty `old` inserts `nu` before every rune and at the end. */
export function goReplaceAll(s: string, old: string, nu: string): string {
  if (old === '') return nu + [...s].join(nu) + (s === '' ? '' : nu);
  return s.split(old).join(nu);
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and ASCII space. */
export function isGoPrint(ch: string): boolean {
  return ch === ' ' || PRINTABLE.test(ch);
}

function quoteWith(s: string, quote: string): string {
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') {
      out += `\\${ch}`;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      out += '\uFFFD'; // a lone surrogate: Go strings hold U+FFFD there
      continue;
    }
    if (isGoPrint(ch)) {
      out += ch;
      continue;
    }
    switch (ch) {
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += `\\U${c.toString(16).padStart(8, '0')}`;
  }
  return out + quote;
}

/** `strconv.Quote` (what `%q` and HyperFleet's `quote` produce). */
export function goQuote(s: string): string {
  return quoteWith(s, '"');
}

/** `strconv.QuoteRune` (`%q` of an integer). */
export function goQuoteRune(r: number): string {
  const valid = r >= 0 && r <= 0x10ffff && !(r >= 0xd800 && r <= 0xdfff);
  return quoteWith(String.fromCodePoint(valid ? r : 0xfffd), "'");
}

/** `strconv.CanBackquote` (`%#q`). */
export function canBackquote(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if ((c < 0x20 && c !== 0x09) || c === 0x60 || c === 0x7f || c === 0xfeff) return false;
  }
  return true;
}

// Word-break classes of x/text's title caser (an approximation of UAX #29, like x/text's own):
// "mid" characters (MidLetter, MidNumLet, Single_Quote) do not end a word unless doubled;
// letters, digits, connector punctuation, marks and format characters continue a word;
// everything else ends it.
const MID = new Set([
  '\u0027',
  '\u002e',
  '\u003a',
  '\u00b7',
  '\u0387',
  '\u055f',
  '\u05f4',
  '\u2018',
  '\u2019',
  '\u2024',
  '\u2027',
  '\ufe13',
  '\ufe52',
  '\ufe55',
  '\uff07',
  '\uff0e',
  '\uff1a',
]);
const WORD = /^[\p{Alphabetic}\p{Nd}\p{Pc}\p{M}\p{Cf}]$/u;
const NOT_ALETTER = /^[\p{Ideographic}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const CASED = /^\p{Cased}$/u;
const TITLE_CASE: ReadonlyMap<string, string> = new Map([
  ['\u01c4', '\u01c5'],
  ['\u01c5', '\u01c5'],
  ['\u01c6', '\u01c5'],
  ['\u01c7', '\u01c8'],
  ['\u01c8', '\u01c8'],
  ['\u01c9', '\u01c8'],
  ['\u01ca', '\u01cb'],
  ['\u01cb', '\u01cb'],
  ['\u01cc', '\u01cb'],
  ['\u01f1', '\u01f2'],
  ['\u01f2', '\u01f2'],
  ['\u01f3', '\u01f2'],
]);

function titleRune(ch: string): string {
  const special = TITLE_CASE.get(ch);
  if (special) return special;
  const up = ch.toUpperCase();
  const runes = [...up];
  // Full title-case mappings (x/text applies them): "ß" → "Ss".
  return runes.length === 1 ? up : (runes[0] as string) + runes.slice(1).join('').toLowerCase();
}

/** `cases.Title(language.English).String(s)`: first cased letter of each word upper, the rest lower. */
export function goTitle(s: string): string {
  const runes = [...s];
  let out = '';
  let midWord = false;
  let prevMid = false;
  runes.forEach((ch, i) => {
    const isMid = MID.has(ch);
    if (prevMid && isMid) midWord = false;
    if (CASED.test(ch)) {
      out += midWord ? (ch === '\u03a3' ? finalSigma(runes, i) : ch.toLowerCase()) : titleRune(ch);
      midWord = true;
    } else {
      out += ch;
      if (!isMid && (!WORD.test(ch) || NOT_ALETTER.test(ch))) midWord = false;
    }
    prevMid = isMid;
  });
  return out;
}

const CASE_IGNORABLE = /^\p{Case_Ignorable}$/u;

/** Lowercase of a mid-word Σ: ς unless a cased letter follows (case-ignorable runes skipped). */
function finalSigma(runes: readonly string[], i: number): string {
  for (let j = i + 1; j < runes.length; j++) {
    const r = runes[j] as string;
    if (CASE_IGNORABLE.test(r)) continue;
    return CASED.test(r) ? '\u03c3' : '\u03c2';
  }
  return '\u03c2';
}
