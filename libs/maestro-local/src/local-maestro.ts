/**
 * The public face of the local Maestro-compatible server: its options and the handle tests hold
 * (URL, request log, faults, agent controls, direct reads).
 */
import type { ResourceBundle, StatusFeedbackValue } from './resource-bundle.js';
import type { RecordedMaestroRequest } from './request-log.js';
import type { MaestroFault } from './maestro-faults.js';

export interface LocalMaestroOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Consumers (target clusters) that exist from the start; default `['cluster1']`. */
  consumers?: readonly string[];
  /** Delay before the simulated agent applies a work or confirms a deletion; default 0 (next timer tick). */
  agentDelayMs?: number;
  /** Clock for `created_at` / `updated_at` / `deleted_at` and condition times; default `() => new Date()`. */
  now?: () => Date;
}

/** Which manifest of a work a status-feedback value belongs to. */
export interface ManifestSelector {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

export interface LocalMaestro {
  /** `http://127.0.0.1:PORT` — the `clients.maestro.http_server_address`. */
  readonly url: string;
  /** `127.0.0.1:PORT` of the gRPC `CloudEventService` — the `clients.maestro.grpc_server_address` (plaintext). */
  readonly grpcAddress: string;
  /** Path of the CloudEvents HTTP endpoint, relative to `url` (`/cloudevents`). */
  readonly cloudEventsPath: string;
  /** Every HTTP request answered, and every gRPC publish (method `GRPC`), in order. */
  readonly requests: readonly RecordedMaestroRequest[];
  clearRequests(): void;
  /** Injects failures into matching requests. */
  readonly faults: { add(fault: MaestroFault): void; clear(): void };
  registerConsumer(name: string): void;
  /** Open gRPC `Subscribe` streams of `source` (status is not replayed: a test waits for its stream first). */
  subscribers(source: string): number;
  /** Direct, unlogged read of a bundle by work identity (includes deleting ones), or undefined. */
  peek(source: string, consumer: string, workName: string): ResourceBundle | undefined;
  /** All bundles, in creation order (unlogged). */
  bundles(): ResourceBundle[];
  /**
   * Sets the status feedback the agent reports for one manifest of a work (like a
   * `feedbackRules` JSONPath would). @throws Error when the work or manifest does not exist.
   */
  setStatusFeedback(
    source: string,
    consumer: string,
    workName: string,
    manifest: ManifestSelector,
    values: readonly StatusFeedbackValue[],
  ): void;
  /** Holds the agent: new works stay unapplied and deletions stay pending until `resumeAgent()`. */
  pauseAgent(): void;
  resumeAgent(): void;
  /** Resolves once the agent has nothing left to do (never while paused with pending work). */
  settle(): Promise<void>;
  close(): Promise<void>;
}
