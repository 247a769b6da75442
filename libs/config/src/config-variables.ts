/**
 * Every environment variable `loadAppConfig` reads, with its default and meaning: the source of
 * `decom start --help` (and the README's table says the same). A spec checks that no variable read in
 * app-config.ts is missing here.
 */
export interface ConfigVariable {
  readonly name: string;
  /** As shown in help; `unset` when there is none. */
  readonly default: string;
  readonly meaning: string;
}

export const CONFIG_VARIABLES: readonly ConfigVariable[] = [
  { name: 'PORT', default: '8000', meaning: 'API port (0 = any free port)' },
  {
    name: 'HOST',
    default: '127.0.0.1',
    meaning: 'bind address of the API and metrics ports; any other address needs JWT (or DECOM_AUTH=disabled)',
  },
  { name: 'DECOM_SERVER_CONFIG', default: 'unset', meaning: 'server config YAML: JWT issuers, roles, rate limit (docs/security.md)' },
  { name: 'DECOM_AUTH', default: 'auto', meaning: 'disabled: explicitly serve a non-loopback HOST without authentication' },
  {
    name: 'DECOM_TOKEN_FILE',
    default: 'unset',
    meaning: 'bearer token file decom history and decom adapter plan send to an engine with JWT on',
  },
  { name: 'DECOM_CORS_ORIGINS', default: 'unset', meaning: 'browser origins allowed cross-origin, comma list or *; unset = CORS off' },
  { name: 'DECOM_DATA_DIR', default: './data', meaning: 'folder of the embedded SQLite file' },
  { name: 'KUBECONFIG', default: 'unset', meaning: 'Kubernetes for the adapters; unset = bundled local API server' },
  { name: 'DECOM_ADAPTERS_DIR', default: './config/adapters', meaning: 'adapter task configs (<name>.yaml, <name>.adapter.yaml)' },
  { name: 'DECOM_ENTITIES_FILE', default: './config/entities.yaml', meaning: 'resource kinds (HyperFleet entities)' },
  { name: 'DECOM_ADMINS', default: 'unset', meaning: 'comma list of identities allowed to force-delete/orphan' },
  { name: 'DECOM_EVENT_STORE', default: 'sqlite', meaning: 'sqlite | postgres | esdb' },
  { name: 'DATABASE_URL', default: 'unset', meaning: 'PostgreSQL (postgres and esdb stores)' },
  { name: 'DECOM_PG_SCHEMA', default: 'decom', meaning: 'PostgreSQL schema of events and read models' },
  { name: 'EVENTSTORE_CONNECTION_STRING', default: 'unset', meaning: 'EventStoreDB, e.g. esdb://localhost:2113?tls=false' },
  { name: 'REDIS_URL', default: 'unset', meaning: 'Redis: jobs on BullMQ (else in-process)' },
  { name: 'LOG_LEVEL', default: 'info', meaning: 'debug | info | warn | error | silent' },
  { name: 'DECOM_API_URL', default: 'http://127.0.0.1:$PORT', meaning: 'where adapters (and decom worker) reach the API' },
  { name: 'DECOM_SENTINEL_FILE', default: './config/sentinel.yaml', meaning: "the sweeper's Sentinel message_decision rules" },
  { name: 'DECOM_SWEEP_INTERVAL_MS', default: '30000', meaning: 'how often the sweeper re-dispatches lost work' },
  {
    name: 'DECOM_HEAP_GROWING_PERCENT',
    default: '20 (start), 50 (api, worker)',
    meaning: 'V8 heap growth past the live data before a full GC, 0..300; 0 = V8 default',
  },
  { name: 'DECOM_WORKER_CONCURRENCY', default: '4', meaning: 'adapter runs at once per adapter and process' },
  { name: 'DECOM_JOB_LOCK_MS', default: '30000', meaning: "BullMQ job lock: a killed worker's job is picked up after it" },
  { name: 'DECOM_QUEUE_PREFIX', default: 'decom', meaning: 'Redis key prefix of the BullMQ queues' },
  { name: 'DECOM_LEAK_SCAN_INTERVAL_MS', default: '300000', meaning: 'how often the leak scan runs; 0 = only on request' },
  { name: 'DECOM_METRICS_PORT', default: '9090 (0 when PORT=0)', meaning: 'Prometheus /metrics port (0 = any free port)' },
  { name: 'DECOM_STUCK_THRESHOLD_SECONDS', default: '600', meaning: 'pending longer than this counts as stuck in the metrics' },
  { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', default: 'unset', meaning: 'OpenTelemetry OTLP/HTTP export of request spans; unset = none' },
];

/** The help text block: one aligned line per variable. */
export function configVariablesHelp(): string {
  const width = Math.max(...CONFIG_VARIABLES.map((v) => v.name.length));
  const lines = CONFIG_VARIABLES.map((v) => `  ${v.name.padEnd(width)}  ${v.meaning} (default: ${v.default})`);
  return `\nEnvironment variables (validated at start; a bad value stops with one line naming it):\n${lines.join('\n')}\n`;
}
