/**
 * Runs the server's controllers (garbage collector, namespace controller) asynchronously after
 * changes, as kube-controller-manager does beside the API server: a store change schedules a pass
 * after a delay (one timer tick at 0; a fresh draw of a jittered range each time, as informer
 * resyncs and work-queue latency make real controllers' timing vary), and a pass that changed
 * something schedules the next. So a DELETE's response always shows the state before the controllers act.
 */
import type { ObjectStore } from './object-store.js';

export interface Controller {
  /** One pass over the work queued since the last. */
  runOnce(): void;
  /** Queues everything again (the next pass looks at the whole store). */
  resync(): void;
}

/** A fixed delay in ms, or a range `{ min, max }` each pass draws its delay from (uniformly). */
export type ControllerDelay = number | { readonly min: number; readonly max: number };

/**
 * A function drawing delays from a `ControllerDelay`.
 * @throws RangeError for a negative delay or a range with `max < min`.
 */
export function delayDrawer(delay: ControllerDelay, random: () => number = Math.random): () => number {
  if (typeof delay === 'number') {
    if (!(delay >= 0)) throw new RangeError(`controllerDelayMs must be ≥ 0, got ${delay}`);
    return () => delay;
  }
  const { min, max } = delay;
  if (!(min >= 0) || !(max >= min)) throw new RangeError(`controllerDelayMs needs 0 ≤ min ≤ max, got ${JSON.stringify(delay)}`);
  return () => min + Math.floor(random() * (max - min + 1));
}

export class ControllerLoop {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private paused = false;
  private waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private failure: unknown;

  constructor(
    private readonly store: ObjectStore,
    private readonly controllers: readonly Controller[],
    private readonly nextDelayMs: () => number,
  ) {
    store.onChange(() => this.kick());
  }

  /** Schedules a pass unless one is pending or running (a running pass reschedules itself if it changed anything). */
  kick(): void {
    if (this.timer || this.running || this.stopped || this.paused) return;
    this.timer = setTimeout(() => this.run(), this.nextDelayMs());
  }

  /** Resolves once no pass is pending (immediately while paused). @throws the error a controller threw, if any. */
  settle(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.timer && !this.running) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Stops passes until `resume()`, so tests can look at intermediate states. */
  pause(): void {
    this.paused = true;
    this.clearTimer();
    this.release();
  }

  resume(): void {
    this.paused = false;
    this.kick();
  }

  /** Has every controller look at the whole store in the next pass. */
  resync(): void {
    for (const controller of this.controllers) controller.resync();
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
    this.release();
  }

  private run(): void {
    this.timer = undefined;
    this.running = true;
    const before = this.store.resourceVersion;
    try {
      for (const controller of this.controllers) controller.runOnce();
    } catch (error) {
      // A controller bug must not crash the host process; settle() reports it to the test.
      this.failure = error;
    } finally {
      this.running = false;
    }
    if (this.store.resourceVersion !== before && !this.failure) this.kick();
    if (!this.timer) this.release();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) {
      if (this.failure) waiter.reject(this.failure);
      else waiter.resolve();
    }
  }
}
