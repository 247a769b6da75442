import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PatchError } from './patches.js';

describe('JSON merge patch (RFC 7386)', () => {
  it('merges objects, deletes on null, replaces arrays', () => {
    const target = { a: { b: 1, c: 2 }, list: [1, 2], keep: true };
    expect(applyMergePatch(target, { a: { b: null, d: 3 }, list: [9] })).toEqual({ a: { c: 2, d: 3 }, list: [9], keep: true });
    expect(target.a).toEqual({ b: 1, c: 2 });
  });
});

describe('JSON patch (RFC 6902)', () => {
  const doc = { metadata: { finalizers: ['a', 'b'], labels: { 'x/y': '1' } } };

  it('applies add, remove, replace, move, copy and test in order', () => {
    const result = applyJsonPatch(doc, [
      { op: 'test', path: '/metadata/finalizers/0', value: 'a' },
      { op: 'remove', path: '/metadata/finalizers/0' },
      { op: 'add', path: '/metadata/finalizers/-', value: 'c' },
      { op: 'replace', path: '/metadata/labels/x~1y', value: '2' },
      { op: 'copy', from: '/metadata/labels', path: '/metadata/annotations' },
      { op: 'move', from: '/metadata/annotations/x~1y', path: '/metadata/annotations/z' },
    ]);
    expect(result).toEqual({ metadata: { finalizers: ['b', 'c'], labels: { 'x/y': '2' }, annotations: { z: '2' } } });
  });

  it.each([
    [[{ op: 'test', path: '/metadata/finalizers/0', value: 'z' }], 'test failed'],
    [[{ op: 'remove', path: '/metadata/nothing' }], 'does not exist'],
    [[{ op: 'replace', path: '/spec/x', value: 1 }], 'does not exist'],
    [[{ op: 'jump', path: '/a' }], "unexpected JSON patch operation 'jump'"],
    [{ op: 'add' }, 'must be an array'],
  ])('rejects %j', (patch, message) => {
    expect(() => applyJsonPatch(doc, patch)).toThrow(PatchError);
    expect(() => applyJsonPatch(doc, patch)).toThrow(message);
  });
});

describe('strategic merge patch (approximation)', () => {
  it('merges finalizers as a set and deletes with $deleteFromPrimitiveList', () => {
    const target = { metadata: { finalizers: ['a', 'b'] } };
    expect(applyStrategicMergePatch(target, { metadata: { finalizers: ['b', 'c'] } })).toEqual({
      metadata: { finalizers: ['a', 'b', 'c'] },
    });
    expect(applyStrategicMergePatch(target, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } })).toEqual({
      metadata: { finalizers: ['b'] },
    });
  });

  it('merges containers by name, deletes with $patch: delete, replaces untagged lists', () => {
    const target = {
      spec: {
        containers: [
          { name: 'a', image: 'a:1' },
          { name: 'b', image: 'b:1' },
        ],
        args: ['x'],
      },
    };
    const patch = {
      spec: {
        containers: [
          { name: 'a', image: 'a:2' },
          { name: 'b', $patch: 'delete' },
          { name: 'c', image: 'c:1' },
        ],
        args: ['y'],
      },
    };
    expect(applyStrategicMergePatch(target, patch)).toEqual({
      spec: {
        containers: [
          { name: 'a', image: 'a:2' },
          { name: 'c', image: 'c:1' },
        ],
        args: ['y'],
      },
    });
  });
});

describe('patches never reach the prototype of the process', () => {
  const clean = () => expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();

  it('a JSON pointer through __proto__ or constructor names no member: 422-style PatchError, nothing polluted', () => {
    const doc = { metadata: { name: 'x' } };
    for (const path of ['/metadata/__proto__/polluted', '/metadata/constructor/prototype/polluted', '/__proto__/polluted']) {
      expect(() => applyJsonPatch(doc, [{ op: 'add', path, value: 'x' }])).toThrow(PatchError);
      expect(() => applyJsonPatch(doc, [{ op: 'replace', path, value: 'x' }])).toThrow(PatchError);
      expect(() => applyJsonPatch(doc, [{ op: 'remove', path: path.replace('/polluted', '/toString') }])).toThrow(PatchError);
      clean();
    }
    expect(Object.prototype.toString).toBeDefined();
  });

  it('a member named __proto__ is an own property of the document (as Go would keep a field of that name)', () => {
    const patched = applyJsonPatch({ metadata: {} }, [{ op: 'add', path: '/metadata/__proto__', value: { polluted: 'x' } }]) as {
      metadata: object;
    };
    // Had the assignment replaced the prototype, `polluted` would be inherited.
    expect((patched.metadata as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(patched.metadata)).toEqual(['__proto__']);
    clean();
    const merged = applyMergePatch({ metadata: {} }, JSON.parse('{"metadata":{"__proto__":{"polluted":"x"}}}')) as { metadata: object };
    expect((merged.metadata as Record<string, unknown>)['polluted']).toBeUndefined();
    const strategic = applyStrategicMergePatch({ metadata: {} }, JSON.parse('{"metadata":{"__proto__":{"polluted":"x"}}}')) as {
      metadata: object;
    };
    expect((strategic.metadata as Record<string, unknown>)['polluted']).toBeUndefined();
    clean();
  });
});
