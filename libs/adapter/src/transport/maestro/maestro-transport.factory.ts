import type { MaestroClientConfig } from '../../config/adapter-config.types.js';
import type { ResourceTransport } from '../resource-transport.port.js';
import { MaestroGrpcSourceClient } from './maestro-grpc-source.client.js';
import { MaestroHttpClient, type MaestroHttpClientOptions } from './maestro-http.client.js';
import { MaestroTransport, type SpecPublisher } from './maestro.transport.js';

/** Overrides of `clients.maestro` (CLI flags, tests). */
export type MaestroTransportOverrides = Partial<MaestroHttpClientOptions> & {
  /** `host:port` of Maestro's gRPC server; replaces `grpc_server_address`. */
  readonly grpcServerAddress?: string;
};

/** The gRPC source client for `config`, or `undefined` when no gRPC address is configured. */
function grpcPublisher(
  config: MaestroClientConfig | undefined,
  address: string | undefined,
  sourceId: string,
): MaestroGrpcSourceClient | undefined {
  if (!address) return undefined;
  const tls = config?.auth?.tlsConfig;
  return new MaestroGrpcSourceClient({
    address,
    sourceId,
    insecure: config?.insecure ?? false,
    ...(config?.clientId !== undefined && { clientId: config.clientId }),
    ...(tls && {
      tls: {
        ...(tls.caFile && { caFile: tls.caFile }),
        ...(tls.certFile && { certFile: tls.certFile }),
        ...(tls.keyFile && { keyFile: tls.keyFile }),
      },
    }),
    ...(config?.keepalive && { keepalive: config.keepalive }),
    ...(config?.timeoutMs !== undefined && { timeoutMs: config.timeoutMs }),
  });
}

/**
 * The `AdapterRuntimeDeps.maestro` factory for a deployment config's `clients.maestro`: one
 * HTTP client (reads, deletes), one spec publisher — the gRPC source client when
 * `grpc_server_address` is set, else the HTTP CloudEvents fallback — and one transport per
 * consumer (cached for the factory's life).
 * @returns `undefined` when `http_server_address` or `source_id` is missing (maestro resources then fail).
 * @throws TransportError('Invalid') when the TLS config is incomplete (cert without key).
 */
export function maestroTransports(
  config: MaestroClientConfig | undefined,
  overrides: MaestroTransportOverrides = {},
): ((consumer: string) => ResourceTransport) | undefined {
  const { grpcServerAddress, ...httpOverrides } = overrides;
  const baseUrl = httpOverrides.baseUrl ?? config?.httpServerAddress;
  const sourceId = httpOverrides.sourceId ?? config?.sourceId;
  if (!baseUrl || !sourceId) return undefined;
  const client = new MaestroHttpClient({
    ...(config?.timeoutMs !== undefined && { timeoutMs: config.timeoutMs }),
    ...httpOverrides,
    baseUrl,
    sourceId,
  });
  const publisher: SpecPublisher = grpcPublisher(config, grpcServerAddress ?? config?.grpcServerAddress, sourceId) ?? client;
  const byConsumer = new Map<string, MaestroTransport>();
  return (consumer) => {
    let transport = byConsumer.get(consumer);
    if (!transport) byConsumer.set(consumer, (transport = new MaestroTransport(client, consumer, publisher)));
    return transport;
  };
}
