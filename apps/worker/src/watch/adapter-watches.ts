/**
 * The watches of one process's adapters: one `ObjectWatch` per (kind, namespace scope) the
 * hosted adapters' task configs use (watch-scopes.ts), label-selected by `decom.io/managed-by`, feeding
 * one `WatchTriggers`. Both `decom start` (in-process queue, or BullMQ) and `decom worker` run them
 * for the adapters they host. Maestro resources are not watched (their ManifestWork status feed would
 * be the analogue): their adapters keep to the backoff re-runs.
 * A watch down is logged once when it fails and once when it is back; it never stops a process nor
 * makes it unready: the backoff re-runs do the work meanwhile.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { ObjectWatch, watchScopes, type WatchStatus } from '@decom/adapter';
import type { JobQueue } from '@decom/jobs';
import type { HostedAdapter } from '../adapter-host.js';
import { WatchTriggers, type WatchTriggerObserver } from './watch-triggers.js';

export interface AdapterWatchesOptions {
  readonly kubeConfig: KubeConfig;
  readonly adapters: readonly HostedAdapter[];
  readonly queue: JobQueue;
  /** One line per watch state change (`info` when running, `warn` when failing). */
  readonly log?: { info(message: string): void; warn(message: string): void };
  readonly onTrigger?: WatchTriggerObserver;
  /** Restart backoff of a failed watch (default 200 ms doubling to 30 s). */
  readonly backoff?: { readonly baseMs: number; readonly capMs: number };
}

export interface AdapterWatches {
  readonly triggers: WatchTriggers;
  /** Each watch's state, for `/readyz` (information only) and metrics. */
  statuses(): WatchStatus[];
  stop(): Promise<void>;
}

export function startAdapterWatches(options: AdapterWatchesOptions): AdapterWatches {
  const triggers = new WatchTriggers(options.queue, new Set(options.adapters.map((a) => a.name)), options.onTrigger);
  const scopes = watchScopes(options.adapters.map((a) => ({ name: a.name, task: a.task })));
  const watches = scopes.map(
    (scope) =>
      new ObjectWatch(options.kubeConfig, scope, (change) => triggers.onChange(change), {
        ...(options.backoff && { baseMs: options.backoff.baseMs, capMs: options.backoff.capMs }),
        onStateChange: (status, previous) => {
          if (status.state === 'running') {
            options.log?.info(
              `watch ${status.name} [${status.label_selector}] ${previous === 'retrying' ? 'running again' : 'running'} (resourceVersion ${status.resource_version ?? '?'})`,
            );
          } else if (status.state === 'retrying') {
            options.log?.warn(
              `watch ${status.name} [${status.label_selector}] down, retrying with backoff (adapters fall back to re-runs meanwhile): ${status.error ?? ''}`,
            );
          }
        },
      }),
  );
  for (const watch of watches) watch.start();
  return {
    triggers,
    statuses: () => watches.map((w) => w.status()),
    stop: async () => {
      await Promise.all(watches.map((w) => w.stop()));
    },
  };
}
