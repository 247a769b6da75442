/**
 * Loads the adapters of a folder: every `<name>.yaml` is a HyperFleet task config run as adapter `<name>`;
 * an optional `<name>.adapter.yaml` beside it is its deployment config (adapter name/version, API client
 * timeouts and retries). The engine supplies the API base URL and the Kubernetes connection.
 */
import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  AdapterExecutor,
  HttpHyperfleetApiClient,
  KubernetesTransport,
  loadAdapterConfigFile,
  loadTaskConfigFile,
  maestroTransports,
  type HyperfleetApiClient,
} from '@decom/adapter';

export interface HostedAdapter {
  readonly name: string;
  readonly file: string;
  readonly executor: AdapterExecutor;
  readonly api: HyperfleetApiClient;
}

export interface AdapterHostOptions {
  readonly apiBaseUrl: string;
  readonly kubeConfig: KubeConfig;
  /** Only these adapters (default: all in the folder). */
  readonly only?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** @throws TaskConfigError / AdapterConfigError with every `file:line:column field: message` problem. */
export async function loadAdapters(dir: string, options: AdapterHostOptions): Promise<HostedAdapter[]> {
  const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f) && !/\.adapter\.ya?ml$/.test(f)).sort();
  const transport = new KubernetesTransport(options.kubeConfig);
  const hosted: HostedAdapter[] = [];
  for (const file of files) {
    const name = basename(file).replace(/\.ya?ml$/, '');
    if (options.only && !options.only.includes(name)) continue;
    const path = join(dir, file);
    const task = await loadTaskConfigFile(path);
    const deploymentFile = [join(dir, `${name}.adapter.yaml`), join(dir, `${name}.adapter.yml`)].find((f) => existsSync(f));
    const deployment = deploymentFile ? await loadAdapterConfigFile(deploymentFile) : undefined;
    const api = new HttpHyperfleetApiClient({
      ...(deployment?.clients.hyperfleetApi ?? {}),
      baseUrl: deployment?.clients.hyperfleetApi.baseUrl ?? options.apiBaseUrl,
      defaultHeaders: { 'x-hyperfleet-identity': `adapter:${name}`, ...(deployment?.clients.hyperfleetApi.defaultHeaders ?? {}) },
    });
    const adapterName = deployment?.adapter.name ?? name;
    const executor = new AdapterExecutor(task, { name: adapterName, ...(deployment?.adapter.version ? { version: deployment.adapter.version } : {}) }, {
      api,
      transport,
      ...(deployment?.clients.maestro && { maestro: maestroTransports(deployment.clients.maestro) }),
      ...(options.env ? { env: options.env } : {}),
    });
    hosted.push({ name: adapterName, file: path, executor, api });
  }
  return hosted;
}
