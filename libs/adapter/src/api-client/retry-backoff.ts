import type { RetryBackoff } from '../config/task-config.types.js';

/**
 * Delay before retry number `attempt` (1 = first retry): exponential `base·2^(n-1)`, linear
 * `base·n` or constant `base`, with ±10 % jitter, capped at `maxDelayMs` (HyperFleet §2.1).
 * @param random a [0,1) source; injected so tests are deterministic.
 * @returns milliseconds.
 */
export function retryDelayMs(
  attempt: number,
  backoff: RetryBackoff,
  baseDelayMs: number,
  maxDelayMs: number,
  random: () => number,
): number {
  const raw = backoff === 'exponential' ? baseDelayMs * 2 ** (attempt - 1) : backoff === 'linear' ? baseDelayMs * attempt : baseDelayMs;
  const jittered = raw * (0.9 + 0.2 * random());
  return Math.max(0, Math.min(jittered, maxDelayMs));
}

/** 408, 429 and 5xx are worth retrying; other statuses are answers. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
