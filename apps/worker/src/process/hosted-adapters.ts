/**
 * The adapters of `decom start`, hosted in the API process: `@decom/worker`'s `startAdapterWorker` on the
 * API process's queue, against KUBECONFIG's cluster or a bundled local Kubernetes API server, calling the
 * API in-process. Handed to `@decom/api`'s `startApiProcess` as its `AdapterHost` (`@decom/runtime`).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { bundledKubeconfigPath } from '@decom/config';
import { inProcessFetch, type WatchStatus } from '@decom/adapter';
import { startLocalKube, type LocalKube, type LocalKubeOptions } from '@decom/kube-local';
import type { AdapterHost, AdapterHostingContext } from '@decom/runtime';
import { startAdapterWorker } from '../worker-runtime.js';
import { checkAdapterConfigs, type HostedAdapter } from '../adapter-host.js';
import type { AdapterRunObserver } from '../processors/adapter-run.processor.js';
import type { WatchTriggerObserver } from '../watch/watch-triggers.js';
import { adapterRunMetrics } from './adapter-run-metrics.js';

/**
 * Requests and changes the bundled Kubernetes server keeps for looking back (`localKube.requests`/`changes`,
 * the demo's timeline): bounded, so a long-running embedded engine does not grow. 5,000 covers the demo (a
 * few hundred) many times over; at 20,000 the request log alone held 11 MB of a 120 MB heap once 300 clusters
 * had come and gone, and the live heap is what V8 sizes its growth by (@decom/runtime's heap-growth.ts).
 */
const BUNDLED_KUBE_HISTORY = 5_000;

/** How the hosted adapters run (the engine's options that concern them). */
export interface AdapterHostingOptions {
  /** Delays of adapter re-runs while work is in progress (default 250 ms doubling to 15 s). */
  readonly adapterRerun?: { baseDelayMs: number; maxDelayMs: number };
  /** Options of the bundled local Kubernetes API server (benchmarks batch its controller passes). */
  readonly localKube?: LocalKubeOptions;
  readonly onAdapterRun?: AdapterRunObserver;
  /**
   * Watch the objects the adapters manage and run an adapter as soon as one changes (default
   * true). False: re-runs by backoff only (benchmarks compare both).
   */
  readonly adapterWatch?: boolean;
  /**
   * How the adapters this process hosts call its API: `in-process` (default) through the API's request pipeline
   * without a socket (`inProcessFetch`), or `http` over loopback as an adapter elsewhere does (benchmarks
   * compare both; `decom worker` always uses HTTP).
   */
  readonly adapterApiTransport?: 'in-process' | 'http';
  /** Called for each run a watch change enqueued (tests). */
  readonly onWatchTrigger?: WatchTriggerObserver;
}

export interface HostedAdapters {
  readonly adapters: readonly HostedAdapter[];
  /** The bundled Kubernetes API server, when no KUBECONFIG was given. */
  readonly localKube?: LocalKube;
  /** The adapters' Kubernetes watches (none when watching is off). */
  readonly watches?: () => WatchStatus[];
}

/**
 * The adapter host `decom start` hands `startApiProcess`: checks the adapter configs with the other files,
 * then runs them once the API listens (`hostAdapters`).
 */
export function adapterHost(options: AdapterHostingOptions): AdapterHost {
  return {
    checkConfigs: (config) => checkAdapterConfigs(config.adaptersDir, undefined, config.adapterEnv, config.apiBaseUrl),
    start: (context) => hostAdapters(context, options),
  };
}

/**
 * Runs the adapters of `config.adaptersDir` in this process (`decom start`): against KUBECONFIG's cluster, or
 * else a bundled local Kubernetes API server whose kubeconfig is written to the data folder (its port is
 * random: `kubectl`, `decom adapter plan` and `decom worker` find it there). The adapters call this
 * process's API through its request pipeline, without a loopback socket, unless asked for HTTP.
 */
export async function hostAdapters(parts: AdapterHostingContext, options: AdapterHostingOptions): Promise<HostedAdapters> {
  const { config, logger, metrics, kubeConfig, closers } = parts;
  let localKube: LocalKube | undefined;
  if (config.kubeconfig) {
    logger.info(`Kubernetes: using KUBECONFIG ${config.kubeconfig} (context ${kubeConfig.getCurrentContext()})`);
  } else {
    const kube = await startLocalKube({ historyLimit: BUNDLED_KUBE_HISTORY, ...options.localKube });
    localKube = kube;
    closers.add(() => kube.close());
    kubeConfig.loadFromString(kube.kubeconfigYaml());
    const kubeconfigFile = bundledKubeconfigPath(config.dataDir);
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(kubeconfigFile, kube.kubeconfigYaml(), { mode: 0o600 });
    closers.add(() => rm(kubeconfigFile, { force: true }));
    logger.info(
      { kubeconfig: kubeconfigFile, server: kube.url },
      `Kubernetes: no KUBECONFIG set, using the bundled local Kubernetes API server at ${kube.url}; kubeconfig for it: ${kubeconfigFile} (KUBECONFIG=${kubeconfigFile} kubectl get namespaces)`,
    );
  }
  const tokenFor = parts.tokenFor;
  const worker = await startAdapterWorker({
    adaptersDir: config.adaptersDir,
    apiBaseUrl: parts.apiBaseUrl,
    kubeConfig,
    queue: parts.queue,
    concurrency: config.workerConcurrency,
    env: config.adapterEnv,
    ...(options.adapterRerun ? { rerun: options.adapterRerun } : {}),
    onAdapterRun: adapterRunMetrics(metrics, options.onAdapterRun),
    ...(tokenFor ? { tokenFor } : {}),
    ...(options.adapterApiTransport !== 'http' && { apiFetch: inProcessFetch(parts.apiBaseUrl, parts.inject) }),
    log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
    onWatchTrigger: (trigger) => {
      metrics.watchTriggeredRuns.inc({ adapter: trigger.adapter });
      options.onWatchTrigger?.(trigger);
    },
    ...(options.adapterWatch === false && { watch: false }),
  });
  closers.add(() => worker.close());
  const adapters = [...worker.adapters];
  logger.info(`adapters: ${adapters.map((a) => a.name).join(', ') || '(none)'} from ${config.adaptersDir}`);
  for (const warning of adapters.flatMap((a) => a.warnings)) logger.warn(`adapter config warning: ${warning}`);
  return { adapters, ...(localKube ? { localKube } : {}), ...(worker.watches ? { watches: () => worker.watches!.statuses() } : {}) };
}
