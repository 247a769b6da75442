/**
 * The public face of the local Kubernetes API server: its options and the handle tests and the
 * embedded profile hold (URL, kubeconfig, request log, faults, controller hooks).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { FaultInjector } from './faults.js';
import type { KindRegistration } from './kinds.js';
import type { StoreChange } from './object-store.js';
import type { RecordedKubeRequest, RequestFilter } from './request-log.js';

/**
 * The controller delay test suites run the bundled server with: 50–300 ms, drawn per pass. A namespace
 * with content, or a Foreground chain, then takes a few passes to go, so a client sees the
 * intermediate states (Terminating, foregroundDeletion) a real cluster shows for seconds.
 */
export const REALISTIC_CONTROLLER_DELAY_MS = { min: 50, max: 300 } as const;

export interface LocalKubeOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /**
   * Delay before each garbage-collector / namespace-controller pass, ms: a number, or `{ min, max }`
   * to draw each pass's delay from (jitter, as real controllers' timing varies). Default 0 (the next
   * timer tick: benchmarks and tests that say so); test suites use `REALISTIC_CONTROLLER_DELAY_MS`
   * so that clients exercise their wait and re-run paths. @throws RangeError (from `startLocalKube`) when negative or `max < min`.
   */
  controllerDelayMs?: number | { readonly min: number; readonly max: number };
  /**
   * Milliseconds a client may take to send a whole request before the server answers 408 and closes the
   * connection (default 60,000, kube-apiserver's `--request-timeout`).
   */
  requestTimeoutMs?: number;
  /**
   * Entries kept in `requests` and in `changes` each, oldest dropped (default unlimited: tests assert on
   * whole histories; 0 keeps none). The embedded engine sets one so a long-running engine does not grow forever.
   */
  historyLimit?: number;
  /** Events kept per Event kind (oldest dropped), in place of kube-apiserver's `--event-ttl`; default 1000. */
  maxEvents?: number;
  /** Clock for timestamps; default `() => new Date()`. */
  now?: () => Date;
  /** Source of `metadata.uid`; default `randomUUID`. */
  newUid?: () => string;
  /**
   * Changes kept for watches resuming from a `resourceVersion` (default 10,000); a watch from an
   * older one gets `410 Expired` (tests set it low to force a relist).
   */
  watchWindow?: number;
  /** Period of BOOKMARK events on watches with `allowWatchBookmarks=true`, ms; default 60,000. */
  watchBookmarkIntervalMs?: number;
  /**
   * A watch without `timeoutSeconds` is ended after a random time between this and twice this,
   * in seconds (kube-apiserver's `--min-request-timeout`); default 1800.
   */
  minRequestTimeoutSeconds?: number;
}

export interface LocalKube {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** A `KubeConfig` pointing at this server (context namespace `default`). */
  kubeConfig(): KubeConfig;
  /** A kubeconfig file's content pointing at this server. */
  kubeconfigYaml(): string;
  /** Every HTTP request answered (or reset), in the order it took effect. */
  readonly requests: readonly RecordedKubeRequest[];
  requestsMatching(filter: RequestFilter): RecordedKubeRequest[];
  /** Forgets recorded requests (sequence numbers keep counting). */
  clearRequests(): void;
  /** Every store change (ADDED / MODIFIED / DELETED), including the controllers', ordered by resourceVersion. */
  readonly changes: readonly StoreChange[];
  readonly faults: FaultInjector;
  /** Serves a CRD-like kind from now on (discovery included). @throws Error if its plural is taken. */
  registerKind(def: KindRegistration): void;
  /** Direct, unlogged read of the current object (for assertions), or undefined. */
  peek(apiVersion: string, kind: string, namespace: string | undefined, name: string): Record<string, unknown> | undefined;
  /**
   * Creates an object without going through HTTP (unlogged), as fixtures do; a namespaced object
   * without `metadata.namespace` goes to `default`. @throws KubeStatusError as a POST would fail.
   */
  seed(object: Record<string, unknown>): Record<string, unknown>;
  /** Writes `status` like a controller through the status subresource (unlogged). @throws KubeStatusError 404. */
  setStatus(apiVersion: string, kind: string, namespace: string | undefined, name: string, status: unknown): Record<string, unknown>;
  /**
   * Removes one finalizer (or all, when omitted) like the controller owning it would (unlogged);
   * a marked object left without finalizers is removed. @throws KubeStatusError 404.
   */
  removeFinalizer(apiVersion: string, kind: string, namespace: string | undefined, name: string, finalizer?: string): void;
  /** Resolves once the garbage collector and namespace controller have nothing left to do. */
  settle(): Promise<void>;
  /** Holds controller passes (to observe intermediate states) until `resumeControllers()`. */
  pauseControllers(): void;
  resumeControllers(): void;
  /** Drops every open watch connection (clients see the stream break, as when a proxy cuts it); returns how many. */
  dropWatches(): number;
  /** Stops listening and drops open connections, watches included: clients get ECONNREFUSED. State is kept. */
  stopListening(): Promise<void>;
  /** Listens again on the same port. */
  startListening(): Promise<void>;
  close(): Promise<void>;
}
