/**
 * Picks the job queue: in-process for the embedded profile (no REDIS_URL).
 */
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import { InProcessJobQueue, type JobQueue } from '@decom/jobs';

export interface QueueChoice {
  readonly queue: JobQueue;
  /** True when only adapters hosted in this process can receive jobs (in-process queue). */
  readonly localOnly: boolean;
  readonly description: string;
}

export async function openJobQueue(config: AppConfig, logger: Logger): Promise<QueueChoice> {
  void config;
  const queue = new InProcessJobQueue(Date.now, Math.random, (failed) =>
    logger.error({ job: failed.id, queue: failed.queue, error: failed.error }, 'job failed for good (dead letter)'),
  );
  return { queue, localOnly: true, description: 'in-process' };
}
