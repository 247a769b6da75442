/**
 * Lexer for Go `text/template` with the default `{{` `}}` delimiters, a port of the state machine in
 * Go's `text/template/parse/lex.go` (trim markers `{{- ` / ` -}}`, comments, numbers, strings,
 * characters): each state is a method that reads one piece and returns the next state. It stops at the first
 * error, emitting an `error` token the parser reports when it reaches it, as Go's does.
 */
import {
  EOF,
  LEFT_COMMENT,
  LEFT_DELIM,
  LexScanner,
  RIGHT_COMMENT,
  RIGHT_DELIM,
  charName,
  hasLeftTrimMarker,
  hasRightTrimMarker,
  isAlphaNumeric,
  isSpace,
  isSpaceChar,
} from './lex-scanner.js';
import { KEYWORDS, KEYWORD_TYPE, goQuoteSimple, type Token, type TokenType } from './token.js';

/** Tokenizes `input` completely; the last token is `eof` or `error`. */
export function lex(input: string): Token[] {
  return new Lexer(input).run();
}

type State = (this: Lexer) => State | null;

/** Inside an action, the runes that are a token by themselves (the rest: `lexInsideAction`'s own cases). */
const SINGLE_RUNE_TOKENS: Readonly<Record<string, TokenType>> = { '=': 'assign', '|': 'pipe' };

class Lexer extends LexScanner {
  private parenDepth = 0;

  run(): Token[] {
    let state: State | null = this.lexText;
    while (state) state = state.call(this);
    return this.tokens;
  }

  /** Text up to the next left delimiter (less the spaces a `{{- ` trims). */
  private lexText(): State | null {
    const x = this.input.indexOf(LEFT_DELIM, this.pos);
    if (x >= 0) {
      this.pos = x;
      let trimLength = 0;
      if (hasLeftTrimMarker(this.input, this.pos + LEFT_DELIM.length)) {
        let i = this.pos;
        while (i > this.start && isSpaceChar(this.input[i - 1])) i--;
        trimLength = this.pos - i;
      }
      this.pos -= trimLength;
      if (this.pos > this.start) this.emit('text');
      this.pos += trimLength;
      this.start = this.pos;
      return this.lexLeftDelim;
    }
    this.pos = this.input.length;
    if (this.pos > this.start) this.emit('text');
    this.emit('eof');
    return null;
  }

  private lexLeftDelim(): State | null {
    this.pos += LEFT_DELIM.length;
    const trim = hasLeftTrimMarker(this.input, this.pos);
    const afterMarker = trim ? 2 : 0;
    if (this.input.startsWith(LEFT_COMMENT, this.pos + afterMarker)) {
      this.pos += afterMarker;
      this.start = this.pos;
      return this.lexComment;
    }
    this.emit('leftDelim');
    this.pos += afterMarker;
    this.start = this.pos;
    this.parenDepth = 0;
    return this.lexInsideAction;
  }

  private lexComment(): State | null {
    this.pos += LEFT_COMMENT.length;
    const i = this.input.indexOf(RIGHT_COMMENT, this.pos);
    if (i < 0) return this.fail('unclosed comment');
    this.pos = i + RIGHT_COMMENT.length;
    const { delim, trim } = this.atRightDelim();
    if (!delim) return this.fail('comment ends before closing delimiter');
    this.emit('comment');
    if (trim) this.pos += 2;
    this.pos += RIGHT_DELIM.length;
    if (trim) this.skipSpaces();
    this.start = this.pos;
    return this.lexText;
  }

  private lexRightDelim(): State | null {
    const trim = hasRightTrimMarker(this.input, this.pos);
    if (trim) {
      this.pos += 2;
      this.start = this.pos;
    }
    this.pos += RIGHT_DELIM.length;
    this.emit('rightDelim');
    if (trim) {
      this.skipSpaces();
      this.start = this.pos;
    }
    return this.lexText;
  }

  private lexInsideAction(): State | null {
    if (this.atRightDelim().delim) {
      if (this.parenDepth === 0) return this.lexRightDelim;
      return this.fail('unclosed left paren');
    }
    const r = this.next();
    if (r === EOF) return this.fail('unclosed action');
    if (isSpace(r)) {
      this.backup();
      return this.lexSpace;
    }
    const ch = String.fromCodePoint(r);
    const single = SINGLE_RUNE_TOKENS[ch];
    if (single) {
      this.emit(single);
      return this.lexInsideAction;
    }
    switch (ch) {
      case ':':
        if (this.next() !== 0x3d) return this.fail('expected :=');
        this.emit('declare');
        return this.lexInsideAction;
      case '"':
        return this.lexQuote;
      case '`':
        return this.lexRawQuote;
      case '$':
        return this.lexVariable;
      case "'":
        return this.lexChar;
      case '(':
      case ')':
        return this.paren(r);
    }
    return this.lexWordOrChar(r);
  }

  /** `(` or `)`, counting the depth: a `}}` inside parentheses is an error. */
  private paren(r: number): State | null {
    if (r === 0x28) {
      this.emit('leftParen');
      this.parenDepth++;
      return this.lexInsideAction;
    }
    this.emit('rightParen');
    this.parenDepth--;
    if (this.parenDepth < 0) return this.fail(`unexpected right paren ${charName(r)}`);
    return this.lexInsideAction;
  }

  /** After rune `r` inside an action: a field, a number, an identifier or keyword, or a lone ASCII char. */
  private lexWordOrChar(r: number): State | null {
    if (r === 0x2e) {
      const c = this.input.charCodeAt(this.pos);
      if (this.pos < this.input.length && (c < 0x30 || c > 0x39)) return this.lexField;
    }
    if (r === 0x2e || r === 0x2b || r === 0x2d || (r >= 0x30 && r <= 0x39)) {
      this.backup();
      return this.lexNumber;
    }
    if (isAlphaNumeric(r)) {
      this.backup();
      return this.lexIdentifier;
    }
    if (r <= 0x7f && r >= 0x20 && r !== 0x7f) {
      this.emit('char');
      return this.lexInsideAction;
    }
    return this.fail(`unrecognized character in action: ${charName(r)}`);
  }

  private lexSpace(): State | null {
    let numSpaces = 0;
    while (isSpace(this.peek())) {
      this.next();
      numSpaces++;
    }
    if (hasRightTrimMarker(this.input, this.pos - 1) && this.input.startsWith(RIGHT_DELIM, this.pos + 1)) {
      this.backup();
      if (numSpaces === 1) return this.lexRightDelim;
    }
    this.emit('space');
    return this.lexInsideAction;
  }

  private lexIdentifier(): State | null {
    for (;;) {
      const r = this.next();
      if (isAlphaNumeric(r)) continue;
      this.backup();
      const word = this.input.slice(this.start, this.pos);
      if (!this.atTerminator()) return this.fail(`bad character ${charName(r)}`);
      if (KEYWORDS.has(word)) this.emit((KEYWORD_TYPE[word] ?? word) as TokenType);
      else if (word === 'true' || word === 'false') this.emit('bool');
      else this.emit('identifier');
      return this.lexInsideAction;
    }
  }

  private lexField(): State | null {
    return this.lexFieldOrVariable('field');
  }

  private lexVariable(): State | null {
    if (this.atTerminator()) {
      this.emit('variable');
      return this.lexInsideAction;
    }
    return this.lexFieldOrVariable('variable');
  }

  private lexFieldOrVariable(type: 'field' | 'variable'): State | null {
    if (this.atTerminator()) {
      this.emit(type === 'variable' ? 'variable' : 'dot');
      return this.lexInsideAction;
    }
    let r: number;
    for (;;) {
      r = this.next();
      if (!isAlphaNumeric(r)) {
        this.backup();
        break;
      }
    }
    if (!this.atTerminator()) return this.fail(`bad character ${charName(r)}`);
    this.emit(type);
    return this.lexInsideAction;
  }

  private lexChar(): State | null {
    return this.lexQuoted(0x27, 'charConstant', 'unterminated character constant');
  }

  private lexQuote(): State | null {
    return this.lexQuoted(0x22, 'string', 'unterminated quoted string');
  }

  /** A quoted token with backslash escapes, up to the closing rune `close`; a newline or the end is `unterminated`. */
  private lexQuoted(close: number, type: TokenType, unterminated: string): State | null {
    for (;;) {
      const r = this.next();
      if (r === 0x5c) {
        const e = this.next();
        if (e !== EOF && e !== 0x0a) continue;
        return this.fail(unterminated);
      }
      if (r === EOF || r === 0x0a) return this.fail(unterminated);
      if (r === close) break;
    }
    this.emit(type);
    return this.lexInsideAction;
  }

  private lexRawQuote(): State | null {
    for (;;) {
      const r = this.next();
      if (r === EOF) return this.fail('unterminated raw quoted string');
      if (r === 0x60) break;
    }
    this.emit('rawString');
    return this.lexInsideAction;
  }

  /** Scans a number's runes (base prefix, digits, fraction, exponent, `i`); false when a letter follows. */
  private scanNumber(): boolean {
    this.accept('+-');
    let digits = '0123456789_';
    if (this.accept('0')) {
      if (this.accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (this.accept('oO')) digits = '01234567_';
      else if (this.accept('bB')) digits = '01_';
    }
    this.acceptRun(digits);
    if (this.accept('.')) this.acceptRun(digits);
    if (digits.length === 11 && this.accept('eE')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    if (digits.length === 23 && this.accept('pP')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    this.accept('i');
    if (isAlphaNumeric(this.peek())) {
      this.next();
      return false;
    }
    return true;
  }

  private lexNumber(): State | null {
    if (!this.scanNumber()) return this.fail(`bad number syntax: ${goQuoteSimple(this.input.slice(this.start, this.pos))}`);
    const sign = this.peek();
    if (sign === 0x2b || sign === 0x2d) {
      // Complex constant such as 1+2i: lexed like Go, rejected by the parser.
      if (!this.scanNumber() || this.input[this.pos - 1] !== 'i') {
        return this.fail(`bad number syntax: ${goQuoteSimple(this.input.slice(this.start, this.pos))}`);
      }
    }
    this.emit('number');
    return this.lexInsideAction;
  }
}
