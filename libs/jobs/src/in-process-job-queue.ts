/**
 * In-process `JobQueue` for the embedded profile: jobs live in memory, so a crash loses queued jobs;
 * nothing is lost overall because dispatch is driven by a checkpointed event subscription and the
 * recovery sweep re-dispatches every resource with pending work at start (docs/architecture.md).
 * Hand-rolled on purpose: BullMQ needs Redis, which the embedded profile must not require.
 */
import { InMemoryRetryBackoffStore, type RetryBackoffStore } from './retry-backoff.js';
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  TerminalError,
  backoffDelayMs,
  type DelayedJob,
  type FailedJob,
  type Job,
  type JobFence,
  type JobHandler,
  type JobOptions,
  type JobQueue,
  type QueueConsumerCount,
  type QueueCounts,
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

/**
 * Dead letters kept (oldest dropped), as the BullMQ queue's `removeOnFail.count`: a resource whose adapter
 * keeps failing adds one per failed trigger, and a long-running embedded engine must not grow for it.
 */
export const DEAD_LETTER_MEMORY = 10_000;

export class InProcessJobQueue implements JobQueue {
  /** Every job not yet started (delayed or due), by `<queue>/<id>`. */
  private readonly waiting = new Map<string, Entry>();
  /** The waiting jobs whose time has come, per queue, in order: pump() looks at these only. */
  private readonly due = new Map<string, Map<string, Entry>>();
  private readonly running = new Map<string, Entry>();
  private readonly activeByQueue = new Map<string, number>();
  private readonly completed = new Set<string>();
  private readonly dead = new Map<string, { failed: FailedJob; options: JobOptions }>();
  /** Jobs live in this process only: their data is lost exactly when this instance is. */
  private readonly instanceEpoch = randomUUID();
  private readonly handlers = new Map<string, { handler: JobHandler<unknown>; concurrency: number }>();
  private readonly busyGroups = new Set<string>();
  readonly retryBackoff: RetryBackoffStore = new InMemoryRetryBackoffStore();
  /**
   * Group → the sequence of its running run (one number per resource and adapter). Dropped when that run
   * ends: kept, it grew by one entry per resource ever run here (~300 B each, never freed).
   */
  private readonly fences = new Map<string, number>();
  /** The last sequence handed to any group, so a group's next run is above its previous one without its entry. */
  private lastSequence = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly random: () => number = Math.random,
    private readonly onError: (job: FailedJob) => void = () => undefined,
    /** Dead letters kept, oldest dropped (default DEAD_LETTER_MEMORY). */
    private readonly deadLetterLimit = DEAD_LETTER_MEMORY,
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

  async queueConsumers(): Promise<QueueConsumerCount[]> {
    return [...this.handlers.keys()].sort().map((queue) => ({ queue, consumers: 1 }));
  }

  process<T>(queue: string, handler: JobHandler<T>, options: { concurrency?: number } = {}): void {
    this.handlers.set(queue, { handler: handler as JobHandler<unknown>, concurrency: options.concurrency ?? 4 });
    this.pump();
  }

  async failed(queue?: string): Promise<FailedJob[]> {
    return [...this.dead.values()].map((d) => d.failed).filter((f) => queue === undefined || f.queue === queue);
  }

  async retry(queue: string, id: string): Promise<boolean> {
    const key = `${queue}/${id}`;
    const dead = this.dead.get(key);
    if (!dead) return false;
    this.dead.delete(key);
    const entry: Entry = { queue, id, data: dead.failed.data, options: dead.options, attempt: 1, runAt: this.clock() };
    this.waiting.set(key, entry);
    this.schedule(entry);
    return true;
  }

  async removeFailed(queue: string, id: string): Promise<boolean> {
    return this.dead.delete(`${queue}/${id}`);
  }

  async queueNames(): Promise<string[]> {
    const names = [
      ...this.handlers.keys(),
      ...[...this.waiting.values()].map((e) => e.queue),
      ...[...this.dead.values()].map((d) => d.failed.queue),
    ];
    return [...new Set(names)].sort();
  }

  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async depths(): Promise<QueueCounts[]> {
    const counts = new Map<string, { waiting: number; delayed: number; active: number; failed: number }>();
    const of = (queue: string) => counts.get(queue) ?? counts.set(queue, { waiting: 0, delayed: 0, active: 0, failed: 0 }).get(queue)!;
    for (const queue of this.handlers.keys()) of(queue);
    const now = this.clock();
    for (const entry of this.waiting.values()) of(entry.queue)[entry.runAt > now ? 'delayed' : 'waiting'] += 1;
    for (const entry of this.running.values()) of(entry.queue).active += 1;
    for (const { failed } of this.dead.values()) of(failed.queue).failed += 1;
    return [...counts].map(([queue, c]) => ({ queue, ...c }));
  }

  async promoteDelayed(queue: string, select: (job: DelayedJob) => boolean | Promise<boolean>): Promise<number> {
    let promoted = 0;
    for (const entry of [...this.waiting.values()]) {
      if (entry.queue !== queue || entry.runAt <= this.clock()) continue;
      if (!(await select({ queue, id: entry.id, data: entry.data }))) continue;
      // Re-checked after the selector's await: the job may have come due, started or been promoted meanwhile.
      const key = keyOf(entry);
      if (this.closed || this.waiting.get(key) !== entry || entry.runAt <= this.clock()) continue;
      entry.runAt = this.clock();
      this.schedule(entry);
      promoted += 1;
    }
    return promoted;
  }

  async epoch(): Promise<string> {
    return this.instanceEpoch;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.waiting.values()) if (entry.timer) clearTimeout(entry.timer);
    this.waiting.clear();
    this.due.clear();
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
      // Node timers may fire a millisecond before Date.now() reaches runAt: wait for the rest.
      if (entry.runAt > this.clock()) return this.schedule(entry);
      let queueDue = this.due.get(entry.queue);
      if (!queueDue) this.due.set(entry.queue, (queueDue = new Map()));
      queueDue.set(keyOf(entry), entry);
      this.pump();
    }, delay);
  }

  /** Starts every due job whose queue has a handler, free concurrency and a free group. */
  private pump(): void {
    if (this.closed) return;
    for (const [queue, queueDue] of this.due) {
      const registered = this.handlers.get(queue);
      if (!registered) continue;
      let active = this.activeByQueue.get(queue) ?? 0;
      // Stop at the first free slot filled: a backlog of thousands is not scanned on every completion.
      for (const [key, entry] of queueDue) {
        if (active >= registered.concurrency) break;
        if (entry.options.group && this.busyGroups.has(entry.options.group)) continue;
        queueDue.delete(key);
        this.waiting.delete(key);
        this.running.set(key, entry);
        this.activeByQueue.set(queue, ++active);
        if (entry.options.group) this.busyGroups.add(entry.options.group);
        void this.run(key, entry, registered.handler);
      }
    }
  }

  private async run(key: string, entry: Entry, handler: JobHandler<unknown>): Promise<void> {
    const group = entry.options.group;
    const job: Job<unknown> = {
      queue: entry.queue,
      id: entry.id,
      data: entry.data,
      attempt: entry.attempt,
      ...(group && { fence: this.takeFence(group) }),
    };
    let failure: unknown;
    try {
      await handler(job);
    } catch (error) {
      failure = error;
    }
    this.running.delete(key);
    this.activeByQueue.set(entry.queue, (this.activeByQueue.get(entry.queue) ?? 1) - 1);
    if (group) {
      this.busyGroups.delete(group);
      // The run is over: its fence stops being current (as a released BullMQ group lock), and the entry goes.
      if (this.fences.get(group) === job.fence?.sequence) this.fences.delete(group);
    }
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
        this.dead.set(key, { failed, options: entry.options });
        if (this.dead.size > this.deadLetterLimit) this.dead.delete(this.dead.keys().next().value!);
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

  /**
   * One process owns every group here, so a fence goes stale when a later run of its group started or
   * its own run ended; the sequence starts from the clock so it keeps growing across restarts, and from
   * the last one handed out so it grows within a millisecond too (job-queue.port.ts).
   */
  private takeFence(group: string): JobFence {
    const sequence = Math.max(this.lastSequence + 1, this.clock() * 1000);
    this.lastSequence = sequence;
    this.fences.set(group, sequence);
    return { sequence, isCurrent: async () => this.fences.get(group) === sequence };
  }

  private remember(key: string): void {
    this.completed.add(key);
    if (this.completed.size > COMPLETED_MEMORY) {
      const oldest = this.completed.values().next().value;
      if (oldest !== undefined) this.completed.delete(oldest);
    }
  }
}

function keyOf(entry: Pick<Entry, 'queue' | 'id'>): string {
  return `${entry.queue}/${entry.id}`;
}
