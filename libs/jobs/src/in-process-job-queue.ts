/**
 * In-process `JobQueue` for the embedded profile: jobs live in memory, so a crash loses queued jobs;
 * nothing is lost overall because dispatch is driven by a checkpointed event subscription and the
 * recovery sweep re-dispatches every resource with pending work at start (docs/architecture.md).
 * Hand-rolled on purpose: BullMQ needs Redis, which the embedded profile must not require.
 */
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  TerminalError,
  backoffDelayMs,
  type FailedJob,
  type Job,
  type JobHandler,
  type JobOptions,
  type JobQueue,
} from './job-queue.port.js';

interface Entry {
  readonly queue: string;
  readonly id: string;
  readonly data: unknown;
  readonly options: JobOptions;
  attempt: number;
  runAt: number;
  timer?: NodeJS.Timeout;
}

/** How many completed ids are remembered for deduplication. */
const COMPLETED_MEMORY = 50_000;

export class InProcessJobQueue implements JobQueue {
  private readonly waiting = new Map<string, Entry>();
  private readonly running = new Map<string, Entry>();
  private readonly completed = new Set<string>();
  private readonly dead = new Map<string, FailedJob>();
  private readonly handlers = new Map<string, { handler: JobHandler<unknown>; concurrency: number }>();
  private readonly busyGroups = new Set<string>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly random: () => number = Math.random,
    private readonly onError: (job: FailedJob) => void = () => undefined,
  ) {}

  async enqueue<T>(queue: string, id: string, data: T, options: JobOptions = {}): Promise<boolean> {
    if (this.closed) return false;
    const key = `${queue}/${id}`;
    if (this.waiting.has(key) || this.running.has(key) || this.completed.has(key) || this.dead.has(key)) return false;
    const entry: Entry = { queue, id, data, options, attempt: 1, runAt: this.clock() + (options.delayMs ?? 0) };
    this.waiting.set(key, entry);
    this.schedule(entry);
    return true;
  }

  process<T>(queue: string, handler: JobHandler<T>, options: { concurrency?: number } = {}): void {
    this.handlers.set(queue, { handler: handler as JobHandler<unknown>, concurrency: options.concurrency ?? 4 });
    this.pump();
  }

  async failed(queue?: string): Promise<FailedJob[]> {
    return [...this.dead.values()].filter((f) => queue === undefined || f.queue === queue);
  }

  async retry(queue: string, id: string): Promise<boolean> {
    const key = `${queue}/${id}`;
    const failed = this.dead.get(key);
    if (!failed) return false;
    this.dead.delete(key);
    const entry: Entry = { queue, id, data: failed.data, options: {}, attempt: 1, runAt: this.clock() };
    this.waiting.set(key, entry);
    this.schedule(entry);
    return true;
  }

  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.waiting.values()) if (entry.timer) clearTimeout(entry.timer);
    this.waiting.clear();
    while (this.running.size > 0) await new Promise((r) => setTimeout(r, 10));
    this.notifyIdle();
  }

  private isIdle(): boolean {
    return this.waiting.size === 0 && this.running.size === 0;
  }

  private notifyIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }

  private schedule(entry: Entry): void {
    const delay = Math.max(0, entry.runAt - this.clock());
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      delete entry.timer;
      this.pump();
    }, delay);
  }

  /** Starts every due job whose queue has a handler, free concurrency and a free group. */
  private pump(): void {
    if (this.closed) return;
    const now = this.clock();
    for (const [key, entry] of this.waiting) {
      const registered = this.handlers.get(entry.queue);
      if (!registered || entry.runAt > now || entry.timer) continue;
      const active = [...this.running.values()].filter((r) => r.queue === entry.queue).length;
      if (active >= registered.concurrency) continue;
      if (entry.options.group && this.busyGroups.has(entry.options.group)) continue;
      this.waiting.delete(key);
      this.running.set(key, entry);
      if (entry.options.group) this.busyGroups.add(entry.options.group);
      void this.run(key, entry, registered.handler);
    }
  }

  private async run(key: string, entry: Entry, handler: JobHandler<unknown>): Promise<void> {
    const job: Job<unknown> = { queue: entry.queue, id: entry.id, data: entry.data, attempt: entry.attempt };
    let failure: unknown;
    try {
      await handler(job);
    } catch (error) {
      failure = error;
    }
    this.running.delete(key);
    if (entry.options.group) this.busyGroups.delete(entry.options.group);
    if (failure === undefined) {
      this.remember(key);
    } else {
      const attempts = entry.options.attempts ?? DEFAULT_ATTEMPTS;
      if (failure instanceof TerminalError || entry.attempt >= attempts || this.closed) {
        const failed: FailedJob = {
          queue: entry.queue,
          id: entry.id,
          data: entry.data,
          attempts: entry.attempt,
          error: failure instanceof Error ? failure.message : String(failure),
          failed_time: new Date(this.clock()).toISOString(),
        };
        this.dead.set(key, failed);
        this.onError(failed);
      } else {
        entry.attempt += 1;
        entry.runAt = this.clock() + backoffDelayMs(entry.attempt - 1, entry.options.backoffMs ?? DEFAULT_BACKOFF_MS, this.random());
        this.waiting.set(key, entry);
        this.schedule(entry);
      }
    }
    this.pump();
    this.notifyIdle();
  }

  private remember(key: string): void {
    this.completed.add(key);
    if (this.completed.size > COMPLETED_MEMORY) {
      const oldest = this.completed.values().next().value;
      if (oldest !== undefined) this.completed.delete(oldest);
    }
  }
}
