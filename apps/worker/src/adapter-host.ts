/**
 * Loads the adapters of a folder: every `<name>.yaml` is a HyperFleet task config run as adapter `<name>`;
 * an optional `<name>.adapter.yaml` beside it is its deployment config (adapter name/version, API client
 * timeouts and retries). The engine supplies the API base URL and the Kubernetes connection.
 */
import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  AdapterExecutor,
  HttpHyperfleetApiClient,
  KubernetesTransport,
  loadAdapterConfigFile,
  loadTaskConfigFile,
  maestroTransports,
  tokenFileSource,
  type BearerTokenSource,
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
  /**
   * The API token of an adapter without `clients.hyperfleet_api.auth.token_path` (the embedded engine mints
   * short-lived tokens for the adapters it hosts: docs/security.md).
   */
  readonly tokenFor?: (adapter: string) => BearerTokenSource | undefined;
}

/** Every adapter config problem of a folder, one `file:line:column field: message` line each. */
export class AdapterConfigsInvalid extends Error {
  override readonly name = 'AdapterConfigsInvalid';
  constructor(readonly problems: readonly string[]) {
    super(`invalid adapter configuration:\n${problems.join('\n')}`);
  }
}

/**
 * Parses every task and deployment config of `dir` without starting anything, so a broken config stops a
 * start before any port opens. @throws AdapterConfigsInvalid listing every problem of every file.
 */
export async function checkAdapterConfigs(dir: string, only?: readonly string[]): Promise<void> {
  const problems: string[] = [];
  for (const file of (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    const deployment = /\.adapter\.ya?ml$/.test(file);
    const name = basename(file).replace(/(\.adapter)?\.ya?ml$/, '');
    if (only && !only.includes(name)) continue;
    try {
      await (deployment ? loadAdapterConfigFile(join(dir, file)) : loadTaskConfigFile(join(dir, file)));
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (problems.length > 0) throw new AdapterConfigsInvalid(problems);
}

/**
 * Loads every adapter of `dir` (all files are checked before any adapter starts).
 * @throws AdapterConfigsInvalid listing every problem of every file.
 */
export async function loadAdapters(dir: string, options: AdapterHostOptions): Promise<HostedAdapter[]> {
  const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f) && !/\.adapter\.ya?ml$/.test(f)).sort();
  const transport = new KubernetesTransport(options.kubeConfig);
  const hosted: HostedAdapter[] = [];
  const problems: string[] = [];
  const attempt = async <T>(load: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await load();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
  for (const file of files) {
    const name = basename(file).replace(/\.ya?ml$/, '');
    if (options.only && !options.only.includes(name)) continue;
    const path = join(dir, file);
    const task = await attempt(() => loadTaskConfigFile(path));
    const deploymentFile = [join(dir, `${name}.adapter.yaml`), join(dir, `${name}.adapter.yml`)].find((f) => existsSync(f));
    const deployment = deploymentFile ? await attempt(() => loadAdapterConfigFile(deploymentFile)) : undefined;
    if (!task || (deploymentFile && !deployment)) continue;
    const tokenPath = deployment?.clients.hyperfleetApi.auth?.tokenPath;
    const bearerToken = tokenPath ? tokenFileSource(resolve(dirname(deploymentFile!), tokenPath)) : options.tokenFor?.(deployment?.adapter.name ?? name);
    const api = new HttpHyperfleetApiClient({
      ...(deployment?.clients.hyperfleetApi ?? {}),
      ...(bearerToken ? { bearerToken } : {}),
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
  if (problems.length > 0) throw new AdapterConfigsInvalid(problems);
  return hosted;
}
