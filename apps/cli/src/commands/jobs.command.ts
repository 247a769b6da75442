import type { Command } from 'commander';
import type { FailedJob, JobQueue } from '@decom/jobs';
import { bearerHeaders, engineDefaults, fetchEngine, withEngineOptions } from './engine-client.js';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

/**
 * `decom jobs failed [--queue q] [--json]` lists the dead-letter set (jobs that exhausted their retries or
 * failed terminally); `decom jobs retry <queue> <id> [--reason R]` moves one back with fresh attempts.
 * Through a running engine's API (`/api/decom/v1/jobs`, where a retry is for administrators and logged with
 * the caller) when `--api` is given, `DECOM_API_URL` is set or `REDIS_URL` is not (the embedded engine's
 * in-process queue); otherwise, or with `--redis`, straight to BullMQ on `REDIS_URL`, which checks no role:
 * whoever holds Redis credentials can run jobs anyway (docs/security.md "Jobs").
 */
export function registerJobsCommands(program: Command, out: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): void {
  const jobs = program.command('jobs').description(COMMAND_DESCRIPTIONS.jobs);
  withJobsOptions(
    jobs
      .command('failed')
      .description('list jobs that failed for good (exhausted retries or terminal errors)')
      .option('--queue <name>', 'only this queue, e.g. adapter-run.validation')
      .option('--json', 'one JSON object per line'),
  ).action(async (options: JobsOptions & { queue?: string; json?: boolean }) => {
    if (viaApi(options)) {
      const answer = await callJobsApi<{ items: FailedJob[] }>(
        options,
        'GET',
        `/failed${options.queue ? `?queue=${encodeURIComponent(options.queue)}` : ''}`,
      );
      if (!answer) return;
      return printFailed(answer.items, options.json, out);
    }
    await withQueue(async (queue) => {
      printFailed(await queue.failed(options.queue), options.json, out);
    });
  });
  withJobsOptions(
    jobs
      .command('retry')
      .argument('<queue>', 'queue name, e.g. adapter-run.validation')
      .argument('<id>', 'job id as listed by `decom jobs failed`')
      .option('--reason <text>', 'why it is retried (logged by the engine with your identity)')
      .description('move a failed job back to the queue with fresh attempts (administrators, through the API)'),
  ).action(async (queueName: string, id: string, options: JobsOptions & { reason?: string }) => {
    if (viaApi(options)) {
      const answer = await callJobsApi(options, 'POST', '/retry', {
        queue: queueName,
        id,
        ...(options.reason && { reason: options.reason }),
      });
      if (answer) out(`retrying ${queueName} ${id}`);
      return;
    }
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

interface JobsOptions {
  readonly api?: string;
  readonly tokenFile?: string;
  readonly as?: string;
  readonly redis?: boolean;
}

function withJobsOptions(command: Command): Command {
  return withEngineOptions(command)
    .option('--as <identity>', 'identity sent as X-HyperFleet-Identity (engines without JWT)')
    .option('--redis', 'talk to BullMQ on REDIS_URL directly instead of the engine API (no role check)');
}

/** The API unless `--redis`; without `--api`/`DECOM_API_URL`, the API only when there is no REDIS_URL. */
function viaApi(options: JobsOptions): boolean {
  if (options.redis) return false;
  const env = process.env;
  return Boolean(options.api) || Boolean(env['DECOM_API_URL']?.trim()) || !env['REDIS_URL']?.trim();
}

/** Calls `/api/decom/v1/jobs<path>`; on an API error prints its detail, sets exit code 1 (2 for an unknown queue, as without the API) and returns undefined. */
async function callJobsApi<T = unknown>(
  options: JobsOptions,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T | undefined> {
  const defaults = engineDefaults();
  const base = (options.api ?? defaults.apiBaseUrl).replace(/\/+$/, '');
  // An unreadable token file is a usage error (exit 2): thrown to main.ts, not reported as a failed call.
  const auth = await bearerHeaders(options.tokenFile ?? defaults.apiTokenFile);
  try {
    const response = await fetchEngine(base, `/api/decom/v1/jobs${path}`, {
      method,
      headers: {
        ...auth,
        ...(options.as && { 'x-hyperfleet-identity': options.as }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const answer = (await response.json().catch(() => undefined)) as (T & { detail?: string; title?: string }) | undefined;
    if (response.ok && answer) return answer;
    process.stderr.write(`decom jobs: ${response.status} ${answer?.detail ?? answer?.title ?? response.statusText}\n`);
    process.exitCode = answer?.detail?.startsWith('unknown queue') ? 2 : 1;
  } catch (error) {
    process.stderr.write(`decom jobs: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
  return undefined;
}

function printFailed(failed: readonly FailedJob[], json: boolean | undefined, out: (line: string) => void): void {
  if (json) return failed.forEach((f) => out(JSON.stringify(f)));
  if (failed.length === 0) return out('no failed jobs');
  for (const f of failed) out(formatFailed(f));
  out(`${failed.length} failed job(s); retry one with: decom jobs retry <queue> <id>`);
}

function formatFailed(f: FailedJob): string {
  return `${f.failed_time}  ${f.queue}  ${f.id}  attempts=${f.attempts}  ${f.error.split('\n')[0]}`;
}

async function withQueue(action: (queue: JobQueue) => Promise<void>): Promise<void> {
  // The engine's config checks (and their modules) load only for --redis: the API path stays cheap to start.
  const { loadConfigOrExit } = await import('./start.command.js');
  const config = loadConfigOrExit();
  if (!config.redisUrl) {
    process.stderr.write('decom jobs: --redis needs REDIS_URL (without it, decom jobs asks the engine API)\n');
    process.exit(2);
  }
  // BullMQ and the queue factory load only for --redis: the API path stays cheap to start.
  const [{ default: pino }, { openJobQueue }] = await Promise.all([import('pino'), import('@decom/runtime')]);
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
