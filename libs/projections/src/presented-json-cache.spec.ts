import { PresentedJsonCache } from './presented-json-cache.js';
import type { ResourceRow } from './resource-view.schema.js';

const row = (id: string, generation = 1): ResourceRow =>
  ({ id, kind: 'Cluster', name: `n-${id}`, generation, conditions: '[]' }) as unknown as ResourceRow;

describe('PresentedJsonCache', () => {
  it('keeps the text of an unchanged row and presents a changed one again', () => {
    const cache = new PresentedJsonCache();
    let presented = 0;
    const present = (r: ResourceRow) => (presented++, { id: r.id, generation: r.generation });
    expect(cache.textOf(row('a'), 1, present, true)).toBe('{"id":"a","generation":1}');
    expect(cache.textOf(row('a'), 2, present, true)).toBe('{"id":"a","generation":1}');
    expect(presented).toBe(1);
    expect(cache.textOf(row('a', 2), 3, present, true)).toBe('{"id":"a","generation":2}');
    expect(presented).toBe(2);
  });

  it('answers without a row only at the version it was read at (or last confirmed)', () => {
    const cache = new PresentedJsonCache();
    cache.textOf(row('a'), 5, (r) => ({ id: r.id }), true);
    expect(cache.atVersion('a', 5)).toEqual({ kind: 'Cluster', row: row('a'), text: '{"id":"a"}', version: 5 });
    expect(cache.atVersion('a', 6)).toBeUndefined();
    expect(cache.atVersion('a', undefined)).toBeUndefined();
    cache.textOf(row('a'), 6, (r) => ({ id: r.id }), true);
    expect(cache.atVersion('a', 6)?.text).toBe('{"id":"a"}');
  });

  it('never keeps what is not cacheable, and drops the least recently stored beyond its size', () => {
    const cache = new PresentedJsonCache(2);
    cache.textOf(row('a'), 1, (r) => ({ id: r.id }), false);
    expect(cache.atVersion('a', 1)).toBeUndefined();
    for (const id of ['a', 'b', 'c']) cache.textOf(row(id), 1, (r) => ({ id: r.id }), true);
    expect(cache.atVersion('a', 1)).toBeUndefined();
    expect(cache.atVersion('b', 1)?.text).toBe('{"id":"b"}');
    expect(cache.atVersion('c', 1)?.text).toBe('{"id":"c"}');
  });
});
