import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import type { DecomMetrics } from '@decom/metrics';
import { QueueConsumers, type JobQueue } from '@decom/jobs';
import { countRetries, openJobQueue, type Closers, type QueueChoice, type QueueTuning, type StartWait } from '@decom/runtime';
import type { DeadLetterSource } from '../tokens.js';
import type { StartedAfterListen } from './started-after-listen.js';

/** The job queue as the engine uses it: retries counted, and what the API's dead-letter routes read. */
export interface EngineJobs extends Omit<QueueChoice, 'queue'> {
  readonly queue: JobQueue;
  /** Consumers per queue, one CLIENT LIST per few seconds however often `/finalizing` and scrapes ask. */
  readonly consumers: QueueConsumers;
  readonly deadLetters: DeadLetterSource;
}

/**
 * Opens the job queue (BullMQ when `REDIS_URL` is set, else in-process), waiting for Redis at start. When
 * Redis comes back after an outage, a recovery sweep re-dispatches the work it may have lost.
 */
export async function openEngineJobs(parts: {
  config: AppConfig;
  logger: Logger;
  tuning?: QueueTuning;
  metrics: DecomMetrics;
  later: StartedAfterListen;
  startWait: StartWait;
  closers: Closers;
}): Promise<EngineJobs> {
  const redisWatch = {
    onBack: async () => {
      const recovered = (await parts.later.sweeper?.sweepOnce('recovery')) ?? 0;
      return `, re-dispatched ${recovered} job(s) for resources with pending work`;
    },
  };
  const choice = await openJobQueue(parts.config, parts.logger, parts.tuning, parts.metrics, redisWatch, parts.startWait);
  const { reachability } = choice;
  const queue = countRetries(choice.queue, parts.metrics);
  const consumers = new QueueConsumers(async () =>
    reachability && queue.queueConsumers ? reachability.bounded(() => queue.queueConsumers!()) : [],
  );
  parts.closers.add(() => queue.close());
  parts.logger.info(`jobs: ${choice.description}`);
  const deadLetters: DeadLetterSource = reachability
    ? {
        // Bounded: with Redis down these would wait for a reconnect; they answer 503 / `unavailable` instead.
        list: (name) => reachability.bounded(() => queue.failed(name)),
        retry: (name, id) => reachability.bounded(() => queue.retry(name, id)),
        queues: () => reachability.bounded(() => queue.queueNames()),
        // Only here: an in-process queue dispatches only to the adapters it hosts, each with its handler.
        ...(queue.queueConsumers && { consumedQueues: () => consumers.queues() }),
        availability: () => reachability.availability(),
      }
    : { list: (name) => queue.failed(name), retry: (name, id) => queue.retry(name, id), queues: () => queue.queueNames() };
  return { ...choice, queue, consumers, deadLetters };
}
