import type { MaestroClientConfig } from '../../config/adapter-config.types.js';
import type { ResourceTransport } from '../resource-transport.port.js';
import { MaestroHttpClient, type MaestroHttpClientOptions } from './maestro-http.client.js';
import { MaestroTransport } from './maestro.transport.js';

/**
 * The `AdapterRuntimeDeps.maestro` factory for a deployment config's `clients.maestro`: one
 * HTTP client, one transport per consumer (cached for the factory's life).
 * @returns `undefined` when `http_server_address` or `source_id` is missing (maestro resources then fail).
 */
export function maestroTransports(
  config: MaestroClientConfig | undefined,
  overrides: Partial<MaestroHttpClientOptions> = {},
): ((consumer: string) => ResourceTransport) | undefined {
  const baseUrl = overrides.baseUrl ?? config?.httpServerAddress;
  const sourceId = overrides.sourceId ?? config?.sourceId;
  if (!baseUrl || !sourceId) return undefined;
  const client = new MaestroHttpClient({ ...(config?.timeoutMs !== undefined && { timeoutMs: config.timeoutMs }), ...overrides, baseUrl, sourceId });
  const byConsumer = new Map<string, MaestroTransport>();
  return (consumer) => {
    let transport = byConsumer.get(consumer);
    if (!transport) byConsumer.set(consumer, (transport = new MaestroTransport(client, consumer)));
    return transport;
  };
}
