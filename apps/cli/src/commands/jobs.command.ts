import type { Command } from 'commander';
import pino from 'pino';
import type { FailedJob, JobQueue } from '@decom/jobs';
import { openJobQueue } from '../engine/job-queue-factory.js';
import { loadConfigOrExit } from './start.command.js';

/**
 * `decom jobs failed [--queue q] [--json]` lists the dead-letter set (jobs that exhausted their retries or
 * failed terminally); `decom jobs retry <queue> <id>` moves one back with fresh attempts. BullMQ only
 * (REDIS_URL): the in-process queue's dead letters live in the engine process and are logged there.
 */
export function registerJobsCommands(program: Command, out: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): void {
  const jobs = program.command('jobs').description('the job queue (BullMQ on REDIS_URL): dead letters');
  jobs
    .command('failed')
    .description('list jobs that failed for good (exhausted retries or terminal errors)')
    .option('--queue <name>', 'only this queue, e.g. adapter-run.validation')
    .option('--json', 'one JSON object per line')
    .action(async (options: { queue?: string; json?: boolean }) => {
      await withQueue(async (queue) => {
        const failed = await queue.failed(options.queue);
        if (options.json) return failed.forEach((f) => out(JSON.stringify(f)));
        if (failed.length === 0) return out('no failed jobs');
        for (const f of failed) out(formatFailed(f));
        out(`${failed.length} failed job(s); retry one with: decom jobs retry <queue> <id>`);
      });
    });
  jobs
    .command('retry')
    .argument('<queue>', 'queue name, e.g. adapter-run.validation')
    .argument('<id>', 'job id as listed by `decom jobs failed`')
    .description('move a failed job back to the queue with fresh attempts')
    .action(async (queueName: string, id: string) => {
      await withQueue(async (queue) => {
        const known = await queue.queueNames();
        if (!known.includes(queueName)) {
          process.stderr.write(`decom jobs: unknown queue ${queueName}; known queues: ${known.join(', ') || '(none yet)'}\n`);
          process.exitCode = 2;
          return;
        }
        if (await queue.retry(queueName, id)) return out(`retrying ${queueName} ${id}`);
        out(`no failed job ${id} in ${queueName}`);
        process.exitCode = 1;
      });
    });
}

function formatFailed(f: FailedJob): string {
  return `${f.failed_time}  ${f.queue}  ${f.id}  attempts=${f.attempts}  ${f.error.split('\n')[0]}`;
}

async function withQueue(action: (queue: JobQueue) => Promise<void>): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.redisUrl) {
    process.stderr.write('decom jobs: REDIS_URL is not set; the in-process queue keeps its dead letters inside the engine process (see its log)\n');
    process.exit(2);
  }
  let queue: JobQueue;
  try {
    ({ queue } = await openJobQueue(config, pino({ level: 'silent' })));
  } catch (error) {
    // openJobQueue gives up after 5 s with "cannot reach Redis at <url without password>: ...".
    process.stderr.write(`decom jobs: ${(error as Error).message}\n`);
    process.exit(1);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis stopped answering (no reply within ${JOBS_TIMEOUT_MS / 1000} s)`)), JOBS_TIMEOUT_MS);
  });
  try {
    await Promise.race([action(queue), timeout]);
  } catch (error) {
    process.stderr.write(`decom jobs: ${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    clearTimeout(timer);
    await queue.close();
  }
}

/** A `decom jobs` call gives up after this long, with a message, instead of waiting for Redis forever. */
const JOBS_TIMEOUT_MS = 15_000;
