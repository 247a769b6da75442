/**
 * Which job queues have a live consumer, read at most once per `ttlMs` however many requests ask
 * (`/finalizing`, GraphQL `finalizing`, metrics scrapes): with BullMQ every read is a `CLIENT LIST`, whose
 * cost grows with Redis's connections. Concurrent reads share one call; a failed read is not kept.
 */

import type { QueueConsumerCount } from './job-queue.port.js';

/** Default age of a kept answer, ms: a worker that just connected or left shows within this. */
export const QUEUE_CONSUMERS_TTL_MS = 3_000;

export class QueueConsumers {
  private kept?: { readonly at: number; readonly counts: readonly QueueConsumerCount[] };
  private pending?: Promise<readonly QueueConsumerCount[]>;

  /**
   * @param read the job queue's `queueConsumers` (bounded by the caller, e.g. `QueueReachability.bounded`)
   * @param ttlMs how long an answer is reused, ms
   * @param nowMs clock in ms (tests)
   */
  constructor(
    private readonly read: () => Promise<readonly QueueConsumerCount[]>,
    private readonly ttlMs = QUEUE_CONSUMERS_TTL_MS,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** The consumers per consumed queue now (as of at most `ttlMs` ago), sorted by queue. @throws what `read` throws. */
  async counts(): Promise<readonly QueueConsumerCount[]> {
    const kept = this.kept;
    if (kept && this.nowMs() - kept.at < this.ttlMs) return kept.counts;
    this.pending ??= this.read()
      .then((counts) => {
        this.kept = { at: this.nowMs(), counts };
        return counts;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** Sorted names of the queues consumed now. @throws what `read` throws. */
  async queues(): Promise<readonly string[]> {
    return (await this.counts()).map((c) => c.queue);
  }
}
