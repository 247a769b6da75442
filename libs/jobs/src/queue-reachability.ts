/**
 * Whether the job queue's Redis answers now, and calls to it bounded in time. With Redis down, ioredis
 * keeps every command waiting for a reconnect (BullMQ needs `maxRetriesPerRequest: null`), so an
 * unbounded read (dead letters, queue depths) would hang its HTTP request or scrape for the whole outage.
 * Through `bounded`, a call fails at once while the connection is known lost, and after `timeoutMs` when
 * it silently does not answer, with `QueueUnavailable` naming the reason and since when.
 */

/**
 * The job queue cannot be read now. `isTransient`: the API's error table answers 503 with `Retry-After`.
 * `since` is RFC 3339 UTC: when the queue was first seen unreachable in this outage.
 */
export class QueueUnavailable extends Error {
  override readonly name = 'QueueUnavailable';
  readonly isTransient = true;
  constructor(
    readonly reason: string,
    readonly since: string,
  ) {
    super(`the job queue is unreachable since ${since}: ${reason}`);
  }
}

/** `{status: 'available'}` or what is known about the outage (the shape `/finalizing` serves as `dead_letters`). */
export type QueueAvailability =
  { readonly status: 'available' } | { readonly status: 'unavailable'; readonly reason: string; readonly since: string };

/** Default bound of one call to the queue, in ms: well below a 1 s answer. */
export const QUEUE_CALL_TIMEOUT_MS = 500;

export class QueueReachability {
  private outage?: { reason: string; since: string };
  /** True between a connection loss and `back()`: calls fail fast. A timeout alone lets the next call try. */
  private isConnectionLost = false;

  /** @param now clock (tests); @param timeoutMs bound of one `bounded` call. */
  constructor(
    private readonly timeoutMs = QUEUE_CALL_TIMEOUT_MS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The connection was lost; the first loss (or timeout) of an outage sets `since`. */
  lost(reason: unknown): void {
    this.isConnectionLost = true;
    this.mark(reason);
  }

  private mark(reason: unknown): void {
    const text = reason instanceof Error ? reason.message.split('\n')[0]! : String(reason);
    this.outage = { reason: text || 'connection lost', since: this.outage?.since ?? this.now().toISOString() };
  }

  /** The connection is ready again. */
  back(): void {
    this.isConnectionLost = false;
    this.outage = undefined;
  }

  availability(): QueueAvailability {
    return this.outage ? { status: 'unavailable', ...this.outage } : { status: 'available' };
  }

  /**
   * Runs `call`, or fails fast while the queue is known unreachable.
   * @throws QueueUnavailable while lost, or when `call` does not settle within `timeoutMs` (that marks the queue
   * unavailable until the next successful call or `back()`). Other errors of `call` pass through.
   */
  async bounded<T>(call: () => Promise<T>): Promise<T> {
    if (this.isConnectionLost && this.outage) throw new QueueUnavailable(this.outage.reason, this.outage.since);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = Symbol('timedOut');
    try {
      const result = await Promise.race([
        call(),
        new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), this.timeoutMs))),
      ]);
      if (result === timedOut) {
        this.mark(`no answer within ${this.timeoutMs} ms`);
        throw new QueueUnavailable(this.outage!.reason, this.outage!.since);
      }
      if (!this.isConnectionLost) this.outage = undefined;
      return result;
    } finally {
      clearTimeout(timer);
    }
  }
}
