/**
 * `JobQueue` on BullMQ and Redis (distributed profile; chosen when `REDIS_URL` is set). One BullMQ queue
 * per port queue (`adapter-run.<adapter>`, `hard-delete`), keys under `<prefix>:`.
 *
 * - Dedupe: the job id is the BullMQ job id, so an id that is waiting, active, delayed, failed or
 *   completed within `completedRetentionSeconds` (default 1 h, at most the last 100 000) is not added
 *   again. Older completed jobs are evicted; a fact replayed after that re-runs an idempotent adapter,
 *   which is harmless.
 * - Retries: `attempts` with a jittered exponential backoff (jittered-backoff.ts). `TerminalError`
 *   becomes BullMQ's `UnrecoverableError`: failed at once, no retry.
 * - Dead letter: BullMQ's failed set, kept `failedRetentionSeconds` (default 7 days, at most 10 000); `failed()` lists
 *   it over every queue ever used under the prefix, `retry()` moves a job back with fresh attempts.
 * - Groups: a Redis lock per group (group-lock.ts); a job whose group is busy goes back to delayed for
 *   a short jittered pause without using an attempt.
 * - Crashes: BullMQ's stalled-job check moves the job of a dead worker back to wait once its lock
 *   (`lockDurationMs`) expired; the group lock expires after the same time.
 * - Data loss: `epoch()` reads a marker key that a FLUSHALL or a restart without persistence removes.
 */
import { randomUUID } from 'node:crypto';
import { DelayedError, Job as BullJob, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  TerminalError,
  type DelayedJob,
  type FailedJob,
  type JobHandler,
  type JobOptions,
  type JobQueue,
  type QueueConsumerCount,
  type QueueCounts,
} from '../job-queue.port.js';
import { GroupLocks } from './group-lock.js';
import { RedisRetryBackoffStore } from './redis-retry-backoff.js';
import { JITTERED_BACKOFF, jitteredBackoffStrategy } from './jittered-backoff.js';

export interface BullMqJobQueueOptions {
  /** `redis://host:port[/db]`. */
  readonly url: string;
  /** Key prefix of every queue and lock (default `decom`); tests use a fresh one each. */
  readonly prefix?: string;
  /** BullMQ job lock and group-lock TTL, in ms (default 30 000): a killed worker's job is retried after it. */
  readonly lockDurationMs?: number;
  /** How often workers look for stalled jobs, in ms (default half the lock duration). */
  readonly stalledIntervalMs?: number;
  /** How many times a job may be recovered from a dead worker before it fails (default 3). */
  readonly maxStalledCount?: number;
  /** Pause before a job whose group is busy tries again, in ms (default 100, jittered ×0.5–1.5). */
  readonly groupRetryDelayMs?: number;
  readonly completedRetentionSeconds?: number;
  readonly failedRetentionSeconds?: number;
  /** [0,1) source for jitter. */
  readonly random?: () => number;
  /** A job failed for good (exhausted or terminal): it is in the dead-letter set now. */
  readonly onDeadLetter?: (job: FailedJob) => void;
  /** Connection and worker errors (Redis down, lost locks); the queue keeps running. */
  readonly onError?: (error: unknown) => void;
  /** The Redis connection was lost (first error after being ready) or is back (ready again after a loss). */
  readonly onConnectionChange?: (state: 'lost' | 'back', error?: unknown) => void;
}

/** How long a timed-out `close()` waits for each worker's and queue's own disconnect, ms. */
const DISCONNECT_WAIT_MS = 500;

/** `promise`, or undefined once `ms` passed (the timer does not keep the process alive). */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long `close()` waits for workers and connections while Redis may be unreachable, ms. */
const CLOSE_TIMEOUT_MS = 3_000;
/** Delayed jobs read per call while looking for the ones to promote. */
const PROMOTE_PAGE = 500;

interface GroupedData {
  readonly data: unknown;
  readonly group?: string;
}

export class BullMqJobQueue implements JobQueue {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly locks: GroupLocks;
  readonly retryBackoff: RedisRetryBackoffStore;
  private readonly random: () => number;
  private readonly lockDurationMs: number;
  private closed = false;

  constructor(private readonly options: BullMqJobQueueOptions) {
    this.prefix = options.prefix ?? 'decom';
    this.random = options.random ?? Math.random;
    this.lockDurationMs = options.lockDurationMs ?? 30_000;
    // BullMQ requires maxRetriesPerRequest null: its blocking commands must wait out a reconnect.
    this.redis = new Redis(options.url, { maxRetriesPerRequest: null, enableReadyCheck: true });
    let isLost = false;
    this.redis.on('error', (error) => {
      if (!isLost) {
        isLost = true;
        this.options.onConnectionChange?.('lost', error);
      }
      this.options.onError?.(error);
    });
    this.redis.on('ready', () => {
      if (!isLost) return;
      isLost = false;
      this.options.onConnectionChange?.('back');
    });
    this.retryBackoff = new RedisRetryBackoffStore(this.redis, this.prefix);
    this.locks = new GroupLocks(this.redis, this.prefix, this.lockDurationMs, (error) => this.options.onError?.(error));
  }

  async enqueue<T>(queue: string, id: string, data: T, options: JobOptions = {}): Promise<boolean> {
    if (this.closed) return false;
    const bull = await this.queue(queue);
    // BullMQ's add() answers the same way for a new and a duplicate id; this check is only for the
    // return value (a race between two enqueuers can report true twice, BullMQ still adds once).
    if ((await this.redis.exists(bull.toKey(id))) === 1) return false;
    const payload: GroupedData = { data, ...(options.group ? { group: options.group } : {}) };
    await bull.add(options.group ?? queue, payload, {
      jobId: id,
      ...(options.delayMs ? { delay: options.delayMs } : {}),
      attempts: options.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: JITTERED_BACKOFF, delay: options.backoffMs ?? DEFAULT_BACKOFF_MS },
      // Count caps bound Redis memory under bulk load; an evicted id only means a harmless re-run.
      removeOnComplete: { age: this.options.completedRetentionSeconds ?? 3_600, count: 100_000 },
      removeOnFail: { age: this.options.failedRetentionSeconds ?? 7 * 24 * 3_600, count: 10_000 },
    });
    return true;
  }

  process<T>(queue: string, handler: JobHandler<T>, options: { concurrency?: number } = {}): void {
    // Also makes idle() watch this queue.
    this.queue(queue).catch((error) => this.options.onError?.(error));
    const worker = new Worker<GroupedData>(queue, (job, token) => this.run(queue, job, token, handler as JobHandler<unknown>), {
      connection: this.redis,
      prefix: this.prefix,
      concurrency: options.concurrency ?? 4,
      lockDuration: this.lockDurationMs,
      stalledInterval: this.options.stalledIntervalMs ?? Math.max(500, Math.floor(this.lockDurationMs / 2)),
      maxStalledCount: this.options.maxStalledCount ?? 3,
      settings: { backoffStrategy: jitteredBackoffStrategy(this.random) },
    });
    worker.on('failed', (job, error) => {
      if (!job || !this.isDeadLetter(job, error)) return;
      this.options.onDeadLetter?.(this.toFailed(queue, job));
    });
    worker.on('error', (error) => this.options.onError?.(error));
    this.workers.push(worker);
  }

  async failed(queue?: string): Promise<FailedJob[]> {
    const names =
      queue !== undefined ? [queue] : [...new Set([...(await this.redis.smembers(this.registryKey())), ...this.queues.keys()])].sort();
    const out: FailedJob[] = [];
    for (const name of names) {
      const bull = await this.queue(name);
      for (const job of await bull.getFailed(0, -1)) if (job) out.push(this.toFailed(name, job));
    }
    return out;
  }

  async retry(queue: string, id: string): Promise<boolean> {
    // Opening an unknown queue would register it: a typo must not add a queue name.
    if (!(await this.queueNames()).includes(queue)) return false;
    const job = await BullJob.fromId(await this.queue(queue), id);
    if (!job || (await job.getState()) !== 'failed') return false;
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  async removeFailed(queue: string, id: string): Promise<boolean> {
    if (!(await this.queueNames()).includes(queue)) return false;
    const job = await BullJob.fromId(await this.queue(queue), id);
    if (!job || (await job.getState()) !== 'failed') return false;
    // An operator's retry between the state read and the removal would be removed too: harmless, since
    // a dead letter is only removed once its work is done (a retried run would do nothing).
    await job.remove();
    return true;
  }

  async queueNames(): Promise<string[]> {
    return [...new Set([...(await this.redis.smembers(this.registryKey())), ...this.queues.keys()])].sort();
  }

  /**
   * One `CLIENT LIST`: a BullMQ worker names its blocking connection `<prefix>:<base64 queue>` (or with
   * `:w:<worker name>` after it), which is what `Queue.getWorkers()` matches per queue; reading the list once
   * answers for every queue. Queue-events clients (`:qe`) and other prefixes do not count.
   */
  async queueConsumers(): Promise<QueueConsumerCount[]> {
    const list = String(await this.redis.client('LIST'));
    const head = `${this.prefix}:`;
    const out = new Map<string, number>();
    for (const match of list.matchAll(/(?:^| )name=(\S*)/gm)) {
      const name = match[1]!;
      if (!name.startsWith(head)) continue;
      const rest = name.slice(head.length);
      const colon = rest.indexOf(':');
      if (colon !== -1 && !rest.startsWith(':w:', colon)) continue;
      const queue = Buffer.from(colon === -1 ? rest : rest.slice(0, colon), 'base64').toString();
      out.set(queue, (out.get(queue) ?? 0) + 1);
    }
    return [...out].sort(([a], [b]) => a.localeCompare(b)).map(([queue, consumers]) => ({ queue, consumers }));
  }

  async idle(): Promise<void> {
    for (;;) {
      let pending = 0;
      for (const bull of this.queues.values()) {
        const counts = await bull.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
        pending += Object.values(counts).reduce((sum, n) => sum + n, 0);
      }
      if (pending === 0 || this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async depths(): Promise<QueueCounts[]> {
    const out: QueueCounts[] = [];
    for (const [queue, bull] of [...this.queues].sort(([a], [b]) => a.localeCompare(b))) {
      const c = await bull.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed');
      out.push({
        queue,
        waiting: (c['waiting'] ?? 0) + (c['prioritized'] ?? 0),
        delayed: c['delayed'] ?? 0,
        active: c['active'] ?? 0,
        failed: c['failed'] ?? 0,
      });
    }
    return out;
  }

  /**
   * Reads the delayed set in pages, asks `select` about each job, then promotes the chosen ones one by one:
   * BullMQ's promote removes the id from the delayed set atomically, so of several processes promoting the
   * same job (every worker sees the same recovery) one moves it and the others get "not delayed" (skipped).
   * Jobs stepping aside for a busy group are delayed too: promoted, they step aside again (no attempt used).
   */
  async promoteDelayed(queue: string, select: (job: DelayedJob) => boolean | Promise<boolean>): Promise<number> {
    if (this.closed || !(await this.queueNames()).includes(queue)) return 0;
    const bull = await this.queue(queue);
    const chosen: BullJob[] = [];
    for (let start = 0; ; start += PROMOTE_PAGE) {
      const page = await bull.getDelayed(start, start + PROMOTE_PAGE - 1);
      for (const job of page) {
        if (job?.id && (await select({ queue, id: job.id, data: (job.data as GroupedData | undefined)?.data }))) chosen.push(job);
      }
      if (page.length < PROMOTE_PAGE) break;
    }
    let promoted = 0;
    for (const job of chosen) {
      try {
        await job.promote();
        promoted += 1;
      } catch {
        // No longer delayed: promoted by another process, started, or removed. Nothing to do.
      }
    }
    return promoted;
  }

  async epoch(): Promise<string> {
    const key = `${this.prefix}:decom:epoch`;
    await this.redis.set(key, randomUUID(), 'NX');
    return (await this.redis.get(key)) ?? 'unknown';
  }

  /**
   * Closes workers, queues and the connection. While Redis is unreachable a graceful close would wait for
   * it forever (commands queue until a reconnect), so after CLOSE_TIMEOUT_MS the connection is dropped.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // With Redis unreachable, a worker's graceful close waits for its blocking connection forever, and its lock
    // extender timer keeps re-arming (the process never exits): close without waiting for running jobs, whose
    // locks expire on the server and whose runs are fenced.
    const force = this.redis.status !== 'ready';
    const graceful = async () => {
      await Promise.all(this.workers.map((w) => w.close(force)));
      await Promise.all([...this.queues.values()].map((q) => q.close()));
      if (this.redis.status === 'ready') await this.redis.quit();
    };
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([graceful().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)))]);
    clearTimeout(timer);
    // A close that ran out of time leaves the workers' blocking connections and the queues' own connections
    // reconnecting (they keep the process alive): drop each of them, not only the shared one.
    // BullMQ's disconnect first awaits the connection's initialisation, which never settles while Redis is
    // unreachable: bounded, not awaited beyond DISCONNECT_WAIT_MS.
    await Promise.all(
      [...this.workers, ...this.queues.values()].map((c) =>
        withinMs(
          c.disconnect().catch(() => undefined),
          DISCONNECT_WAIT_MS,
        ),
      ),
    );
    this.redis.disconnect();
  }

  /** Runs one job: takes its group (or steps aside), maps the port's errors to BullMQ's. */
  private async run(queue: string, job: BullJob<GroupedData>, token: string | undefined, handler: JobHandler<unknown>): Promise<void> {
    const { data, group } = job.data;
    const lock = group ? await this.locks.acquire(group) : undefined;
    if (group && !lock) {
      // Another run of this group is in progress (here or in another process): try again shortly.
      const pause = Math.round((this.options.groupRetryDelayMs ?? 100) * (0.5 + this.random()));
      await job.moveToDelayed(Date.now() + pause, token);
      throw new DelayedError();
    }
    try {
      await handler({
        queue,
        id: job.id ?? '',
        data,
        attempt: job.attemptsMade + 1,
        ...(lock && { fence: { sequence: lock.sequence, isCurrent: () => lock.isCurrent() } }),
      });
    } catch (error) {
      if (error instanceof TerminalError) throw new UnrecoverableError(error.message);
      throw error;
    } finally {
      await lock?.release().catch((error) => this.options.onError?.(error));
    }
  }

  private isDeadLetter(job: BullJob, error: Error): boolean {
    return error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
  }

  private toFailed(queue: string, job: BullJob): FailedJob {
    const stored = job.data as GroupedData | undefined;
    return {
      queue,
      id: job.id ?? '',
      data: stored?.data,
      attempts: job.attemptsMade,
      error: job.failedReason ?? '',
      failed_time: new Date(job.finishedOn ?? job.timestamp).toISOString(),
    };
  }

  private async queue(name: string): Promise<Queue> {
    let bull = this.queues.get(name);
    if (!bull) {
      bull = new Queue(name, { connection: this.redis, prefix: this.prefix });
      bull.on('error', (error) => this.options.onError?.(error));
      this.queues.set(name, bull);
      await this.register(name);
    }
    return bull;
  }

  /** Remembers the queue name under the prefix, so `decom jobs failed` finds every dead letter. */
  private async register(name: string): Promise<void> {
    await this.redis.sadd(this.registryKey(), name);
  }

  private registryKey(): string {
    return `${this.prefix}:decom:queues`;
  }
}
