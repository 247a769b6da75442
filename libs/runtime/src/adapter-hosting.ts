/**
 * The contract between the API process and the adapters it may host (`decom start`): the API app defines
 * when they start (after it listens) and what it hands them; the worker app defines how they run. The
 * composition root (`decom start`) passes `@decom/worker`'s `adapterHost(...)` to `@decom/api`'s
 * `startApiProcess`; `decom api` passes none. Neither app imports the other.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import type { DecomMetrics } from '@decom/metrics';
import type { JobQueue } from '@decom/jobs';
import type { InjectRequest, WatchStatus } from '@decom/adapter';
import type { LocalKube } from '@decom/kube-local';
import type { Closers } from './closers.js';

/** What the API process hands its hosted adapters once it listens. */
export interface AdapterHostingContext {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly metrics: DecomMetrics;
  /** KUBECONFIG's cluster, or an empty config the host fills with the bundled server's. */
  readonly kubeConfig: KubeConfig;
  readonly queue: JobQueue;
  /** The API's base URL as the adapters call it. */
  readonly apiBaseUrl: string;
  /** The API's request pipeline (Fastify's `inject`): in-process calls without a loopback socket. */
  readonly inject: InjectRequest;
  /** Each adapter's token source when the API mints tokens itself (embedded issuer, JWT on). */
  readonly tokenFor?: (adapter: string) => () => Promise<string>;
  /** What the host opens is closed with the process, in reverse order. */
  readonly closers: Closers;
}

/** What the hosted adapters are, as the API process reads them (dispatch, `/readyz`, Kubernetes recovery). */
export interface HostedAdapters {
  readonly adapters: readonly { readonly name: string }[];
  /** The bundled Kubernetes API server, when no KUBECONFIG was given. */
  readonly localKube?: LocalKube;
  /** The adapters' Kubernetes watches: information in `/readyz`, never a condition. */
  readonly watches?: () => WatchStatus[];
}

/** Hosts adapters inside an API process (role `all`). */
export interface AdapterHost {
  /**
   * Checks the adapter configs, before a port opens or a store is touched.
   * @throws the load error naming the file at fault.
   */
  checkConfigs(config: AppConfig): Promise<void>;
  /** Starts the adapters on the queue; what it opens goes to `context.closers`. */
  start(context: AdapterHostingContext): Promise<HostedAdapters>;
}
