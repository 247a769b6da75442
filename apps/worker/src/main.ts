/**
 * The composition root of a `decom worker` process: adapter runs only, from BullMQ (REDIS_URL). Adapters
 * talk to the API over HTTP (DECOM_API_URL) and to Kubernetes through KUBECONFIG, which every worker must
 * share. The process serves no API: `/healthz`, `/readyz` and `/metrics` on its metrics port are all it
 * answers, so it has no Nest module (docs/architecture.md).
 */
import { existsSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { bundledKubeconfigPath, type AppConfig } from '@decom/config';
import type { JobQueue } from '@decom/jobs';
import {
  countRetries,
  kubernetesRecovery,
  openJobQueue,
  startProcessMetrics,
  StartAborted,
  workerProbes,
  type BuildInfo,
  type ProcessMetrics,
} from '@decom/runtime';
import { startAdapterWorker } from './worker-runtime.js';
import { adapterRunMetrics } from './process/adapter-run-metrics.js';
import { workerReadiness } from './process/worker-readiness.js';

export interface WorkerProcessOptions {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The build reported on the metrics port (`hyperfleet_api_build_info`). */
  readonly build: BuildInfo;
  /** The adapters to run (`--adapters`); every adapter of DECOM_ADAPTERS_DIR when absent. */
  readonly adapters?: readonly string[];
  /** Runs at once per adapter (`--concurrency`); DECOM_WORKER_CONCURRENCY when absent. */
  readonly concurrency?: number;
  /** Stops a start that waits for Redis (SIGINT/SIGTERM): the start then rejects with `StartAborted`. */
  readonly abort?: AbortSignal;
  /**
   * Called once Redis answered, before the adapters load: the wait a signal may stop is over (the caller
   * removes its abort handlers).
   */
  readonly onDependenciesAnswered?: () => void;
}

export interface WorkerProcess {
  /** The names of the adapters this worker runs. */
  readonly adapters: readonly string[];
  /** Stops the watches, the queue, the probes and the metrics port. */
  close(): Promise<void>;
}

/** The worker cannot run with this configuration (REDIS_URL or KUBECONFIG missing): exit 2, `message` says why. */
export class WorkerRefused extends Error {
  override readonly name = 'WorkerRefused';
}

/** A step of the start failed (metrics port, queue, adapters): exit 1; `message` is the cause's. */
export class WorkerStartFailed extends Error {
  override readonly name = 'WorkerStartFailed';
  constructor(cause: unknown) {
    super((cause as Error).message, { cause });
  }
}

/**
 * Starts a worker: the metrics port with `/healthz` and `/readyz` (not ready until it serves its queues), its
 * probes (Redis, Kubernetes), the queue (Redis down at start is waited for: ioredis reconnects, one log line
 * when lost, one when back; an exit would become a crash loop under a supervisor), then the adapters. A
 * recovery of Kubernetes re-runs what backed off because of it, once the queue and the adapters are there.
 * @returns the running worker, or undefined when `abort` fired as Redis answered (everything opened is closed).
 * @throws WorkerRefused without REDIS_URL or a kubeconfig; the kubeconfig's load error; StartAborted when
 *   `abort` fires while Redis does not answer (probes and metrics port closed); WorkerStartFailed when the
 *   metrics port, the queue or the adapters fail (the queue closed when the adapters failed).
 */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess | undefined> {
  const { config, logger } = options;
  if (!config.redisUrl)
    throw new WorkerRefused('REDIS_URL is required: workers take their jobs from BullMQ (the in-process queue lives inside `decom start`)');
  // Without KUBECONFIG, the bundled server of a `decom start` running on this data folder (it writes this file).
  const bundled = bundledKubeconfigPath(config.dataDir);
  const kubeconfigFile = config.kubeconfig ?? (existsSync(bundled) ? bundled : undefined);
  if (!kubeconfigFile) {
    throw new WorkerRefused(
      `KUBECONFIG is required: separate workers must share one Kubernetes (a running \`decom start\` with its bundled server writes ${bundled}, used when present)`,
    );
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigFile);
  logger.info(
    { kubeconfig: kubeconfigFile },
    `Kubernetes: ${config.kubeconfig ? 'KUBECONFIG' : 'the bundled server of the running engine,'} ${kubeconfigFile}`,
  );
  let queue: JobQueue;
  let onKubernetesBack: ((dependency: string) => void) | undefined;
  let processMetrics: ProcessMetrics | undefined;
  let dependencies: { close(): Promise<void> } | undefined;
  let startup: string | undefined = 'waiting for Redis (the job queue)';
  let running: readonly string[] = [];
  try {
    processMetrics = await startProcessMetrics(config, 'worker', options.build);
    const probed = workerProbes(config.redisUrl, kubeConfig, logger, (dependency) => onKubernetesBack?.(dependency));
    dependencies = probed;
    processMetrics.serveHealth(() =>
      workerReadiness({ dependencies: () => probed.probes.results(), startup: () => startup, adapters: () => running }),
    );
    processMetrics.metrics.watchDependencies(() => probed.probes.results());
    ({ queue } = await openJobQueue(
      config,
      logger,
      {},
      processMetrics.metrics,
      {},
      { logger, ...(options.abort ? { signal: options.abort } : {}) },
    ));
    queue = countRetries(queue, processMetrics.metrics);
    const counted = queue;
    processMetrics.metrics.watchQueues(async () => (counted.depths ? counted.depths() : []));
  } catch (error) {
    if (error instanceof StartAborted) {
      await dependencies?.close();
      await processMetrics?.close();
      throw error;
    }
    throw new WorkerStartFailed(error);
  }
  const metrics = processMetrics;
  options.onDependenciesAnswered?.();
  if (options.abort?.aborted) {
    await dependencies.close();
    await queue.close();
    await metrics.close();
    return undefined;
  }
  startup = 'loading the adapters';
  const concurrency = options.concurrency ?? config.workerConcurrency;
  let stopWatches: () => Promise<void> = async () => undefined;
  try {
    const recordMetrics = adapterRunMetrics(metrics.metrics);
    const worker = await startAdapterWorker({
      adaptersDir: config.adaptersDir,
      ...(options.adapters ? { only: options.adapters } : {}),
      apiBaseUrl: config.apiBaseUrl,
      kubeConfig,
      queue,
      concurrency,
      env: config.adapterEnv,
      log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
      onWatchTrigger: (trigger) => metrics.metrics.watchTriggeredRuns.inc({ adapter: trigger.adapter }),
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
    metrics.metrics.watchKubeWatches(() => watches?.statuses() ?? []);
    const { adapters } = worker;
    running = adapters.map((a) => a.name);
    onKubernetesBack = kubernetesRecovery(queue, () => running, logger);
    startup = undefined;
    logger.info(
      { adapters: adapters.map((a) => a.name), concurrency, api: config.apiBaseUrl, metrics: metrics.url },
      `worker ready: ${adapters.map((a) => a.name).join(', ') || '(no adapters)'}`,
    );
    for (const warning of adapters.flatMap((a) => a.warnings)) logger.warn(`adapter config warning: ${warning}`);
  } catch (error) {
    await queue.close();
    throw new WorkerStartFailed(error);
  }
  const opened = dependencies;
  return {
    adapters: running,
    async close() {
      await stopWatches();
      await queue.close();
      await opened.close();
      await metrics.close();
    },
  };
}
