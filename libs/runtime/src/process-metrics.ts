/**
 * Builds one process's metrics (a fresh `prom-client` registry, `DecomMetrics`) and serves them on
 * `DECOM_METRICS_PORT`. Also what the queue reports into it: job retries and dead letters. (Adapter runs
 * are counted by the worker app, which defines them: `@decom/worker`'s `adapterRunMetrics`.)
 */
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import { DecomMetrics, Registry, startMetricsServer, type HealthReport, type MetricsServer } from '@decom/metrics';
import type { FailedJob, JobHandler, JobQueue, PrunedDeadLetter } from '@decom/jobs';
import type { BuildInfo } from './build-info.js';

export interface ProcessMetrics {
  readonly metrics: DecomMetrics;
  /** `http://127.0.0.1:<port>/metrics`. */
  readonly url: string;
  /** `/healthz` and `/readyz` on the metrics port (metrics-server.ts `serveHealth`), for `decom worker`. */
  serveHealth(report: () => HealthReport): void;
  close(): Promise<void>;
}

/**
 * @param component HyperFleet's `component` label: `api` for `decom start`/`decom api`, `worker` for `decom worker`.
 * @param info the build's version and commit (`hyperfleet_api_build_info`).
 * @throws Error naming DECOM_METRICS_PORT when the port cannot be bound.
 */
export async function startProcessMetrics(config: AppConfig, component: 'api' | 'worker', info: BuildInfo): Promise<ProcessMetrics> {
  const metrics = new DecomMetrics(new Registry(), { component, version: info.version, commit: info.commit }, config.stuckThresholdSeconds);
  let server: MetricsServer;
  try {
    server = await startMetricsServer(metrics.registry, config.metricsPort, config.host);
  } catch (error) {
    throw new Error(`DECOM_METRICS_PORT: cannot listen on ${config.host}:${config.metricsPort}: ${(error as Error).message}`);
  }
  return { metrics, url: server.url, serveHealth: (report) => server.serveHealth(report), close: () => server.close() };
}

/** The pruned-dead-letter callback: one info line per removed letter (job, queue, resource, why), and its counter. */
export function prunedDeadLetterReporter(logger: Logger, metrics?: DecomMetrics): (pruned: PrunedDeadLetter) => void {
  return (pruned) => {
    metrics?.deadLettersPruned.inc({ queue: pruned.queue, reason: pruned.reason });
    logger.info(
      { job: pruned.job, queue: pruned.queue, resource_id: pruned.resourceId, reason: pruned.reason },
      'dead letter pruned: its work is done',
    );
  };
}

/** The dead-letter callback: one error line with the job's trace id, and the dead-letter counter. */
export function deadLetterReporter(logger: Logger, metrics?: DecomMetrics): (failed: FailedJob) => void {
  return (failed) => {
    metrics?.deadLettered.inc({ queue: failed.queue });
    const traceId = (failed.data as { trace_id?: unknown } | undefined)?.trace_id;
    logger.error(
      {
        job: failed.id,
        queue: failed.queue,
        attempts: failed.attempts,
        error: failed.error,
        ...(typeof traceId === 'string' ? { trace_id: traceId } : {}),
      },
      'job failed for good (dead letter)',
    );
  };
}

/** `queue` with its handlers counting retries (tries after the first) per queue. */
export function countRetries(queue: JobQueue, metrics: DecomMetrics): JobQueue {
  const process = queue.process.bind(queue);
  queue.process = <T>(name: string, handler: JobHandler<T>, options?: { concurrency?: number }) =>
    process<T>(
      name,
      (job) => {
        if (job.attempt > 1) metrics.jobRetries.inc({ queue: name });
        return handler(job);
      },
      options,
    );
  return queue;
}
