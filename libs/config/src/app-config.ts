/**
 * The one validated application configuration. `libs/config` is the only reader of `process.env`
 *; everything else receives an `AppConfig`.
 */
import { isAbsolute, resolve } from 'node:path';
import { IDENTITY_MAX, isValidIdentity, nonCanonicalIdentity } from './identity.js';

export type EventStoreKind = 'sqlite' | 'postgres' | 'esdb';

export interface AppConfig {
  /** HTTP port of the API (default 8000). */
  readonly port: number;
  /** Host/interface the API binds to (default 127.0.0.1; another address needs authentication or `DECOM_AUTH=disabled`). */
  readonly host: string;
  /** `DECOM_SERVER_CONFIG`: the server config file (JWT issuers, roles, rate limit: docs/security.md); unset = none. */
  readonly serverConfigFile?: string;
  /** `DECOM_TOKEN_FILE`: bearer token CLI clients (`decom history`, `decom adapter plan`) send to the API. */
  readonly apiTokenFile?: string;
  /** `DECOM_AUTH=disabled`: explicitly allow serving a non-loopback address without authentication. */
  readonly authDisabledExplicitly: boolean;
  /** Folder for the embedded SQLite file (default ./data). */
  readonly dataDir: string;
  /** Path of a kubeconfig file; undefined → the bundled local Kubernetes API server is started. */
  readonly kubeconfig?: string;
  /** `DECOM_EVENT_STORE`: where events live (`sqlite` embedded default, `postgres`, `esdb`). */
  readonly eventStore: EventStoreKind;
  /** `DATABASE_URL`: PostgreSQL for events (`postgres`) and/or read models (`postgres`, `esdb`). */
  readonly databaseUrl?: string;
  /** `DECOM_PG_SCHEMA`: PostgreSQL schema holding Decom's tables (events and read models), default `decom`. */
  readonly pgSchema: string;
  /** `EVENTSTORE_CONNECTION_STRING`: EventStoreDB (`esdb://host:2113?tls=false`), required when `eventStore` is `esdb`. */
  readonly eventStoreConnectionString?: string;
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
  /**
   * `DECOM_SENTINEL_FILE`: the sweeper's Sentinel rules per kind (default ./config/sentinel.yaml): Decom's
   * `sentinels:` list, a HyperFleet Sentinel config file, or a directory of them (one per resource type).
   */
  readonly sentinelFile: string;
  /** `DECOM_SWEEP_INTERVAL_MS`: how often the sweeper runs (default 30000). */
  readonly sweepIntervalMs: number;
  /**
   * `DECOM_HEAP_GROWING_PERCENT`: how far V8 lets the JavaScript heap grow past what the last full
   * collection kept before it collects again, in percent (0 = V8's own rule, up to 300 % on a large machine);
   * at most 300. Undefined when unset: each command has its own default (heap-growth.ts: 20 for `decom start`,
   * 50 for `decom api` and `decom worker`). `--heap-growing-percent` on node's own command line wins (Node
   * refuses that flag in `NODE_OPTIONS`).
   * Applied by `decom start|api|worker` (libs/runtime/src/heap-growth.ts).
   */
  readonly heapGrowingPercent: number | undefined;
  /** `DECOM_LEAK_SCAN_INTERVAL_MS`: how often the leak scan runs (default 300000; 0 = only on request). */
  readonly leakScanIntervalMs: number;
  /** `DECOM_WORKER_CONCURRENCY`: adapter runs at once per adapter in one process (default 4; `decom worker --concurrency`). */
  readonly workerConcurrency: number;
  /** `DECOM_JOB_LOCK_MS`: BullMQ job lock; a killed worker's job is retried after it (default 30000). */
  readonly jobLockMs: number;
  /** `DECOM_QUEUE_PREFIX`: Redis key prefix of the BullMQ queues (default `decom`). */
  readonly queuePrefix: string;
  /**
   * `DECOM_METRICS_PORT`: Prometheus `/metrics` on its own port (default 9090; 0 = any free port, and the
   * default when `PORT` is 0, so tests and throw-away engines never collide on 9090).
   */
  readonly metricsPort: number;
  /** `DECOM_STUCK_THRESHOLD_SECONDS`: pending longer than this is "stuck" in the metrics (default 600, HyperFleet's 10 min). */
  readonly stuckThresholdSeconds: number;
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`: OpenTelemetry OTLP/HTTP export of request spans; unset = no export. */
  readonly otlpEndpoint?: string;
  /**
   * `DECOM_CORS_ORIGINS`: browser origins allowed to call the API cross-origin (comma list of
   * `scheme://host[:port]`, or `*` for any); empty (default) = CORS off, no CORS headers at all.
   */
  readonly corsOrigins: readonly string[];
  /**
   * The environment hosted adapters see (a frozen copy of the one this config was read from): their
   * `env.X` params and `env` CEL variable, and the `HYPERFLEET_*` overrides of their deployment configs
   * (as HyperFleet adapters read it). Not validated here: it is the adapters' business.
   */
  readonly adapterEnv: Readonly<Record<string, string | undefined>>;
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
 * `DECOM_ADMINS`: identities separated by commas (spaces around a comma are the list's, not the identity's).
 * Each must be an identity a token can carry in canonical form, as `authorization.admins` in the server config
 * requires: an entry no caller can ever match (`Root@X.com`, an empty one) is refused, not kept silently.
 * @throws ConfigError naming the variable and the entry.
 */
function parseAdmins(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((entry, index) => {
    const admin = entry.trim();
    if (admin === '') throw new ConfigError('DECOM_ADMINS', `entry ${index + 1} is empty, got ${JSON.stringify(value)}`);
    if (!isValidIdentity(admin))
      throw new ConfigError(
        'DECOM_ADMINS',
        `entry ${index + 1} is not an identity (1-${IDENTITY_MAX} printable ASCII characters), got ${JSON.stringify(admin.slice(0, 64))}`,
      );
    const notCanonical = nonCanonicalIdentity(admin);
    if (notCanonical)
      throw new ConfigError(
        'DECOM_ADMINS',
        `entry ${index + 1} ${JSON.stringify(admin)}: ${notCanonical} (a token's identity never matches it)`,
      );
    return admin;
  });
}

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
  const eventStoreConnectionString = optionalEsdbConnectionString(env['EVENTSTORE_CONNECTION_STRING']);
  if (eventStore === 'esdb') {
    if (!eventStoreConnectionString) {
      throw new ConfigError('EVENTSTORE_CONNECTION_STRING', 'is required when DECOM_EVENT_STORE=esdb');
    }
    // EventStoreDB holds the events only; read models and checkpoints live in PostgreSQL (one transaction each).
    if (!databaseUrl) throw new ConfigError('DATABASE_URL', 'is required when DECOM_EVENT_STORE=esdb (read models live in PostgreSQL)');
  }
  const pgSchema = parseIdentifier('DECOM_PG_SCHEMA', env['DECOM_PG_SCHEMA'] ?? 'decom');
  const redisUrl = optionalUrl('REDIS_URL', env['REDIS_URL'], ['redis:', 'rediss:']);
  const kubeconfig = nonEmpty(env['KUBECONFIG']);
  const metricsPort = parsePortOf('DECOM_METRICS_PORT', env['DECOM_METRICS_PORT'] ?? (port === 0 ? '0' : '9090'));
  const otlpEndpoint = optionalUrl('OTEL_EXPORTER_OTLP_ENDPOINT', env['OTEL_EXPORTER_OTLP_ENDPOINT'], ['http:', 'https:']);
  const logLevel = parseEnum('LOG_LEVEL', env['LOG_LEVEL'] ?? 'info', ['debug', 'info', 'warn', 'error', 'silent'] as const);
  // Set but empty (a missing ConfigMap key, a typo in a unit file) would silently mean "no server config",
  // that is authentication off: whoever set the variable meant a file.
  if (env['DECOM_SERVER_CONFIG'] !== undefined && nonEmpty(env['DECOM_SERVER_CONFIG']) === undefined) {
    throw new ConfigError(
      'DECOM_SERVER_CONFIG',
      'is set but empty: name the server config file (docs/security.md), or unset the variable to run without one (authentication off)',
    );
  }
  return {
    port,
    host: nonEmpty(env['HOST']) ?? '127.0.0.1',
    ...(nonEmpty(env['DECOM_SERVER_CONFIG']) ? { serverConfigFile: absolute(cwd, nonEmpty(env['DECOM_SERVER_CONFIG'])!) } : {}),
    ...(nonEmpty(env['DECOM_TOKEN_FILE']) ? { apiTokenFile: absolute(cwd, nonEmpty(env['DECOM_TOKEN_FILE'])!) } : {}),
    authDisabledExplicitly: parseEnum('DECOM_AUTH', env['DECOM_AUTH'] ?? 'auto', ['auto', 'disabled'] as const) === 'disabled',
    dataDir: absolute(cwd, env['DECOM_DATA_DIR'] ?? './data'),
    ...(kubeconfig ? { kubeconfig: absolute(cwd, kubeconfig) } : {}),
    eventStore,
    ...(databaseUrl ? { databaseUrl } : {}),
    pgSchema,
    ...(eventStoreConnectionString ? { eventStoreConnectionString } : {}),
    ...(redisUrl ? { redisUrl } : {}),
    adaptersDir: absolute(cwd, env['DECOM_ADAPTERS_DIR'] ?? './config/adapters'),
    entitiesFile: absolute(cwd, env['DECOM_ENTITIES_FILE'] ?? './config/entities.yaml'),
    admins: parseAdmins(env['DECOM_ADMINS']),
    apiBaseUrl: env['DECOM_API_URL'] ?? `http://127.0.0.1:${port}`,
    logLevel,
    sentinelFile: absolute(cwd, env['DECOM_SENTINEL_FILE'] ?? './config/sentinel.yaml'),
    sweepIntervalMs: parseCount('DECOM_SWEEP_INTERVAL_MS', env['DECOM_SWEEP_INTERVAL_MS'] ?? '30000', 100),
    // At most 300: V8's own rule never lets the heap grow more than 4 x between full collections, and a
    // typo (5000 for 50) must not turn the setting that saves memory into one that wastes gigabytes.
    heapGrowingPercent:
      env['DECOM_HEAP_GROWING_PERCENT'] === undefined
        ? undefined
        : parseBoundedCount('DECOM_HEAP_GROWING_PERCENT', env['DECOM_HEAP_GROWING_PERCENT'], 0, 300),
    leakScanIntervalMs: parseCount('DECOM_LEAK_SCAN_INTERVAL_MS', env['DECOM_LEAK_SCAN_INTERVAL_MS'] ?? '300000', 0),
    workerConcurrency: parseCount('DECOM_WORKER_CONCURRENCY', env['DECOM_WORKER_CONCURRENCY'] ?? '4', 1),
    jobLockMs: parseCount('DECOM_JOB_LOCK_MS', env['DECOM_JOB_LOCK_MS'] ?? '30000', 500),
    queuePrefix: parseQueuePrefix(env['DECOM_QUEUE_PREFIX'] ?? 'decom'),
    metricsPort,
    stuckThresholdSeconds: parseCount('DECOM_STUCK_THRESHOLD_SECONDS', env['DECOM_STUCK_THRESHOLD_SECONDS'] ?? '600', 0),
    ...(otlpEndpoint ? { otlpEndpoint } : {}),
    corsOrigins: parseCorsOrigins(env['DECOM_CORS_ORIGINS'] ?? ''),
    adapterEnv: adapterEnvironment(env),
  };
}

/** `*`, or origins as browsers send them (`https://ui.example.com`, `http://localhost:5173`): no path, no trailing slash. */
function parseCorsOrigins(raw: string): string[] {
  const origins = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin)) {
      throw new ConfigError('DECOM_CORS_ORIGINS', `must be a comma list of origins like https://ui.example.com (or *), got "${origin}"`);
    }
  }
  return origins;
}

/** The environment adapters run with, as a frozen copy; `env` defaults to `process.env`. */
export function adapterEnvironment(env: Env = process.env): Readonly<Record<string, string | undefined>> {
  return Object.freeze({ ...env });
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

function parsePortOf(variable: string, raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(variable, `must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

function parseCount(variable: string, raw: string, min: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new ConfigError(variable, `must be an integer ≥ ${min}, got "${raw}"`);
  }
  return value;
}

/** `parseCount` with an upper bound too. */
function parseBoundedCount(variable: string, raw: string, min: number, max: number): number {
  const value = parseCount(variable, raw, min);
  if (value > max) throw new ConfigError(variable, `must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** BullMQ keys are `<prefix>:<queue>:<id>`, so the prefix must not contain `:`. */
function parseQueuePrefix(raw: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(raw)) throw new ConfigError('DECOM_QUEUE_PREFIX', `must be letters, digits, '.', '_' or '-', got "${raw}"`);
  return raw;
}

function parseEnum<T extends string>(variable: string, raw: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(variable, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

/** A plain PostgreSQL identifier (lower case, so it never needs quoting in psql either), at most 63 bytes. */
function parseIdentifier(variable: string, raw: string): string {
  const value = raw.trim();
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(value)) {
    throw new ConfigError(variable, `must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters), got "${raw}"`);
  }
  return value;
}

/**
 * EventStoreDB's own connection-string format (`esdb://host:2113,host2:2113?tls=false`): several hosts make
 * it an invalid WHATWG URL, so only the scheme and a non-empty host list are checked here; the client
 * parses the rest when it connects.
 */
function optionalEsdbConnectionString(raw: string | undefined): string | undefined {
  const value = nonEmpty(raw);
  if (!value) return undefined;
  const match = /^([a-z+]+):\/\/(?:[^@/?]*@)?([^/?]+)/i.exec(value);
  if (!match || !['esdb', 'esdb+discover'].includes(match[1]!.toLowerCase())) {
    throw new ConfigError('EVENTSTORE_CONNECTION_STRING', `must use esdb:// or esdb+discover:// followed by host:port, got "${value}"`);
  }
  return value;
}

/** `scheme://user:secret@host` → `scheme://***@host`, for values echoed in errors. */
function maskUserinfo(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

function optionalUrl(variable: string, raw: string | undefined, protocols: readonly string[]): string | undefined {
  const value = nonEmpty(raw);
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // URLs may carry a password (DATABASE_URL, REDIS_URL): show the value only with any userinfo masked.
    throw new ConfigError(variable, `is not a valid URL: "${maskUserinfo(value)}"`);
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
