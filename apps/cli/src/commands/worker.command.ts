import { InvalidArgumentError, type Command } from 'commander';
import pino from 'pino';
import { configVariablesHelp } from '@decom/config';
import { applyHeapGrowth, heapGrowingPercentFor } from '@decom/runtime';
import { abortOnSignals, loadConfigOrExit, stopOnSignals } from './start.command.js';
import { buildInfo } from '../build-info.js';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

/**
 * `decom worker --adapters a,b --concurrency N`: adapter runs only, from BullMQ (REDIS_URL); the process is
 * `@decom/worker`'s `startWorkerProcess`, this command parses, loads the configuration and handles signals.
 * Adapters talk to the API over HTTP (DECOM_API_URL) and to Kubernetes through KUBECONFIG, which every worker
 * must share. A worker killed mid-job loses nothing: BullMQ's stalled-job check hands the job to another
 * worker once its lock (DECOM_JOB_LOCK_MS) expired. Exit 2 without REDIS_URL or a kubeconfig, 1 when it
 * cannot start, 0 when stopped by a signal.
 */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description(COMMAND_DESCRIPTIONS.worker)
    .addHelpText('after', configVariablesHelp())
    .option('--adapters <names>', 'comma-separated adapters to run (default: every adapter in DECOM_ADAPTERS_DIR)', (raw) =>
      raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .option('--concurrency <n>', 'runs at once per adapter (default DECOM_WORKER_CONCURRENCY, 4)', positiveInteger)
    .action(async (options: { adapters?: string[]; concurrency?: number }) => {
      const config = loadConfigOrExit();
      // Loaded when the worker runs, not for `decom --help` (see runEngineCommand).
      const [{ startWorkerProcess, WorkerRefused, WorkerStartFailed }, { StartAborted }] = await Promise.all([
        import('@decom/worker'),
        import('@decom/runtime'),
      ]);
      applyHeapGrowth(heapGrowingPercentFor('worker', config.heapGrowingPercent));
      const logger = pino({ level: config.logLevel === 'silent' ? 'silent' : config.logLevel, base: undefined });
      // Redis down at start is waited for; a signal meanwhile stops the wait (exit 0).
      const starting = abortOnSignals(logger);
      let worker;
      try {
        worker = await startWorkerProcess({
          config,
          logger,
          build: buildInfo(),
          ...(options.adapters ? { adapters: options.adapters } : {}),
          ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
          abort: starting.signal,
          onDependenciesAnswered: () => starting.dispose(),
        });
      } catch (error) {
        if (error instanceof WorkerRefused) {
          process.stderr.write(`decom worker: ${error.message}\n`);
          process.exit(2);
        }
        if (error instanceof StartAborted) {
          logger.info(`${error.message}: stopped`);
          process.exit(0);
        }
        if (error instanceof WorkerStartFailed) {
          process.stderr.write(`decom worker: cannot start: ${error.message}\n`);
          process.exit(1);
        }
        throw error;
      }
      if (!worker) process.exit(0);
      const running = worker;
      stopOnSignals(logger, () => running.close());
    });
}

function positiveInteger(raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}
