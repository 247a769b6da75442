/**
 * The adapter-run side of Decom (`decom worker`, and the adapter half of `decom start`): loads the adapters
 * of a folder, optionally only some, and registers one processor per adapter queue. Adapters reach the API
 * over HTTP (`apiBaseUrl`, DECOM_API_URL) and Kubernetes through `kubeConfig`, like any HyperFleet adapter.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { JobQueue } from '@decom/jobs';
import { loadAdapters, type AdapterHostOptions, type HostedAdapter } from './adapter-host.js';
import { AdapterRunProcessor, type AdapterRunObserver, type AdapterRunTiming } from './processors/adapter-run.processor.js';
import { startAdapterWatches, type AdapterWatches, type AdapterWatchesOptions } from './watch/adapter-watches.js';

export interface AdapterWorkerOptions {
  readonly adaptersDir: string;
  /** Only these adapters (default: every adapter of the folder). */
  readonly only?: readonly string[];
  readonly apiBaseUrl: string;
  readonly kubeConfig: KubeConfig;
  readonly queue: JobQueue;
  /** Runs at once per adapter in this process. */
  readonly concurrency: number;
  /** Re-run delays while work is in progress (default 250 ms doubling to 15 s). */
  readonly rerun?: AdapterRunTiming;
  readonly onAdapterRun?: AdapterRunObserver;
  /** API tokens of adapters without a token file (embedded minting). */
  readonly tokenFor?: AdapterHostOptions['tokenFor'];
  /** How the adapters reach the API (default HTTP; `decom start` passes its in-process pipeline). */
  readonly apiFetch?: AdapterHostOptions['apiFetch'];
  /** The adapters' process environment (AppConfig.adapterEnv, as HyperFleet adapters read it). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Watch the objects the adapters manage and run an adapter as soon as one of its objects changes
   * (default true). False: re-runs by backoff only.
   */
  readonly watch?: boolean;
  /** Where the watches log their state changes. */
  readonly log?: AdapterWatchesOptions['log'];
  readonly onWatchTrigger?: AdapterWatchesOptions['onTrigger'];
}

export interface AdapterWorker {
  readonly adapters: readonly HostedAdapter[];
  /** The watches (absent with `watch: false`). */
  readonly watches?: AdapterWatches;
  /** Stops the watches (the queue's `close()` stops the runs). */
  close(): Promise<void>;
}

/** `--adapters` named an adapter the folder does not hold. */
export class UnknownAdapter extends Error {
  override readonly name = 'UnknownAdapter';
}

/**
 * @throws UnknownAdapter for a name in `only` without a task config; TaskConfigError for a bad config.
 * @returns the hosted adapters and their watches; the queue's `close()` stops the runs, `close()` the watches.
 */
export async function startAdapterWorker(options: AdapterWorkerOptions): Promise<AdapterWorker> {
  const adapters = await loadAdapters(options.adaptersDir, {
    apiBaseUrl: options.apiBaseUrl,
    kubeConfig: options.kubeConfig,
    ...(options.only ? { only: options.only } : {}),
    ...(options.tokenFor ? { tokenFor: options.tokenFor } : {}),
    ...(options.apiFetch ? { apiFetch: options.apiFetch } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  const missing = (options.only ?? []).filter((name) => !adapters.some((a) => a.name === name));
  if (missing.length > 0) throw new UnknownAdapter(`no task config for adapter(s) ${missing.join(', ')} in ${options.adaptersDir}`);
  const rerun = options.rerun ?? { baseDelayMs: 250, maxDelayMs: 15_000 };
  const watches =
    options.watch === false
      ? undefined
      : startAdapterWatches({
          kubeConfig: options.kubeConfig,
          adapters,
          queue: options.queue,
          ...(options.log && { log: options.log }),
          ...(options.onWatchTrigger && { onTrigger: options.onWatchTrigger }),
        });
  for (const adapter of adapters) {
    new AdapterRunProcessor({
      adapter,
      queue: options.queue,
      timing: rerun,
      ...(options.onAdapterRun && { observe: options.onAdapterRun }),
      ...(watches && { triggers: watches.triggers }),
    }).register(options.concurrency);
  }
  return { adapters, ...(watches && { watches }), close: async () => watches?.stop() };
}
