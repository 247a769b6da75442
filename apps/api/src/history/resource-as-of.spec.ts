import { parseRfc3339 } from './resource-as-of.js';

describe('parseRfc3339 (as_of)', () => {
  it.each([
    ['2026-11-29T10:00:00Z', '2026-11-29T10:00:00.000Z'],
    ['2026-11-29T11:00:00.5+01:00', '2026-11-29T10:00:00.500Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ])('accepts %s', (raw, iso) => {
    expect(parseRfc3339(raw)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-11-29',
    '2026-11-29T25:00:00Z',
    'yesterday',
    '2026-11-29T10:00:00',
  ])('refuses %s', (raw) => {
    expect(parseRfc3339(raw)).toBeUndefined();
  });
});
