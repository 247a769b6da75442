/**
 * Which job queues have a live consumer, read at most once per `ttlMs` however many requests ask
 * (`/finalizing`, GraphQL `finalizing`, metrics scrapes): with BullMQ every read is a `CLIENT LIST`, whose
 * cost grows with Redis's connections. Concurrent reads share one call; a failed read is not kept.
 */

/** Default age of a kept answer, ms: a worker that just connected or left shows within this. */
export const QUEUE_CONSUMERS_TTL_MS = 3_000;

export class QueueConsumers {
  private kept?: { readonly at: number; readonly queues: readonly string[] };
  private pending?: Promise<readonly string[]>;

  /**
   * @param read the job queue's `consumedQueues` (bounded by the caller, e.g. `QueueReachability.bounded`)
   * @param ttlMs how long an answer is reused, ms
   * @param nowMs clock in ms (tests)
   */
  constructor(
    private readonly read: () => Promise<readonly string[]>,
    private readonly ttlMs = QUEUE_CONSUMERS_TTL_MS,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Sorted names of the queues consumed now (as of at most `ttlMs` ago). @throws what `read` throws. */
  async queues(): Promise<readonly string[]> {
    const kept = this.kept;
    if (kept && this.nowMs() - kept.at < this.ttlMs) return kept.queues;
    this.pending ??= this.read()
      .then((queues) => {
        this.kept = { at: this.nowMs(), queues };
        return queues;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}
