/**
 * The one validated application configuration. `libs/config` is the only reader of `process.env`
 * (STYLE §8); everything else receives an `AppConfig`.
 */
import { isAbsolute, resolve } from 'node:path';

export type EventStoreKind = 'sqlite' | 'postgres' | 'esdb';

export interface AppConfig {
  /** HTTP port of the API (default 8000). */
  readonly port: number;
  /** Host/interface the API binds to (default 0.0.0.0). */
  readonly host: string;
  /** Folder for the embedded SQLite file (default ./data). */
  readonly dataDir: string;
  /** Path of a kubeconfig file; undefined → the bundled local Kubernetes API server is started. */
  readonly kubeconfig?: string;
  readonly eventStore: EventStoreKind;
  readonly databaseUrl?: string;
  readonly redisUrl?: string;
  /** Folder holding adapter task configs (`*.yaml`) and their deployment configs (`*.adapter.yaml`). */
  readonly adaptersDir: string;
  /** HyperFleet `entities` config (kinds). */
  readonly entitiesFile: string;
  /** Identities allowed to force-delete; empty = authentication disabled, every caller may (dev mode). */
  readonly admins: readonly string[];
  /** Base URL adapters use to reach the API (default http://127.0.0.1:<port>). */
  readonly apiBaseUrl: string;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

/** A configuration problem; `variable` names the environment variable at fault. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads and validates the configuration from `env` (defaults to `process.env`).
 * @throws ConfigError naming the variable, e.g. `PORT: must be an integer between 1 and 65535, got "abc"`.
 */
export function loadAppConfig(env: Env = process.env, cwd: string = process.cwd()): AppConfig {
  const port = parsePort(env['PORT'] ?? '8000');
  const eventStore = parseEnum('DECOM_EVENT_STORE', env['DECOM_EVENT_STORE'] ?? 'sqlite', ['sqlite', 'postgres', 'esdb'] as const);
  const databaseUrl = optionalUrl('DATABASE_URL', env['DATABASE_URL'], ['postgres:', 'postgresql:']);
  if (eventStore === 'postgres' && !databaseUrl) {
    throw new ConfigError('DATABASE_URL', 'is required when DECOM_EVENT_STORE=postgres');
  }
  if (eventStore === 'esdb') {
    throw new ConfigError('DECOM_EVENT_STORE', 'esdb is not available in this build yet; use sqlite or postgres');
  }
  const redisUrl = optionalUrl('REDIS_URL', env['REDIS_URL'], ['redis:', 'rediss:']);
  const kubeconfig = nonEmpty(env['KUBECONFIG']);
  const logLevel = parseEnum('LOG_LEVEL', env['LOG_LEVEL'] ?? 'info', ['debug', 'info', 'warn', 'error', 'silent'] as const);
  return {
    port,
    host: env['HOST'] ?? '0.0.0.0',
    dataDir: absolute(cwd, env['DECOM_DATA_DIR'] ?? './data'),
    ...(kubeconfig ? { kubeconfig: absolute(cwd, kubeconfig) } : {}),
    eventStore,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(redisUrl ? { redisUrl } : {}),
    adaptersDir: absolute(cwd, env['DECOM_ADAPTERS_DIR'] ?? './config/adapters'),
    entitiesFile: absolute(cwd, env['DECOM_ENTITIES_FILE'] ?? './config/entities.yaml'),
    admins: (env['DECOM_ADMINS'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    apiBaseUrl: env['DECOM_API_URL'] ?? `http://127.0.0.1:${port}`,
    logLevel,
  };
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

function parseEnum<T extends string>(variable: string, raw: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(variable, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function optionalUrl(variable: string, raw: string | undefined, protocols: readonly string[]): string | undefined {
  const value = nonEmpty(raw);
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(variable, `is not a valid URL: "${value}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(variable, `must use ${protocols.map((p) => `${p}//`).join(' or ')}, got "${url.protocol}//"`);
  }
  return value;
}

function nonEmpty(raw: string | undefined): string | undefined {
  return raw !== undefined && raw.trim() !== '' ? raw.trim() : undefined;
}

function absolute(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
