import { isScalar } from 'yaml';
import type { Node, Scalar, YAMLMap } from 'yaml';
import { readDuration, RETRY_BACKOFFS } from './api-call.section.js';
import { applyEnvOverrides } from './adapter-config-env.js';
import type { AdapterDeploymentConfig, MaestroClientConfig } from './adapter-config.types.js';
import type { ConfigIssue } from './task-config-error.js';
import { TaskConfigError } from './task-config-error.js';
import { readConfigText } from './task-config.parser.js';
import { joinPath, type MapReader, YamlSource } from './yaml-reader.js';

const API_DEFAULTS = {
  version: 'v1',
  timeoutMs: 10_000,
  retryAttempts: 3,
  retryBackoff: 'exponential',
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
} as const;

function readHeaders(source: YamlSource, map: MapReader | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (map?.node as YAMLMap<Node, Node> | undefined)?.items ?? []) {
    const key = String((pair.key as Scalar).value);
    const value = pair.value;
    if (!isScalar(value) || typeof value.value !== 'string') {
      source.report(value ?? (pair.key as Node), joinPath(map?.path ?? '', key), 'header value must be a string');
    } else headers[key] = value.value;
    map?.valueNode(key);
  }
  return headers;
}

function readApiClient(
  source: YamlSource,
  clients: MapReader | undefined,
  defaultBaseUrl?: string,
): AdapterDeploymentConfig['clients']['hyperfleetApi'] {
  const api = clients?.map('hyperfleet_api');
  if (!api) return { ...API_DEFAULTS, defaultHeaders: {} };
  const written = api.string('base_url');
  // HyperFleet's shipped configs hold a placeholder (`base_url: CHANGE_ME`) that HYPERFLEET_API_BASE_URL
  // replaces; where the host knows the API (decom start/worker), a value that is no URL at all takes its URL.
  const baseUrl = defaultBaseUrl !== undefined && (written === undefined || !written.includes('://')) ? defaultBaseUrl : written;
  if (baseUrl !== undefined && !/^https?:\/\//.test(baseUrl)) {
    source.report(api.valueNode('base_url'), `${api.path}.base_url`, 'must be an http(s) URL');
  }
  const version = api.string('version');
  const timeoutMs = readDuration(api, 'timeout');
  const retryAttempts = api.integer('retry_attempts', { min: 0 });
  const retryBackoff = api.oneOf('retry_backoff', RETRY_BACKOFFS);
  const baseDelayMs = readDuration(api, 'base_delay');
  const maxDelayMs = readDuration(api, 'max_delay');
  const defaultHeaders = readHeaders(source, api.map('default_headers'));
  const auth = api.map('auth');
  const tokenPath = auth?.string('token_path');
  const tokenCacheTtlMs = auth && readDuration(auth, 'token_cache_ttl');
  auth?.finish();
  api.finish();
  return {
    version: version ?? API_DEFAULTS.version,
    timeoutMs: timeoutMs ?? API_DEFAULTS.timeoutMs,
    retryAttempts: retryAttempts ?? API_DEFAULTS.retryAttempts,
    retryBackoff: retryBackoff ?? API_DEFAULTS.retryBackoff,
    baseDelayMs: baseDelayMs ?? API_DEFAULTS.baseDelayMs,
    maxDelayMs: maxDelayMs ?? API_DEFAULTS.maxDelayMs,
    defaultHeaders,
    ...(baseUrl !== undefined && { baseUrl: baseUrl.replace(/\/+$/, '') }),
    ...(auth && { auth: { ...(tokenPath && { tokenPath }), ...(tokenCacheTtlMs !== undefined && { tokenCacheTtlMs }) } }),
  };
}

function readKubernetes(clients: MapReader | undefined): AdapterDeploymentConfig['clients']['kubernetes'] {
  const kube = clients?.map('kubernetes');
  if (!kube) return undefined;
  const apiVersion = kube.string('api_version');
  const kubeConfigPath = kube.string('kube_config_path', { allowEmpty: true });
  const qps = kube.integer('qps', { min: 0 });
  const burst = kube.integer('burst', { min: 0 });
  kube.finish();
  return {
    ...(apiVersion && { apiVersion }),
    ...(kubeConfigPath && { kubeConfigPath }),
    ...(qps !== undefined && { qps }),
    ...(burst !== undefined && { burst }),
  };
}

function optional<T>(value: T | undefined, key: string): Record<string, T> {
  return value === undefined ? {} : { [key]: value };
}

function readMaestro(source: YamlSource, clients: MapReader | undefined): MaestroClientConfig | undefined {
  const maestro = clients?.map('maestro');
  if (!maestro) return undefined;
  const httpServerAddress = maestro.string('http_server_address');
  if (httpServerAddress !== undefined && !/^https?:\/\//.test(httpServerAddress)) {
    source.report(maestro.valueNode('http_server_address'), `${maestro.path}.http_server_address`, 'must be an http(s) URL');
  }
  const insecure = maestro.boolean('insecure') ?? false;
  if (httpServerAddress?.startsWith('http://') && !insecure) {
    // HyperFleet refuses plaintext unless `insecure: true` is said out loud; so do we.
    source.report(
      maestro.valueNode('http_server_address'),
      `${maestro.path}.http_server_address`,
      'must use https:// unless insecure: true',
    );
  }
  const auth = maestro.map('auth');
  const authType = auth?.oneOf('type', ['tls', 'none'] as const);
  const tls = auth?.map('tls_config');
  const tlsConfig = tls && {
    ...optional(tls.string('ca_file'), 'caFile'),
    ...optional(tls.string('cert_file'), 'certFile'),
    ...optional(tls.string('key_file'), 'keyFile'),
    ...optional(tls.string('http_ca_file'), 'httpCaFile'),
  };
  tls?.finish();
  auth?.finish();
  const keepaliveMap = maestro.map('keepalive');
  const keepalive = keepaliveMap && {
    ...optional(readDuration(keepaliveMap, 'time'), 'timeMs'),
    ...optional(readDuration(keepaliveMap, 'timeout'), 'timeoutMs'),
  };
  keepaliveMap?.finish();
  const result: MaestroClientConfig = {
    ...optional(maestro.string('grpc_server_address'), 'grpcServerAddress'),
    ...optional(httpServerAddress, 'httpServerAddress'),
    ...optional(maestro.string('source_id'), 'sourceId'),
    ...optional(maestro.string('client_id'), 'clientId'),
    ...(auth && { auth: { ...optional(authType, 'type'), ...(tlsConfig && { tlsConfig }) } }),
    ...optional(readDuration(maestro, 'timeout'), 'timeoutMs'),
    ...optional(readDuration(maestro, 'server_healthiness_timeout'), 'serverHealthinessTimeoutMs'),
    ...optional(maestro.integer('retry_attempts', { min: 0 }), 'retryAttempts'),
    ...(keepalive && { keepalive }),
    insecure,
  };
  maestro.finish();
  return result;
}

/** Labels issues of environment-overridden fields with the variable that set them. */
function withEnvSources(issues: readonly ConfigIssue[], applied: ReadonlyMap<string, string>): ConfigIssue[] {
  return issues.map((issue) => {
    const variable = applied.get(issue.path);
    return variable ? { ...issue, message: `${issue.message} (set by ${variable})` } : issue;
  });
}

/**
 * Parses a deployment config (`adapter`, `debug_config`, `log`, `clients.{hyperfleet_api,
 * kubernetes, maestro, broker}`), strictly, with HyperFleet's defaults filled in. `env` holds the
 * `HYPERFLEET_*` overrides (environment > YAML > defaults); the caller passes it, this library
 * never reads `process.env`. `options.defaultBaseUrl` (the hosting engine's API URL) replaces a
 * `base_url` that is absent or no URL at all (HyperFleet's `CHANGE_ME` placeholder) after the overrides.
 * @throws TaskConfigError listing every issue as `file:line:column path: message`.
 */
export function parseAdapterConfig(
  yamlText: string,
  fileName: string,
  env: Readonly<Record<string, string | undefined>> = {},
  options: AdapterConfigOptions = {},
): AdapterDeploymentConfig {
  const source = new YamlSource(fileName, yamlText);
  source.throwIfIssues();
  // An empty file is an empty mapping here, so overrides alone can still fill it in.
  if (source.document.contents === null)
    source.document.contents = source.document.createNode({}) as unknown as typeof source.document.contents;
  const applied = applyEnvOverrides(source.document, env);
  const throwIfIssues = () => {
    if (source.issues.length > 0) throw new TaskConfigError(withEnvSources(source.issues, applied));
  };
  const root = source.rootMap();
  if (!root) return throwIfIssues() as never;
  if (root.has('apiVersion') || root.has('spec')) {
    // The older Kubernetes-style wrapper (`kind: AdapterConfig`, camelCase keys under `spec:`): say so
    // instead of one unknown field per key.
    source.report(
      root.position,
      '',
      'the apiVersion/kind/spec wrapper is not supported: use the flat deployment config format (adapter, clients, log, debug_config)',
    );
    throwIfIssues();
  }
  const adapter = root.map('adapter', { required: true });
  const name = adapter?.string('name', { required: true });
  if (name !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) {
    source.report(adapter?.valueNode('name'), 'adapter.name', 'must be lower-case alphanumerics and dashes');
  }
  const version = adapter?.string('version');
  adapter?.finish();
  const debugConfig = root.boolean('debug_config') ?? false;
  const logMap = root.map('log');
  const log = {
    ...(logMap?.has('level') && { level: logMap.oneOf('level', ['debug', 'info', 'warn', 'error'] as const) }),
    ...(logMap?.has('format') && { format: logMap.oneOf('format', ['text', 'json'] as const) }),
    ...(logMap?.has('output') && { output: logMap.oneOf('output', ['stdout', 'stderr'] as const) }),
  };
  logMap?.finish();
  const clients = root.map('clients');
  const hyperfleetApi = readApiClient(source, clients, options.defaultBaseUrl);
  const kubernetes = readKubernetes(clients);
  const brokerMap = clients?.map('broker');
  const subscriptionId = brokerMap?.string('subscription_id');
  const topic = brokerMap?.string('topic');
  brokerMap?.finish();
  const maestro = readMaestro(source, clients);
  clients?.finish();
  root.finish();
  throwIfIssues();
  return {
    file: fileName,
    adapter: { name: name as string, ...(version && { version }) },
    debugConfig,
    log: log as AdapterDeploymentConfig['log'],
    clients: {
      hyperfleetApi,
      ...(kubernetes && { kubernetes }),
      ...(maestro && { maestro }),
      ...(brokerMap && { broker: { ...(subscriptionId && { subscriptionId }), ...(topic && { topic }) } }),
    },
  };
}

/**
 * Reads and parses a deployment config file.
 * @throws TaskConfigError.
 */
export async function loadAdapterConfigFile(
  path: string,
  env: Readonly<Record<string, string | undefined>> = {},
  options: AdapterConfigOptions = {},
): Promise<AdapterDeploymentConfig> {
  return parseAdapterConfig(await readConfigText(path), path, env, options);
}

export interface AdapterConfigOptions {
  /** The API URL of the hosting engine: used when `base_url` is absent or a placeholder such as `CHANGE_ME`. */
  readonly defaultBaseUrl?: string;
}
