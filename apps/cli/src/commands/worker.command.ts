import { InvalidArgumentError, type Command } from 'commander';
import { existsSync } from 'node:fs';
import pino from 'pino';
import { configVariablesHelp } from '@decom/config';
import { bundledKubeconfigPath } from '../engine/bundled-kubeconfig.js';
import type { ProcessMetrics } from '../engine/observability.js';
import { applyHeapGrowth, heapGrowingPercentFor } from '../engine/heap-growth.js';
import { abortOnSignals, loadConfigOrExit, stopOnSignals } from './start.command.js';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

/**
 * `decom worker --adapters a,b --concurrency N`: adapter runs only, from BullMQ (REDIS_URL). Adapters talk
 * to the API over HTTP (DECOM_API_URL) and to Kubernetes through KUBECONFIG, which every worker must share.
 * A worker killed mid-job loses nothing: BullMQ's stalled-job check hands the job to another worker once
 * its lock (DECOM_JOB_LOCK_MS) expired.
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
      const [
        { KubeConfig },
        { startAdapterWorker },
        { openJobQueue },
        { adapterRunMetrics, countRetries, startProcessMetrics },
        { StartAborted },
        { workerProbes },
        { workerReadiness },
        { kubernetesRecovery },
      ] = await Promise.all([
        import('@kubernetes/client-node'),
        import('@decom/worker'),
        import('../engine/job-queue-factory.js'),
        import('../engine/observability.js'),
        import('../engine/dependency-wait.js'),
        import('../engine/engine-probes.js'),
        import('../engine/worker-readiness.js'),
        import('../engine/kubernetes-recovery.js'),
      ]);
      applyHeapGrowth(heapGrowingPercentFor('worker', config.heapGrowingPercent));
      const logger = pino({ level: config.logLevel === 'silent' ? 'silent' : config.logLevel, base: undefined });
      const refuse = (message: string) => {
        process.stderr.write(`decom worker: ${message}\n`);
        process.exit(2);
      };
      if (!config.redisUrl)
        return refuse('REDIS_URL is required: workers take their jobs from BullMQ (the in-process queue lives inside `decom start`)');
      // Without KUBECONFIG, the bundled server of a `decom start` running on this data folder (it writes this file).
      const bundled = bundledKubeconfigPath(config.dataDir);
      const kubeconfigFile = config.kubeconfig ?? (existsSync(bundled) ? bundled : undefined);
      if (!kubeconfigFile) {
        return refuse(
          `KUBECONFIG is required: separate workers must share one Kubernetes (a running \`decom start\` with its bundled server writes ${bundled}, used when present)`,
        );
      }
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromFile(kubeconfigFile);
      logger.info(
        { kubeconfig: kubeconfigFile },
        `Kubernetes: ${config.kubeconfig ? 'KUBECONFIG' : 'the bundled server of the running engine,'} ${kubeconfigFile}`,
      );
      let queue;
      let onKubernetesBack: ((dependency: string) => void) | undefined;
      let processMetrics: ProcessMetrics | undefined;
      let dependencies: { close(): Promise<void> } | undefined;
      // Redis down at start is waited for (ioredis reconnects; one log line when lost, one when back): an
      // exit would become a crash loop under a supervisor. A signal meanwhile stops the wait (exit 0).
      const starting = abortOnSignals(logger);
      // `/healthz` and `/readyz` on the metrics port (the worker has no other): not ready until it serves its queues.
      let startup: string | undefined = 'waiting for Redis (the job queue)';
      let running: readonly string[] = [];
      try {
        processMetrics = await startProcessMetrics(config, 'worker');
        // A recovery of Kubernetes re-runs what backed off because of it, once the queue and the adapters are there.
        const probed = workerProbes(config.redisUrl, kubeConfig, logger, (dependency) => onKubernetesBack?.(dependency));
        dependencies = probed;
        processMetrics.serveHealth(() =>
          workerReadiness({ dependencies: () => probed.probes.results(), startup: () => startup, adapters: () => running }),
        );
        processMetrics.metrics.watchDependencies(() => probed.probes.results());
        ({ queue } = await openJobQueue(config, logger, {}, processMetrics.metrics, {}, { logger, signal: starting.signal }));
        queue = countRetries(queue, processMetrics.metrics);
        const counted = queue;
        processMetrics.metrics.watchQueues(async () => (counted.depths ? counted.depths() : []));
      } catch (error) {
        if (error instanceof StartAborted) {
          logger.info(`${error.message}: stopped`);
          await dependencies?.close();
          await processMetrics?.close();
          process.exit(0);
        }
        process.stderr.write(`decom worker: cannot start: ${(error as Error).message}\n`);
        process.exit(1);
      }
      starting.dispose();
      if (starting.signal.aborted) {
        await dependencies?.close();
        await queue.close();
        await processMetrics.close();
        process.exit(0);
      }
      startup = 'loading the adapters';
      const concurrency = options.concurrency ?? config.workerConcurrency;
      let stopWatches: () => Promise<void> = async () => undefined;
      try {
        const recordMetrics = adapterRunMetrics(processMetrics.metrics);
        const worker = await startAdapterWorker({
          adaptersDir: config.adaptersDir,
          ...(options.adapters ? { only: options.adapters } : {}),
          apiBaseUrl: config.apiBaseUrl,
          kubeConfig,
          queue,
          concurrency,
          env: config.adapterEnv,
          log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
          onWatchTrigger: (trigger) => processMetrics.metrics.watchTriggeredRuns.inc({ adapter: trigger.adapter }),
          onAdapterRun: (run) => {
            recordMetrics(run);
            // A stale run stopping is the evidence of a frozen or partitioned worker: say so.
            const { adapter, job, result } = run;
            if (result?.fence?.lost !== undefined) {
              logger.warn(
                {
                  adapter,
                  resource: `${job.event.data.kind}/${job.event.data.id}`,
                  fence: `${result.fence.generation}.${result.fence.sequence}`,
                },
                `run stopped, fence lost: ${result.fence.lost}`,
              );
            }
          },
        });
        stopWatches = () => worker.close();
        const watches = worker.watches;
        processMetrics.metrics.watchKubeWatches(() => watches?.statuses() ?? []);
        const { adapters } = worker;
        running = adapters.map((a) => a.name);
        onKubernetesBack = kubernetesRecovery(queue, () => running, logger);
        startup = undefined;
        logger.info(
          { adapters: adapters.map((a) => a.name), concurrency, api: config.apiBaseUrl, metrics: processMetrics.url },
          `worker ready: ${adapters.map((a) => a.name).join(', ') || '(no adapters)'}`,
        );
        for (const warning of adapters.flatMap((a) => a.warnings)) logger.warn(`adapter config warning: ${warning}`);
      } catch (error) {
        await queue.close();
        process.stderr.write(`decom worker: cannot start: ${(error as Error).message}\n`);
        process.exit(1);
      }
      stopOnSignals(logger, async () => {
        await stopWatches();
        await queue.close();
        await dependencies?.close();
        await processMetrics.close();
      });
    });
}

function positiveInteger(raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}
