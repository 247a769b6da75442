import { parseGoDuration } from './go-duration.js';

describe('parseGoDuration', () => {
  it.each([
    ['10s', 10_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['1.5h', 5_400_000],
    ['0', 0],
    ['10', undefined],
    ['10 s', undefined],
    ['', undefined],
    ['3d', undefined],
  ])('%s → %s', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });
});
