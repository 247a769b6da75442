import { lex } from './lexer.js';

/** Token types and texts of `input`, the error's message in place of its text. */
const tokens = (input: string) => lex(input).map((t) => `${t.type}:${t.val}`);

describe('lex (Go text/template/parse/lex.go)', () => {
  it('trims the spaces around `{{- ` and ` -}}` and lexes the action inside', () => {
    expect(tokens('a  {{- .x | f "s" -}}  b')).toEqual([
      'text:a',
      'leftDelim:{{',
      'field:.x',
      'space: ',
      'pipe:|',
      'space: ',
      'identifier:f',
      'space: ',
      'string:"s"',
      'rightDelim:}}',
      'text:b',
      'eof:',
    ]);
  });

  it('lexes declarations, variables, characters, raw strings and numbers', () => {
    expect(tokens("{{$x := 'a'}}{{`r` 0x1F 1+2i}}").filter((t) => !t.startsWith('space'))).toEqual([
      'leftDelim:{{',
      'variable:$x',
      'declare::=',
      "charConstant:'a'",
      'rightDelim:}}',
      'leftDelim:{{',
      'rawString:`r`',
      'number:0x1F',
      'number:1+2i',
      'rightDelim:}}',
      'eof:',
    ]);
  });

  it.each([
    ["{{ 'a", 'unterminated character constant'],
    ['{{ "a\n" }}', 'unterminated quoted string'],
    ['{{ `a', 'unterminated raw quoted string'],
    ['{{ (1 }}', 'unclosed left paren'],
    ['{{ ) }}', "unexpected right paren U+0029 ')'"],
    ['{{ 12abc }}', 'bad number syntax: "12a"'],
    ['{{/* c', 'unclosed comment'],
    ['{{ x', 'unclosed action'],
  ])('stops at the first error in %j: %s', (input, message) => {
    const all = lex(input);
    expect(all[all.length - 1]).toMatchObject({ type: 'error', val: message });
  });
});
