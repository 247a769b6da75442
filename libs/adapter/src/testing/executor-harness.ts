import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from '@decom/kube-local';
import { startLocalMaestro, type LocalMaestro } from '@decom/maestro-local';
import { HttpHyperfleetApiClient } from '../api-client/hyperfleet-api.client.js';
import { loadTaskConfigFile, parseTaskConfig } from '../config/task-config.parser.js';
import type { TaskConfig } from '../config/task-config.types.js';
import { AdapterExecutor, type AdapterRuntimeDeps } from '../executor/adapter-executor.js';
import { ownerMark, withOwner } from '../executor/ownership.js';
import { KubernetesTransport } from '../transport/kubernetes/kubernetes.transport.js';
import type { KubeObject } from '../transport/resource-transport.port.js';
import { maestroTransports } from '../transport/maestro/maestro-transport.factory.js';
import { RecordedApiServer } from './recorded-api-server.js';

/** `object` carrying the ownership marker of `event`'s resource and `adapter`, as if that adapter had created it. */
export function ownedBy<T extends Record<string, unknown>>(object: T, event: { kind: string; id: string }, adapter: string): T {
  return withOwner(object as unknown as KubeObject, ownerMark(event, adapter)) as unknown as T;
}

/** Fixed clock of executor tests (a real clock implementation, just a constant one). */
export const FIXED_NOW = new Date('2026-03-25T10:00:00Z');

/** `clients.maestro.source_id` of harness executors. */
export const MAESTRO_SOURCE = 'hyperfleet-adapter';

/**
 * A real local Kubernetes API server, a local Maestro-compatible server (consumer `cluster1`) and
 * a recorded-response HyperFleet API server, and executors wired to all three over HTTP. The Kubernetes server's
 * controllers run with a realistic jittered delay, so executors meet the intermediate states. Close it
 * in `afterEach`.
 */
export class ExecutorHarness {
  private constructor(
    readonly kube: LocalKube,
    readonly api: RecordedApiServer,
    readonly maestro: LocalMaestro,
  ) {}

  static async start(): Promise<ExecutorHarness> {
    const [kube, api, maestro] = await Promise.all([
      startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS }),
      new RecordedApiServer().start(),
      startLocalMaestro({ consumers: ['cluster1'] }),
    ]);
    return new ExecutorHarness(kube, api, maestro);
  }

  /** An executor for a task config (a file path, or inline YAML when it contains a newline). */
  async executor(config: string | TaskConfig, adapterName: string, deps: Partial<AdapterRuntimeDeps> = {}): Promise<AdapterExecutor> {
    const task =
      typeof config !== 'string' ? config : config.includes('\n') ? parseTaskConfig(config, 'test.yaml') : await loadTaskConfigFile(config);
    return new AdapterExecutor(
      task,
      { name: adapterName },
      {
        api: new HttpHyperfleetApiClient({ baseUrl: this.api.url, retryAttempts: 1 }),
        transport: new KubernetesTransport(this.kube.kubeConfig()),
        maestro: maestroTransports(undefined, { baseUrl: this.maestro.url, sourceId: MAESTRO_SOURCE }),
        now: () => FIXED_NOW,
        recreateWait: { timeoutMs: 2_000, intervalMs: 20 },
        ...deps,
      },
    );
  }

  /**
   * An executor for `config` with what hosts it (the worker's `HostedAdapter` fields but `task`): its name,
   * `file` = `inline`, and the API client it reports through.
   */
  async hostedAdapter(config: string | TaskConfig, adapterName: string) {
    const api = new HttpHyperfleetApiClient({ baseUrl: this.api.url, retryAttempts: 1 });
    const executor = await this.executor(config, adapterName, { api });
    return { name: adapterName, file: 'inline', executor, api, warnings: [] as string[] };
  }

  /** Kinds of the DELETE requests the Kubernetes server received, in order. */
  deletedKinds(): string[] {
    return this.kube.requestsMatching({ method: 'DELETE' }).map((r) => `${r.kind}/${r.name}`);
  }

  async close(): Promise<void> {
    await Promise.all([this.kube.close(), this.api.close(), this.maestro.close()]);
  }
}
