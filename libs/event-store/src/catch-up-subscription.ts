import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { RecordedEvent, SubscribeOptions, Subscription } from './event-store.port.js';

/** What a backend gives a catch-up subscription: reads of `$all` and a "something was appended" signal. */
export interface CatchUpSource {
  /** Events with position > `afterPosition`, ascending, at most `maxCount`. */
  readAfter(afterPosition: number, maxCount: number): Promise<RecordedEvent[]>;
  /**
   * Calls `onAppended` after appends commit (best effort: polling covers missed signals).
   * Resolves, once the signal is armed, to a function that disarms it.
   */
  watch(onAppended: () => void): Promise<() => void>;
}

export interface CatchUpTuning {
  /** How often to re-read when no signal arrives (another process may write), in ms. */
  readonly pollIntervalMs: number;
  /** Events read per query. */
  readonly batchSize: number;
}

/**
 * A subscription to `$all` shared by the backends: reads the backlog in batches, then waits for an append
 * signal or the poll interval and reads again. Events reach the handler one at a time, in position order,
 * each once. A handler or read error stops it and goes to `onError`; without `onError` it is rethrown as
 * an unhandled rejection, so it is never lost silently.
 * Do not `await close()` from inside the handler: close waits for the handler to return.
 */
export class CatchUpSubscription implements Subscription {
  private isClosed = false;
  private isSignalled = false;
  private wakeUp: (() => void) | undefined;
  private readonly finished: Promise<void>;

  constructor(
    private readonly source: CatchUpSource,
    private readonly handler: (event: RecordedEvent) => Promise<void>,
    private readonly options: SubscribeOptions,
    private readonly tuning: CatchUpTuning,
    onFinished: (subscription: CatchUpSubscription) => void,
  ) {
    this.finished = this.run().finally(() => onFinished(this));
  }

  async close(): Promise<void> {
    this.isClosed = true;
    this.wakeUp?.();
    await this.finished;
  }

  private async run(): Promise<void> {
    let unwatch: (() => void) | undefined;
    try {
      // Armed before the first read, so an append committed after that read always wakes us.
      unwatch = await this.source.watch(() => this.signal());
      let afterPosition = this.options.afterPosition;
      while (!this.isClosed) {
        this.isSignalled = false;
        const batch = await this.source.readAfter(afterPosition, this.tuning.batchSize);
        for (const event of batch) {
          if (this.isClosed) return;
          await this.handler(event);
          afterPosition = event.position;
        }
        if (batch.length < this.tuning.batchSize) await this.waitForSignal();
        // A long backlog on a synchronous backend (SQLite) would otherwise never let I/O run.
        else await yieldToEventLoop();
      }
    } catch (error) {
      this.isClosed = true;
      if (this.options.onError) this.options.onError(error);
      else void Promise.reject(error);
    } finally {
      unwatch?.();
    }
  }

  private signal(): void {
    this.isSignalled = true;
    this.wakeUp?.();
  }

  private waitForSignal(): Promise<void> {
    if (this.isSignalled || this.isClosed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.tuning.pollIntervalMs);
      this.wakeUp = done;
    });
  }
}
