/**
 * BullMQ's built-in `exponential` backoff has no jitter, so retries of jobs that failed together (an API
 * outage) would come back together. This custom strategy uses the port's `backoffDelayMs` instead:
 * base · 2^(attempt−1), ±20 % jitter, capped at 60 s; the same curve as the in-process queue.
 */
import type { BackoffStrategy } from 'bullmq';
import { DEFAULT_BACKOFF_MS, backoffDelayMs } from '../job-queue.port.js';

/** The `backoff.type` our jobs carry; BullMQ calls the worker's strategy for it. */
export const JITTERED_BACKOFF = 'decom-jittered-exponential';

/** @param random a [0,1) source (injected so tests can pin it). */
export function jitteredBackoffStrategy(random: () => number): BackoffStrategy {
  return (attemptsMade, type, _error, job) => {
    if (type !== JITTERED_BACKOFF) return 0;
    const base =
      job?.opts.backoff && typeof job.opts.backoff === 'object' ? (job.opts.backoff.delay ?? DEFAULT_BACKOFF_MS) : DEFAULT_BACKOFF_MS;
    return backoffDelayMs(attemptsMade, base, random());
  };
}
