import type { HyperfleetApiClientOptions } from '../api-client/hyperfleet-api.types.js';

/**
 * Deployment-level adapter config (HyperFleet's AdapterConfig): who the adapter is and how it
 * reaches the HyperFleet API and Kubernetes. Business logic lives in the task config.
 * Durations are milliseconds. `clients.hyperfleet_api.base_url` may be omitted: the engine
 * that hosts the adapter supplies its own API address.
 * @see HyperFleet: hyperfleet-adapter docs/configuration.md.
 */
export interface AdapterDeploymentConfig {
  readonly file: string;
  readonly adapter: { readonly name: string; readonly version?: string };
  readonly debugConfig: boolean;
  readonly log: {
    readonly level?: 'debug' | 'info' | 'warn' | 'error';
    readonly format?: 'text' | 'json';
    readonly output?: 'stdout' | 'stderr';
  };
  readonly clients: {
    readonly hyperfleetApi: Omit<HyperfleetApiClientOptions, 'baseUrl'> & {
      readonly baseUrl?: string;
      readonly auth?: { readonly tokenPath?: string; readonly tokenCacheTtlMs?: number };
    };
    readonly kubernetes?: {
      readonly apiVersion?: string;
      /** `undefined` = in-cluster / engine-provided. */
      readonly kubeConfigPath?: string;
      readonly qps?: number;
      readonly burst?: number;
    };
    /**
     * Maestro (`transport.client: maestro`): reads and deletes via `http_server_address`; specs via
     * the gRPC source client when `grpc_server_address` is set (TLS, keepalive, client_id apply),
     * else via the CloudEvents HTTP binding (docs/adapter-maestro.md).
     */
    readonly maestro?: MaestroClientConfig;
    /** Accepted for HyperFleet compatibility; Decom dispatches through its own job queue. */
    readonly broker?: { readonly subscriptionId?: string; readonly topic?: string };
  };
}

/** `clients.maestro` of a deployment config (durations in milliseconds). */
export interface MaestroClientConfig {
  readonly grpcServerAddress?: string;
  readonly httpServerAddress?: string;
  /** CloudEvents `source` of every ManifestWork this adapter owns; part of each work's id. */
  readonly sourceId?: string;
  readonly clientId?: string;
  readonly auth?: {
    readonly type?: 'tls' | 'none';
    readonly tlsConfig?: { readonly caFile?: string; readonly certFile?: string; readonly keyFile?: string; readonly httpCaFile?: string };
  };
  readonly timeoutMs?: number;
  readonly serverHealthinessTimeoutMs?: number;
  readonly retryAttempts?: number;
  readonly keepalive?: { readonly timeMs?: number; readonly timeoutMs?: number };
  readonly insecure: boolean;
}
