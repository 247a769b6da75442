/**
 * The tokens of Go `text/template` (`itemType` and `item` in Go's `text/template/parse/lex.go`) and how syntax
 * errors name them.
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

/** Words lexed as keywords (`.` as `dot`), not identifiers. */
export const KEYWORDS: ReadonlySet<string> = new Set([
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

/** A keyword's token type where it is not the word itself. */
export const KEYWORD_TYPE: Readonly<Record<string, TokenType>> = { '.': 'dot' };

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
export function goQuoteSimple(s: string): string {
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
