import { isRetryableStatus, retryDelayMs } from './retry-backoff.js';

describe('retryDelayMs (±10 % jitter, capped at max_delay)', () => {
  it.each([
    // attempt, backoff, random, expected ms (base 1000, max 30000)
    [1, 'exponential', 0.5, 1000],
    [3, 'exponential', 0.5, 4000],
    [3, 'linear', 0.5, 3000],
    [3, 'constant', 0.5, 1000],
    [1, 'exponential', 0, 900],
    [1, 'exponential', 0.999999, 1099.9998],
    [10, 'exponential', 0.5, 30000],
  ] as const)('retry %i %s random=%f → %f ms', (attempt, backoff, random, expected) => {
    expect(retryDelayMs(attempt, backoff, 1000, 30000, () => random)).toBeCloseTo(expected, 3);
  });

  it.each([
    [408, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [404, false],
    [409, false],
  ])('status %i retryable: %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});
