import type { RetryBackoffStore } from './retry-backoff.js';

/**
 * The job-queue port. Shaped after BullMQ (deterministic job ids dedupe, attempts with exponential
 * backoff, delayed jobs, a failed set an operator can list and retry) so the BullMQ backend drops in
 * behind the same interface; the in-process implementation serves the embedded profile.
 */

export interface JobOptions {
  /** Run no earlier than this many milliseconds from now. */
  readonly delayMs?: number;
  /** Total tries for retryable failures (default 5). */
  readonly attempts?: number;
  /** Base of the exponential backoff between tries, in ms (default 500; jittered ±20%, capped at 60 s). */
  readonly backoffMs?: number;
  /** Jobs sharing a group never run concurrently (e.g. one adapter on one resource). */
  readonly group?: string;
}

export interface Job<T> {
  readonly queue: string;
  /** Deterministic id: a second enqueue with the same id is ignored (no `:` — BullMQ rejects it). */
  readonly id: string;
  readonly data: T;
  /** 1-based try number. */
  readonly attempt: number;
  /** The run's fence, for a job of a group (job-fence.ts); absent without a group. */
  readonly fence?: JobFence;
}

/**
 * Proof that a run still owns its group: `sequence` grows with every run that
 * takes the group (a newer run always carries a larger number, also across restarts and a Redis
 * flush), `isCurrent()` answers whether no other run has taken the group since this one did.
 */
export interface JobFence {
  /** Monotonic per group: `max(previous + 1, clock in µs since the epoch)` when the group was taken (< 2^53). */
  readonly sequence: number;
  /** @returns false once another run took the group or this run's lock lapsed (e.g. a frozen process). */
  isCurrent(): Promise<boolean>;
}

export interface FailedJob {
  readonly queue: string;
  readonly id: string;
  readonly data: unknown;
  readonly attempts: number;
  readonly error: string;
  /** RFC 3339. */
  readonly failed_time: string;
}

/** Jobs per state in one queue at one moment (metrics). */
export interface QueueCounts {
  readonly queue: string;
  /** Due and not started. */
  readonly waiting: number;
  /** Scheduled for later (backoff, re-runs). */
  readonly delayed: number;
  readonly active: number;
  /** The dead-letter set. */
  readonly failed: number;
}

/** How many consumers (BullMQ worker connections) one queue has at one moment. */
export interface QueueConsumerCount {
  readonly queue: string;
  /** At least 1. */
  readonly consumers: number;
}

/** A job scheduled for later (a retry's backoff, a deferred trigger, a re-run), as `promoteDelayed` shows it. */
export interface DelayedJob {
  readonly queue: string;
  readonly id: string;
  readonly data: unknown;
}

export type JobHandler<T> = (job: Job<T>) => Promise<void>;

export interface JobQueue {
  /** Enqueues unless a job with this id is waiting, running or recently completed. Returns false when deduplicated. */
  enqueue<T>(queue: string, id: string, data: T, options?: JobOptions): Promise<boolean>;
  /** Registers the handler of a queue. */
  process<T>(queue: string, handler: JobHandler<T>, options?: { concurrency?: number }): void;
  /** Jobs that exhausted their attempts or failed terminally (the dead-letter set). */
  failed(queue?: string): Promise<FailedJob[]>;
  /** Moves a failed job back to waiting with fresh attempts. Returns false when no such failed job exists. */
  retry(queue: string, id: string): Promise<boolean>;
  /**
   * Drops a job from the dead-letter set for good, without running it (its work was done otherwise, e.g.
   * by a sweep: dead-letter-pruner.ts). Returns false when no such failed job exists (never failed,
   * already retried or dropped); a waiting, delayed or running job of that id is left alone.
   */
  removeFailed(queue: string, id: string): Promise<boolean>;
  /** Names of the queues this store knows (ever used, under the prefix for BullMQ), sorted. */
  queueNames(): Promise<string[]>;
  /** Resolves when nothing is waiting, delayed or running (tests, demo, graceful stop). */
  idle(): Promise<void>;
  /**
   * Names the queue's stored data: changes when that data was lost (Redis flushed, or restarted without
   * persistence), so the sweeper knows to re-dispatch every resource with pending work at once.
   */
  epoch(): Promise<string>;
  /**
   * Makes the delayed jobs of `queue` that `select` picks due now (e.g. every run backing off because a
   * dependency was unreachable, once it answers again: backoff-recovery.ts); they then wait for a free slot
   * of the queue's concurrency like any due job, and keep their attempt count. A job no longer delayed when
   * its turn comes (already promoted, by this or another process, or started) is skipped: a job is never
   * duplicated. Optional so test doubles need not implement it.
   * @returns how many jobs this call made due.
   */
  promoteDelayed?(queue: string, select: (job: DelayedJob) => boolean | Promise<boolean>): Promise<number>;
  /**
   * The queues that have a live consumer now, sorted by name, each with how many: for BullMQ the connected
   * worker clients of this prefix per queue, in any process (one `CLIENT LIST`, matched as
   * `Queue.getWorkers()` does); for the in-process queue 1 per queue with a registered handler. A queue
   * without a consumer is absent. Optional so test doubles need not implement it.
   */
  queueConsumers?(): Promise<QueueConsumerCount[]>;
  /** Counts per queue this process knows (metrics; optional so test doubles need not implement it). */
  depths?(): Promise<QueueCounts[]>;
  close(): Promise<void>;
  /** Persistent per-resource-and-adapter retry backoff beside the queue's data (retry-backoff.ts). */
  readonly retryBackoff?: RetryBackoffStore;
}

/** A failure worth retrying (network, 5xx, 429, conflicts). The default for unknown errors. */
export class RetryableError extends Error {
  override readonly name = 'RetryableError';
}

/** A failure that retrying cannot fix (bad config, 4xx other than 404/409/429): fail the job now. */
export class TerminalError extends Error {
  override readonly name = 'TerminalError';
}

export const DEFAULT_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 500;
export const MAX_BACKOFF_MS = 60_000;

/** Exponential backoff with ±20% jitter: base · 2^(attempt−1), capped. `random` in [0,1). */
export function backoffDelayMs(attempt: number, baseMs: number, random: number): number {
  const raw = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + 0.4 * random));
}
