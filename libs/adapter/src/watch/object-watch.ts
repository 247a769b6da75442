/**
 * One Kubernetes watch of the objects some adapters manage: `@kubernetes/client-node`'s
 * informer (`makeInformer`: list, then watch from the list's resourceVersion) for one kind in one
 * namespace scope, label-selected (watch-scopes.ts), reporting each change as ADDED / MODIFIED / DELETED.
 *
 * Robustness, on top of what the 1.4.0 informer does itself (it relists after a 410 Gone, whether sent
 * as the HTTP status or as an ERROR event, and re-watches from the last resourceVersion when the server
 * closes the stream cleanly):
 * - any other end (connection reset, server down, 403, a kind not served, a failed list) stops the
 *   informer: it is started again after a capped jittered backoff (`baseMs` doubling to `capMs`),
 *   resuming from the last resourceVersion it saw (a relist only if that one is gone: 410);
 * - a watch that never starts is retried the same way, forever; `onStateChange` is called once per
 *   change of state (`starting → running → retrying → running …`), so a caller logs once, not per try.
 * A watch down loses no work: the adapters' backoff re-runs and the sweeper still run everything.
 * Objects that changed while the watch was down are reported after it is back: the informer's relist
 * reports what appeared, changed or vanished (as ADDED / MODIFIED / DELETED).
 */
import { makeInformer, type KubeConfig, type KubernetesObject, type KubernetesListObject } from '@kubernetes/client-node';
import type { KubeObject } from '../transport/resource-transport.port.js';
import { RawKubernetesObjectApi } from '../transport/kubernetes/raw-object-api.js';
import { describeScope, type WatchScope } from './watch-scopes.js';

export type WatchChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ObjectChange {
  readonly type: WatchChangeType;
  readonly object: KubeObject;
}

export type WatchState = 'starting' | 'running' | 'retrying' | 'stopped';

/** What `/readyz` shows of one watch (information only: a watch down does not make a process unready). */
export interface WatchStatus {
  /** `v1 ConfigMap (all namespaces)`. */
  readonly name: string;
  readonly label_selector: string;
  readonly state: WatchState;
  /** RFC 3339: when `state` was entered. */
  readonly since: string;
  /** Why the last start failed or the watch ended, while `retrying`. */
  readonly error?: string;
  /** Times the watch was started again after it ended or failed. */
  readonly restarts: number;
  /** Full lists (the first one, and one after every 410 Gone). */
  readonly lists: number;
  /** Changes delivered. */
  readonly events: number;
  /** The last resourceVersion seen (list or event). */
  readonly resource_version?: string;
}

export interface ObjectWatchOptions {
  /** First restart delay, in ms (default 200). */
  readonly baseMs?: number;
  /** Cap of the restart delay, in ms (default 30 s). */
  readonly capMs?: number;
  /** `(status, previous)` once per change of state. */
  readonly onStateChange?: (status: WatchStatus, previous: WatchState) => void;
  /** [0,1) source of the backoff's jitter. */
  readonly random?: () => number;
  readonly now?: () => Date;
}

/** One line for a failed list or watch: `403 Forbidden`, `connect ECONNREFUSED 127.0.0.1:1234`. */
export function describeWatchError(error: unknown): string {
  const e = error as { statusCode?: unknown; code?: unknown; message?: unknown; body?: unknown };
  const status = typeof e.statusCode === 'number' ? e.statusCode : typeof e.code === 'number' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message.split('\n')[0]! : String(error);
  if (status === 403) return `403 Forbidden: the credentials may not list/watch this kind (RBAC)`;
  if (status === 404) return `404 Not Found: the server does not serve this kind`;
  if (status !== undefined) return `${status} ${message}`;
  return message;
}

/** The REST path of a kind's collection in a namespace scope: `/api/v1/namespaces/x/configmaps`. */
function collectionPath(apiVersion: string, plural: string, namespaced: boolean, namespace: string | undefined): string {
  const root = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return `${root}${namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${plural}`;
}

export class ObjectWatch {
  private state: WatchState = 'starting';
  private since: Date;
  private error: string | undefined;
  private restarts = 0;
  private lists = 0;
  private events = 0;
  private failures = 0;
  private informer: ReturnType<typeof makeInformer<KubernetesObject>> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly api: RawKubernetesObjectApi;
  private readonly baseMs: number;
  private readonly capMs: number;
  private readonly random: () => number;
  private readonly now: () => Date;

  constructor(
    private readonly kubeConfig: KubeConfig,
    readonly scope: WatchScope,
    private readonly onChange: (change: ObjectChange) => void,
    private readonly options: ObjectWatchOptions = {},
  ) {
    this.api = RawKubernetesObjectApi.fromKubeConfig(kubeConfig);
    this.baseMs = options.baseMs ?? 200;
    this.capMs = options.capMs ?? 30_000;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? (() => new Date());
    this.since = this.now();
  }

  /** Starts the watch in the background (never throws: failures are retried, see the file's docstring). */
  start(): void {
    this.stopped = false;
    void this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.informer?.stop();
    this.enter('stopped');
  }

  status(): WatchStatus {
    // The informer (ListWatch) keeps the last resourceVersion it saw; its public type does not say so.
    const rv = (this.informer as { latestResourceVersion?: () => string } | undefined)?.latestResourceVersion?.();
    return {
      name: describeScope(this.scope),
      label_selector: this.scope.labelSelector,
      state: this.state,
      since: this.since.toISOString(),
      ...(this.error !== undefined && this.state === 'retrying' && { error: this.error }),
      restarts: this.restarts,
      lists: this.lists,
      events: this.events,
      ...(rv ? { resource_version: rv } : {}),
    };
  }

  private enter(state: WatchState, error?: string): void {
    this.error = error;
    if (state === this.state) return;
    const previous = this.state;
    this.state = state;
    this.since = this.now();
    this.options.onStateChange?.(this.status(), previous);
  }

  /** One start of the informer (the first, or a restart after it ended); on failure the next is scheduled. */
  private async attempt(): Promise<void> {
    if (this.stopped) return;
    try {
      if (!this.informer) this.informer = await this.makeInformer();
      let failed = false;
      const onError = (error: unknown) => {
        if (failed || this.stopped) return;
        failed = true;
        this.informer?.off('error', onError);
        this.retry(error);
      };
      this.informer.on('error', onError);
      await this.informer.start();
      // start() resolves once the watch request was answered; an error before then already called onError.
      if (!failed && !this.stopped) {
        this.failures = 0;
        this.enter('running');
      }
    } catch (error) {
      this.retry(error);
    }
  }

  private retry(error: unknown): void {
    if (this.stopped) return;
    this.failures += 1;
    this.enter('retrying', describeWatchError(error));
    const raw = Math.min(this.capMs, this.baseMs * 2 ** Math.min(this.failures - 1, 30));
    const delayMs = Math.round(raw * (0.8 + 0.4 * this.random()));
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.restarts += 1;
      void this.attempt();
    }, delayMs);
    this.timer.unref?.();
  }

  /**
   * The informer of this scope: the kind's plural and scope from the server's discovery (a kind not
   * served throws, and is retried: a CRD may be installed later).
   */
  private async makeInformer() {
    const { apiVersion, kind, namespace, labelSelector } = this.scope;
    const info = await this.api.kindInfo(apiVersion, kind);
    if (!info) throw Object.assign(new Error(`the server does not serve ${apiVersion} ${kind}`), { statusCode: 404 });
    const path = collectionPath(apiVersion, info.name, info.namespaced, namespace);
    const list = async (): Promise<KubernetesListObject<KubernetesObject>> => {
      const answer = (await this.api.list(
        apiVersion,
        kind,
        info.namespaced ? namespace : undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        labelSelector,
      )) as KubernetesListObject<KubernetesObject>;
      this.lists += 1;
      return answer;
    };
    const informer = makeInformer<KubernetesObject>(this.kubeConfig, path, list as never, labelSelector);
    const deliver = (type: WatchChangeType) => (object: KubernetesObject) => {
      this.events += 1;
      // Built-in kinds omit apiVersion/kind on list items: put them back so every change names its object.
      this.onChange({
        type,
        object: { ...(object as unknown as KubeObject), apiVersion: object.apiVersion ?? apiVersion, kind: object.kind ?? kind },
      });
    };
    informer.on('add', deliver('ADDED'));
    informer.on('update', deliver('MODIFIED'));
    informer.on('delete', deliver('DELETED'));
    return informer;
  }
}
