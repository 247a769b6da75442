import { duplicateKey, MAX_BODY_DEPTH, parseJsonBody } from './json-body-parser.js';

describe('parseJsonBody', () => {
  it('refuses prototype-poisoning keys, naming the field, instead of dropping them', () => {
    expect(() => parseJsonBody('{"a":1,"spec":{"__proto__":{"admin":true}}}')).toThrow('body field spec.__proto__ is not allowed');
    expect(() => parseJsonBody('{"labels":{"constructor":{"prototype":{"x":1}}}}')).toThrow(
      'body field labels.constructor.prototype is not allowed',
    );
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
    expect(parseJsonBody('{"constructor":"a name","proto":1}')).toEqual({ constructor: 'a name', proto: 1 });
  });

  it('refuses bytes that are not UTF-8 instead of replacing them with U+FFFD', () => {
    expect(() => parseJsonBody(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toThrow('body is not valid UTF-8');
    expect(parseJsonBody(Buffer.from('{"a":"é✓"}', 'utf8'))).toEqual({ a: 'é✓' });
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

  it('refuses a key that appears twice in one object, naming it, instead of keeping the last value', () => {
    expect(() => parseJsonBody('{"name":"a","name":"b"}')).toThrow('body field name appears more than once');
    expect(() => parseJsonBody('{"spec":{"labels":{"a":1,"\\u0061":2}}}')).toThrow('body field spec.labels.a appears more than once');
    expect(duplicateKey('{"items":[{"id":1},{"id":2,"x":{},"id":3}]}')).toBe('items[1].id');
    expect(duplicateKey('[[],{"a":[1,{"a":2}],"b":"a,\\"a"}]')).toBeUndefined();
    // The same key in sibling or nested objects is no duplicate.
    expect(parseJsonBody('{"a":{"a":1},"b":{"a":2},"list":[{"a":1},{"a":2}]}')).toEqual({
      a: { a: 1 },
      b: { a: 2 },
      list: [{ a: 1 }, { a: 2 }],
    });
  });
});
