/**
 * The lexer's cursor over the template text (Go's `lexer` struct in `text/template/parse/lex.go`): the
 * token being read runs from `start` to `pos` (UTF-16 offsets); `next`/`backup` step by code point.
 */
import type { Token, TokenType } from './token.js';

export const LEFT_DELIM = '{{';
export const RIGHT_DELIM = '}}';
export const LEFT_COMMENT = '/*';
export const RIGHT_COMMENT = '*/';
export const EOF = -1;

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

export function hasLeftTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && s[at] === '-' && isSpace(s.charCodeAt(at + 1));
}
export function hasRightTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && isSpace(s.charCodeAt(at)) && s[at + 1] === '-';
}
export function isSpaceChar(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

/** Go's `%U %q` of a rune, as lexer errors show it. */
export function charName(c: number): string {
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')} '${String.fromCodePoint(c)}'`;
}

export class LexScanner {
  readonly tokens: Token[] = [];
  protected start = 0;
  protected pos = 0;

  constructor(protected readonly input: string) {}

  /** Emits the text since `start` as a `type` token. */
  protected emit(type: TokenType): void {
    this.tokens.push({ type, val: this.input.slice(this.start, this.pos), pos: this.start });
    this.start = this.pos;
  }

  /** Emits an `error` token; lexing stops (the null state). */
  protected fail(message: string): null {
    this.tokens.push({ type: 'error', val: message, pos: this.start });
    return null;
  }

  protected peek(): number {
    return this.pos < this.input.length ? (this.input.codePointAt(this.pos) as number) : EOF;
  }

  protected next(): number {
    if (this.pos >= this.input.length) {
      this.pos = this.input.length + 1; // so that backup() returns to the end
      return EOF;
    }
    const c = this.input.codePointAt(this.pos) as number;
    this.pos += c > 0xffff ? 2 : 1;
    return c;
  }

  protected backup(): void {
    if (this.pos > this.input.length) {
      this.pos = this.input.length;
      return;
    }
    const prev = this.input.codePointAt(this.pos - 2);
    this.pos -= prev !== undefined && prev > 0xffff ? 2 : 1;
  }

  /** Consumes the next rune when it is one of `valid`. */
  protected accept(valid: string): boolean {
    const c = this.peek();
    if (c !== EOF && valid.includes(String.fromCodePoint(c))) {
      this.next();
      return true;
    }
    return false;
  }

  protected acceptRun(valid: string): void {
    while (this.accept(valid)) {
      // absorb
    }
  }

  /** At `}}` or ` -}}` (`trim`: the right trim marker). */
  protected atRightDelim(): { delim: boolean; trim: boolean } {
    if (hasRightTrimMarker(this.input, this.pos) && this.input.startsWith(RIGHT_DELIM, this.pos + 2)) return { delim: true, trim: true };
    if (this.input.startsWith(RIGHT_DELIM, this.pos)) return { delim: true, trim: false };
    return { delim: false, trim: false };
  }

  /** At what may follow a word: space, end, punctuation or the right delimiter. */
  protected atTerminator(): boolean {
    const c = this.peek();
    if (isSpace(c)) return true;
    if (c === EOF) return true;
    if ('.,|:)('.includes(String.fromCodePoint(c))) return true;
    return this.input.startsWith(RIGHT_DELIM, this.pos);
  }

  /** Skips the spaces a trim marker removes. */
  protected skipSpaces(): void {
    while (isSpaceChar(this.input[this.pos])) this.pos++;
  }
}
