import { parseFieldPath, readFieldPath } from './field-path.js';

const data = {
  name: 'c1',
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
  items: [
    { name: 'a', adapter: 'x' },
    { name: 'b', adapter: 'y' },
  ],
  deleted_time: null,
};

describe('field paths: dot paths and {JSONPath}', () => {
  it.each([
    ['name', { found: true, value: 'c1' }],
    ['status.conditions.0.type', { found: true, value: 'Ready' }],
    ['status.missing', { found: false }],
    ['deleted_time', { found: false }],
    ['{.items[0].name}', { found: true, value: 'a' }],
    ['{.items[*].name}', { found: true, value: ['a', 'b'] }],
    ["{.items[?(@.adapter=='y')].name}", { found: true, value: 'b' }],
    ['{.nothing}', { found: false }],
  ])('%s', (source, expected) => {
    const path = parseFieldPath(source, 'f');
    if ('error' in path) throw new Error(path.error);
    expect(readFieldPath(path, data)).toEqual(expected);
  });

  it.each(['a..b', '{.a'])('rejects %s', (source) => {
    expect(parseFieldPath(source, 'f')).toHaveProperty('error');
  });
});
