/**
 * Loads the adapters of a folder: every `<name>.yaml` is a HyperFleet task config run as adapter `<name>`;
 * an optional `<name>.adapter.yaml` beside it is its deployment config (adapter name/version, API client
 * timeouts and retries). HyperFleet's layout works too: a sub-folder per adapter with
 * `adapter-task-config.yaml` and `adapter-config.yaml` (listAdapterFiles). The engine supplies the API
 * base URL and the Kubernetes connection.
 */
import { dirname, resolve } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  AdapterExecutor,
  HttpHyperfleetApiClient,
  KubernetesTransport,
  formatConfigIssue,
  listAdapterFiles,
  loadAdapterConfigFile,
  loadTaskConfigFile,
  unsetRequiredEnv,
  maestroTransports,
  tokenFileSource,
  type BearerTokenSource,
  type FetchLike,
  type HyperfleetApiClient,
  type TaskConfig,
} from '@decom/adapter';

export interface HostedAdapter {
  readonly name: string;
  readonly file: string;
  readonly executor: AdapterExecutor;
  /** Its task config (what its watches cover: watch-scopes.ts). */
  readonly task: TaskConfig;
  readonly api: HyperfleetApiClient;
  /** Load warnings to log (`file:line:column ...`): unknown CEL variables, unset required `env.` sources. */
  readonly warnings: readonly string[];
}

export interface AdapterHostOptions {
  readonly apiBaseUrl: string;
  readonly kubeConfig: KubeConfig;
  /** Only these adapters (default: all in the folder). */
  readonly only?: readonly string[];
  /**
   * The adapters' process environment (AppConfig.adapterEnv): `env.X` params, the `env` CEL variable and
   * the `HYPERFLEET_*` overrides of deployment configs (hyperfleet-adapter `docs/configuration.md`). Default: empty.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The API token of an adapter without `clients.hyperfleet_api.auth.token_path` (the embedded engine mints
   * short-lived tokens for the adapters it hosts: docs/security.md).
   */
  readonly tokenFor?: (adapter: string) => BearerTokenSource | undefined;
  /**
   * How the adapters' API client sends its requests (default: HTTP). The engine that serves the API itself
   * passes `inProcessFetch`, which enters the same request pipeline without a socket.
   */
  readonly apiFetch?: FetchLike;
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
export async function checkAdapterConfigs(
  dir: string,
  only?: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  apiBaseUrl?: string,
): Promise<void> {
  const problems: string[] = [];
  const check = async (load: () => Promise<unknown>) => {
    try {
      await load();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  };
  const { adapters, orphans } = await listAdapterFiles(dir);
  for (const files of adapters) {
    if (only && !only.includes(files.name)) continue;
    await check(() => loadTaskConfigFile(files.taskFile));
    if (files.deploymentFile) await check(() => loadAdapterConfigFile(files.deploymentFile!, env, apiOptions(apiBaseUrl)));
  }
  for (const orphan of orphans) {
    const name = orphan.replace(/^.*\//, '').replace(/\.adapter\.ya?ml$/, '');
    if (!only || only.includes(name)) await check(() => loadAdapterConfigFile(orphan, env, apiOptions(apiBaseUrl)));
  }
  if (problems.length > 0) throw new AdapterConfigsInvalid(problems);
}

/**
 * Loads every adapter of `dir` (all files are checked before any adapter starts).
 * @throws AdapterConfigsInvalid listing every problem of every file.
 */
export async function loadAdapters(dir: string, options: AdapterHostOptions): Promise<HostedAdapter[]> {
  const { adapters } = await listAdapterFiles(dir);
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
  for (const { name, taskFile: path, deploymentFile } of adapters) {
    if (options.only && !options.only.includes(name)) continue;
    const task = await attempt(() => loadTaskConfigFile(path));
    const deployment = deploymentFile
      ? await attempt(() => loadAdapterConfigFile(deploymentFile, options.env ?? {}, apiOptions(options.apiBaseUrl)))
      : undefined;
    if (!task || (deploymentFile && !deployment)) continue;
    const adapterName = deployment?.adapter.name ?? name;
    const tokenPath = deployment?.clients.hyperfleetApi.auth?.tokenPath;
    const bearerToken = tokenPath ? tokenFileSource(resolve(dirname(deploymentFile!), tokenPath)) : options.tokenFor?.(adapterName);
    const api = new HttpHyperfleetApiClient(
      {
        ...(deployment?.clients.hyperfleetApi ?? {}),
        ...(bearerToken ? { bearerToken } : {}),
        baseUrl: deployment?.clients.hyperfleetApi.baseUrl ?? options.apiBaseUrl,
        defaultHeaders: { 'x-hyperfleet-identity': `adapter:${adapterName}`, ...(deployment?.clients.hyperfleetApi.defaultHeaders ?? {}) },
      },
      options.apiFetch ? { fetch: options.apiFetch } : {},
    );
    const executor = new AdapterExecutor(
      task,
      { name: adapterName, ...(deployment?.adapter.version ? { version: deployment.adapter.version } : {}) },
      {
        api,
        transport,
        ...(deployment?.clients.maestro && { maestro: maestroTransports(deployment.clients.maestro) }),
        ...(options.env ? { env: options.env } : {}),
      },
    );
    const warnings = [
      ...(task.warnings ?? []).map(formatConfigIssue),
      ...unsetRequiredEnv(task, options.env ?? {}).map(
        (variable) => `${path}: required param source env.${variable} is unset: every run will fail its param extraction`,
      ),
    ];
    hosted.push({ name: adapterName, file: path, executor, task, api, warnings });
  }
  if (problems.length > 0) throw new AdapterConfigsInvalid(problems);
  return hosted;
}

/** The engine's API URL stands in for a deployment config's placeholder `base_url` (`CHANGE_ME`). */
function apiOptions(apiBaseUrl: string | undefined): { defaultBaseUrl?: string } {
  return apiBaseUrl !== undefined ? { defaultBaseUrl: apiBaseUrl } : {};
}
