/**
 * Picks the job queue: BullMQ on Redis when `REDIS_URL` is set (distributed profile: workers may run in
 * other processes), the in-process queue otherwise (embedded profile).
 */
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import { describeError, isTransientError } from '@decom/event-store';
import { BullMqJobQueue, InProcessJobQueue, QueueReachability, type JobQueue } from '@decom/jobs';
import type { DecomMetrics } from '@decom/metrics';
import { deadLetterReporter } from './process-metrics.js';
import { OutageLog } from './outage-log.js';
import { untilAnswered, type StartWait } from './dependency-wait.js';

/** How long the first answer of Redis may take before a waiting start says it waits, ms. */
const FIRST_ANSWER_MS = 1_000;

export interface QueueChoice {
  readonly queue: JobQueue;
  /** True when only adapters hosted in this process can receive jobs (in-process queue). */
  readonly localOnly: boolean;
  readonly description: string;
  /** Whether Redis answers, and bounded calls to it (BullMQ only: the in-process queue is always there). */
  readonly reachability?: QueueReachability;
}

/** Test and benchmark knobs on top of the configuration. */
export interface QueueTuning {
  /** Pause before a job whose group is busy tries again, in ms. */
  readonly groupRetryDelayMs?: number;
  /** Stalled-job check period, in ms (default half the job lock). */
  readonly stalledIntervalMs?: number;
}

/** What the engine does when Redis comes back (a recovery sweep); its return is appended to the log line. */
export interface RedisWatch {
  onBack?(): Promise<string>;
}

/**
 * `metrics`: counts dead letters (`decom_jobs_dead_lettered_total`). `watch`: Redis outage hooks.
 * `start`: a long-running process waits for Redis to answer (ioredis reconnects by itself; the outage log
 * says it is down once), reported as `waiting for redis` in `start.state`; without it a one-shot command
 * gives up after 5 s.
 * @throws StartAborted when `start.signal` aborts while Redis does not answer; Error "cannot reach Redis" (no `start`).
 */
export async function openJobQueue(
  config: AppConfig,
  logger: Logger,
  tuning: QueueTuning = {},
  metrics?: DecomMetrics,
  watch: RedisWatch = {},
  start?: StartWait,
): Promise<QueueChoice> {
  const onDeadLetter = deadLetterReporter(logger, metrics);
  if (!config.redisUrl) {
    return { queue: new InProcessJobQueue(Date.now, Math.random, onDeadLetter), localOnly: true, description: 'in-process' };
  }
  const outage = new OutageLog(`Redis at ${redact(config.redisUrl)}`, logger);
  const reachability = new QueueReachability();
  let isStarting = start !== undefined;
  const noteStartFailure = (error: unknown) => {
    if (isStarting) start?.state?.waiting('redis', describeError(error));
  };
  const queue = new BullMqJobQueue({
    url: config.redisUrl,
    prefix: config.queuePrefix,
    lockDurationMs: config.jobLockMs,
    ...tuning,
    onDeadLetter,
    // Connection errors repeat on every reconnect attempt and every blocked call: the outage log says it
    // once; other errors (a lost job lock, a script error) are logged one line each, without a stack.
    onError: (error) => {
      noteStartFailure(error);
      if (isTransientError(error) || outage.isDown) return outage.lost(error);
      logger.warn(`job queue: ${describeError(error)}`);
    },
    onConnectionChange: (state, error) => {
      if (state === 'lost') {
        reachability.lost(error ?? 'connection lost');
        return outage.lost(error);
      }
      reachability.back();
      void (watch.onBack?.() ?? Promise.resolve(''))
        .catch((sweepError: unknown) => `, recovery sweep failed: ${describeError(sweepError)}`)
        .then((then) => outage.back(then));
    },
  });
  if (start) {
    await waitForFirstAnswer(queue, start);
    isStarting = false;
    return {
      queue,
      localOnly: false,
      reachability,
      description: `BullMQ on Redis ${redact(config.redisUrl)} (prefix ${config.queuePrefix})`,
    };
  }
  // Fail the start now, with the cause, rather than at the first enqueue.
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 5 s')), 5_000).unref());
  await Promise.race([queue.epoch(), timeout]).catch(async (error: unknown) => {
    await queue.close().catch(() => undefined);
    throw new Error(`cannot reach Redis at ${redact(config.redisUrl!)}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return {
    queue,
    localOnly: false,
    reachability,
    description: `BullMQ on Redis ${redact(config.redisUrl)} (prefix ${config.queuePrefix})`,
  };
}

/**
 * Resolves once Redis answered (`epoch()`: its commands wait in ioredis's offline queue until a connection
 * is ready). When it does not answer within FIRST_ANSWER_MS the start says it waits (`start.onWaiting`).
 * @throws StartAborted (after closing the queue) when `start.signal` aborts first.
 */
async function waitForFirstAnswer(queue: BullMqJobQueue, start: StartWait): Promise<void> {
  const answered = queue.epoch();
  // Observed here too: an abort leaves `answered` pending until the close rejects it.
  answered.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const isQuick = await Promise.race([
    answered.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), FIRST_ANSWER_MS))),
  ]).finally(() => clearTimeout(timer));
  if (isQuick) return;
  if (start.state?.current().state !== 'waiting') start.state?.waiting('redis', `no answer within ${FIRST_ANSWER_MS} ms`);
  await start.onWaiting?.();
  try {
    await untilAnswered(answered, start.signal, 'redis');
  } catch (error) {
    await queue.close().catch(() => undefined);
    throw error;
  }
  start.state?.starting();
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
