/**
 * Lexer for Go `text/template` with the default `{{` `}}` delimiters, a port of the state machine in
 * Go's `text/template/parse/lex.go` (trim markers `{{- ` / ` -}}`, comments, numbers, strings,
 * characters). It stops at the first error, emitting an `error` token the parser reports when it
 * reaches it, as Go's does.
 */

export type TokenType =
  | 'error'
  | 'bool'
  | 'char'
  | 'charConstant'
  | 'comment'
  | 'assign'
  | 'declare'
  | 'eof'
  | 'field'
  | 'identifier'
  | 'leftDelim'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'text'
  | 'variable'
  // keywords
  | 'block'
  | 'break'
  | 'continue'
  | 'dot'
  | 'define'
  | 'else'
  | 'end'
  | 'if'
  | 'nil'
  | 'range'
  | 'template'
  | 'with';

export interface Token {
  readonly type: TokenType;
  readonly val: string;
  /** UTF-16 offset of the token's start. */
  readonly pos: number;
}

const KEYWORDS: ReadonlySet<string> = new Set([
  '.',
  'block',
  'break',
  'continue',
  'define',
  'else',
  'end',
  'if',
  'range',
  'nil',
  'template',
  'with',
]);

const KEYWORD_TYPE: Readonly<Record<string, TokenType>> = { '.': 'dot' };

/** Go's `item.String()`, used in "unexpected X in Y" messages. */
export function tokenString(t: Token): string {
  if (t.type === 'eof') return 'EOF';
  if (t.type === 'error') return t.val;
  if (KEYWORDS.has(t.val) && t.type !== 'identifier' && t.type !== 'field') return `<${t.val}>`;
  const runes = [...t.val];
  if (runes.length > 10) return `${goQuoteSimple(runes.slice(0, 10).join(''))}...`;
  return goQuoteSimple(t.val);
}

/** `%q` for the short token texts that show up in syntax errors. */
function goQuoteSimple(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '"':
        out += '\\"';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\r':
        out += '\\r';
        break;
      default:
        out += ch;
    }
  }
  return `${out}"`;
}

const LEFT_DELIM = '{{';
const RIGHT_DELIM = '}}';
const LEFT_COMMENT = '/*';
const RIGHT_COMMENT = '*/';
const EOF = -1;

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}]$/u;
export function isAlphaNumeric(c: number): boolean {
  if (c === 0x5f) return true;
  if (c < 0) return false;
  if (c < 0x80) {
    return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  }
  return LETTER_OR_DIGIT.test(String.fromCodePoint(c));
}

function hasLeftTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && s[at] === '-' && isSpace(s.charCodeAt(at + 1));
}
function hasRightTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && isSpace(s.charCodeAt(at)) && s[at + 1] === '-';
}
function isSpaceChar(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

/** Tokenizes `input` completely; the last token is `eof` or `error`. */
export function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let start = 0;
  let pos = 0;
  let parenDepth = 0;

  const emit = (type: TokenType): void => {
    tokens.push({ type, val: input.slice(start, pos), pos: start });
    start = pos;
  };
  const fail = (message: string): null => {
    tokens.push({ type: 'error', val: message, pos: start });
    return null;
  };
  const peek = (): number => (pos < input.length ? (input.codePointAt(pos) as number) : EOF);
  const next = (): number => {
    if (pos >= input.length) {
      pos = input.length + 1; // so that backup() returns to the end
      return EOF;
    }
    const c = input.codePointAt(pos) as number;
    pos += c > 0xffff ? 2 : 1;
    return c;
  };
  const backup = (): void => {
    if (pos > input.length) {
      pos = input.length;
      return;
    }
    const prev = input.codePointAt(pos - 2);
    pos -= prev !== undefined && prev > 0xffff ? 2 : 1;
  };
  const accept = (valid: string): boolean => {
    const c = peek();
    if (c !== EOF && valid.includes(String.fromCodePoint(c))) {
      next();
      return true;
    }
    return false;
  };
  const acceptRun = (valid: string): void => {
    while (accept(valid)) {
      // absorb
    }
  };
  const atRightDelim = (): { delim: boolean; trim: boolean } => {
    if (hasRightTrimMarker(input, pos) && input.startsWith(RIGHT_DELIM, pos + 2)) return { delim: true, trim: true };
    if (input.startsWith(RIGHT_DELIM, pos)) return { delim: true, trim: false };
    return { delim: false, trim: false };
  };
  const atTerminator = (): boolean => {
    const c = peek();
    if (isSpace(c)) return true;
    if (c === EOF) return true;
    if ('.,|:)('.includes(String.fromCodePoint(c))) return true;
    return input.startsWith(RIGHT_DELIM, pos);
  };
  const charName = (c: number): string =>
    `U+${c.toString(16).toUpperCase().padStart(4, '0')} '${String.fromCodePoint(c)}'`;

  type State = () => State | null;

  const lexText: State = () => {
    const x = input.indexOf(LEFT_DELIM, pos);
    if (x >= 0) {
      pos = x;
      let trimLength = 0;
      if (hasLeftTrimMarker(input, pos + LEFT_DELIM.length)) {
        let i = pos;
        while (i > start && isSpaceChar(input[i - 1])) i--;
        trimLength = pos - i;
      }
      pos -= trimLength;
      if (pos > start) emit('text');
      pos += trimLength;
      start = pos;
      return lexLeftDelim;
    }
    pos = input.length;
    if (pos > start) emit('text');
    emit('eof');
    return null;
  };

  const lexLeftDelim: State = () => {
    pos += LEFT_DELIM.length;
    const trim = hasLeftTrimMarker(input, pos);
    const afterMarker = trim ? 2 : 0;
    if (input.startsWith(LEFT_COMMENT, pos + afterMarker)) {
      pos += afterMarker;
      start = pos;
      return lexComment;
    }
    emit('leftDelim');
    pos += afterMarker;
    start = pos;
    parenDepth = 0;
    return lexInsideAction;
  };

  const lexComment: State = () => {
    pos += LEFT_COMMENT.length;
    const i = input.indexOf(RIGHT_COMMENT, pos);
    if (i < 0) return fail('unclosed comment');
    pos = i + RIGHT_COMMENT.length;
    const { delim, trim } = atRightDelim();
    if (!delim) return fail('comment ends before closing delimiter');
    emit('comment');
    if (trim) pos += 2;
    pos += RIGHT_DELIM.length;
    if (trim) while (isSpaceChar(input[pos])) pos++;
    start = pos;
    return lexText;
  };

  const lexRightDelim: State = () => {
    const trim = hasRightTrimMarker(input, pos);
    if (trim) {
      pos += 2;
      start = pos;
    }
    pos += RIGHT_DELIM.length;
    emit('rightDelim');
    if (trim) {
      while (isSpaceChar(input[pos])) pos++;
      start = pos;
    }
    return lexText;
  };

  const lexInsideAction: State = () => {
    if (atRightDelim().delim) {
      if (parenDepth === 0) return lexRightDelim;
      return fail('unclosed left paren');
    }
    const r = next();
    if (r === EOF) return fail('unclosed action');
    if (isSpace(r)) {
      backup();
      return lexSpace;
    }
    const ch = String.fromCodePoint(r);
    switch (ch) {
      case '=':
        emit('assign');
        return lexInsideAction;
      case ':':
        if (next() !== 0x3d) return fail('expected :=');
        emit('declare');
        return lexInsideAction;
      case '|':
        emit('pipe');
        return lexInsideAction;
      case '"':
        return lexQuote;
      case '`':
        return lexRawQuote;
      case '$':
        return lexVariable;
      case "'":
        return lexChar;
      case '(':
        emit('leftParen');
        parenDepth++;
        return lexInsideAction;
      case ')':
        emit('rightParen');
        parenDepth--;
        if (parenDepth < 0) return fail(`unexpected right paren ${charName(r)}`);
        return lexInsideAction;
    }
    if (ch === '.') {
      const c = input.charCodeAt(pos);
      if (pos < input.length && (c < 0x30 || c > 0x39)) return lexField;
    }
    if (ch === '.' || ch === '+' || ch === '-' || (r >= 0x30 && r <= 0x39)) {
      backup();
      return lexNumber;
    }
    if (isAlphaNumeric(r)) {
      backup();
      return lexIdentifier;
    }
    if (r <= 0x7f && r >= 0x20 && r !== 0x7f) {
      emit('char');
      return lexInsideAction;
    }
    return fail(`unrecognized character in action: ${charName(r)}`);
  };

  const lexSpace: State = () => {
    let numSpaces = 0;
    while (isSpace(peek())) {
      next();
      numSpaces++;
    }
    if (hasRightTrimMarker(input, pos - 1) && input.startsWith(RIGHT_DELIM, pos + 1)) {
      backup();
      if (numSpaces === 1) return lexRightDelim;
    }
    emit('space');
    return lexInsideAction;
  };

  const lexIdentifier: State = () => {
    for (;;) {
      const r = next();
      if (isAlphaNumeric(r)) continue;
      backup();
      const word = input.slice(start, pos);
      if (!atTerminator()) return fail(`bad character ${charName(r)}`);
      if (KEYWORDS.has(word)) emit((KEYWORD_TYPE[word] ?? word) as TokenType);
      else if (word === 'true' || word === 'false') emit('bool');
      else emit('identifier');
      return lexInsideAction;
    }
  };

  const lexFieldOrVariable = (type: 'field' | 'variable'): State | null => {
    if (atTerminator()) {
      emit(type === 'variable' ? 'variable' : 'dot');
      return lexInsideAction;
    }
    let r: number;
    for (;;) {
      r = next();
      if (!isAlphaNumeric(r)) {
        backup();
        break;
      }
    }
    if (!atTerminator()) return fail(`bad character ${charName(r)}`);
    emit(type);
    return lexInsideAction;
  };
  const lexField: State = () => lexFieldOrVariable('field');
  const lexVariable: State = () => {
    if (atTerminator()) {
      emit('variable');
      return lexInsideAction;
    }
    return lexFieldOrVariable('variable');
  };

  const lexChar: State = () => {
    for (;;) {
      const r = next();
      if (r === 0x5c) {
        const e = next();
        if (e !== EOF && e !== 0x0a) continue;
        return fail('unterminated character constant');
      }
      if (r === EOF || r === 0x0a) return fail('unterminated character constant');
      if (r === 0x27) break;
    }
    emit('charConstant');
    return lexInsideAction;
  };

  const scanNumber = (): boolean => {
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    if (isAlphaNumeric(peek())) {
      next();
      return false;
    }
    return true;
  };

  const lexNumber: State = () => {
    if (!scanNumber()) return fail(`bad number syntax: ${goQuoteSimple(input.slice(start, pos))}`);
    const sign = peek();
    if (sign === 0x2b || sign === 0x2d) {
      // Complex constant such as 1+2i: lexed like Go, rejected by the parser.
      if (!scanNumber() || input[pos - 1] !== 'i') {
        return fail(`bad number syntax: ${goQuoteSimple(input.slice(start, pos))}`);
      }
    }
    emit('number');
    return lexInsideAction;
  };

  const lexQuote: State = () => {
    for (;;) {
      const r = next();
      if (r === 0x5c) {
        const e = next();
        if (e !== EOF && e !== 0x0a) continue;
        return fail('unterminated quoted string');
      }
      if (r === EOF || r === 0x0a) return fail('unterminated quoted string');
      if (r === 0x22) break;
    }
    emit('string');
    return lexInsideAction;
  };

  const lexRawQuote: State = () => {
    for (;;) {
      const r = next();
      if (r === EOF) return fail('unterminated raw quoted string');
      if (r === 0x60) break;
    }
    emit('rawString');
    return lexInsideAction;
  };

  let state: State | null = lexText;
  while (state) state = state();
  return tokens;
}
