import { MAX_BODY_DEPTH, parseJsonBody } from './json-body-parser.js';

describe('parseJsonBody', () => {
  it('parses JSON and drops prototype-poisoning keys', () => {
    expect(parseJsonBody('{"a":1,"__proto__":{"admin":true}}')).toEqual({ a: 1 });
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
  });

  it('treats an empty body as no body', () => {
    expect(parseJsonBody('  ')).toBeUndefined();
  });

  it('refuses malformed JSON and too deep nesting with a 400 problem', () => {
    expect(() => parseJsonBody('{"kind": ')).toThrow(/body is not valid JSON/);
    const deep = '['.repeat(MAX_BODY_DEPTH + 1) + ']'.repeat(MAX_BODY_DEPTH + 1);
    expect(() => parseJsonBody(deep)).toThrow(`body nests deeper than ${MAX_BODY_DEPTH} levels`);
    const ok = '['.repeat(MAX_BODY_DEPTH) + ']'.repeat(MAX_BODY_DEPTH);
    expect(parseJsonBody(ok)).toBeDefined();
    expect(() => parseJsonBody('['.repeat(100000) + ']'.repeat(100000))).toThrow(/deeper/);
  });
});
