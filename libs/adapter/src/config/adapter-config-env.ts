import { Scalar } from 'yaml';
import type { Document } from 'yaml';

type Kind = 'string' | 'int' | 'bool';

/**
 * HyperFleet's environment overrides of the deployment config (`HYPERFLEET_*`, plus `LOG_*` and
 * the legacy `BROKER_*`), as documented in hyperfleet-adapter docs/configuration.md. Precedence:
 * environment > YAML > defaults (Decom has no per-adapter CLI flags).
 */
const OVERRIDES: readonly (readonly [variable: string, path: readonly string[], kind: Kind])[] = [
  ['HYPERFLEET_DEBUG_CONFIG', ['debug_config'], 'bool'],
  ['LOG_LEVEL', ['log', 'level'], 'string'],
  ['LOG_FORMAT', ['log', 'format'], 'string'],
  ['LOG_OUTPUT', ['log', 'output'], 'string'],
  ['HYPERFLEET_MAESTRO_GRPC_SERVER_ADDRESS', ['clients', 'maestro', 'grpc_server_address'], 'string'],
  ['HYPERFLEET_MAESTRO_HTTP_SERVER_ADDRESS', ['clients', 'maestro', 'http_server_address'], 'string'],
  ['HYPERFLEET_MAESTRO_SOURCE_ID', ['clients', 'maestro', 'source_id'], 'string'],
  ['HYPERFLEET_MAESTRO_CLIENT_ID', ['clients', 'maestro', 'client_id'], 'string'],
  ['HYPERFLEET_MAESTRO_AUTH_TYPE', ['clients', 'maestro', 'auth', 'type'], 'string'],
  ['HYPERFLEET_MAESTRO_CA_FILE', ['clients', 'maestro', 'auth', 'tls_config', 'ca_file'], 'string'],
  ['HYPERFLEET_MAESTRO_CERT_FILE', ['clients', 'maestro', 'auth', 'tls_config', 'cert_file'], 'string'],
  ['HYPERFLEET_MAESTRO_KEY_FILE', ['clients', 'maestro', 'auth', 'tls_config', 'key_file'], 'string'],
  ['HYPERFLEET_MAESTRO_HTTP_CA_FILE', ['clients', 'maestro', 'auth', 'tls_config', 'http_ca_file'], 'string'],
  ['HYPERFLEET_MAESTRO_TIMEOUT', ['clients', 'maestro', 'timeout'], 'string'],
  ['HYPERFLEET_MAESTRO_SERVER_HEALTHINESS_TIMEOUT', ['clients', 'maestro', 'server_healthiness_timeout'], 'string'],
  ['HYPERFLEET_MAESTRO_RETRY_ATTEMPTS', ['clients', 'maestro', 'retry_attempts'], 'int'],
  ['HYPERFLEET_MAESTRO_KEEPALIVE_TIME', ['clients', 'maestro', 'keepalive', 'time'], 'string'],
  ['HYPERFLEET_MAESTRO_KEEPALIVE_TIMEOUT', ['clients', 'maestro', 'keepalive', 'timeout'], 'string'],
  ['HYPERFLEET_MAESTRO_INSECURE', ['clients', 'maestro', 'insecure'], 'bool'],
  ['HYPERFLEET_API_BASE_URL', ['clients', 'hyperfleet_api', 'base_url'], 'string'],
  ['HYPERFLEET_API_VERSION', ['clients', 'hyperfleet_api', 'version'], 'string'],
  ['HYPERFLEET_API_TIMEOUT', ['clients', 'hyperfleet_api', 'timeout'], 'string'],
  ['HYPERFLEET_API_RETRY_ATTEMPTS', ['clients', 'hyperfleet_api', 'retry_attempts'], 'int'],
  ['HYPERFLEET_API_RETRY_BACKOFF', ['clients', 'hyperfleet_api', 'retry_backoff'], 'string'],
  ['HYPERFLEET_API_BASE_DELAY', ['clients', 'hyperfleet_api', 'base_delay'], 'string'],
  ['HYPERFLEET_API_MAX_DELAY', ['clients', 'hyperfleet_api', 'max_delay'], 'string'],
  ['HYPERFLEET_BROKER_SUBSCRIPTION_ID', ['clients', 'broker', 'subscription_id'], 'string'],
  ['HYPERFLEET_BROKER_TOPIC', ['clients', 'broker', 'topic'], 'string'],
  ['HYPERFLEET_KUBERNETES_API_VERSION', ['clients', 'kubernetes', 'api_version'], 'string'],
  ['HYPERFLEET_KUBERNETES_KUBE_CONFIG_PATH', ['clients', 'kubernetes', 'kube_config_path'], 'string'],
  ['HYPERFLEET_KUBERNETES_QPS', ['clients', 'kubernetes', 'qps'], 'int'],
  ['HYPERFLEET_KUBERNETES_BURST', ['clients', 'kubernetes', 'burst'], 'int'],
];

/** Used only when the `HYPERFLEET_`-prefixed variable is unset. */
const LEGACY: Readonly<Record<string, string>> = {
  HYPERFLEET_BROKER_SUBSCRIPTION_ID: 'BROKER_SUBSCRIPTION_ID',
  HYPERFLEET_BROKER_TOPIC: 'BROKER_TOPIC',
};

/** Typed like the YAML would be; a value that does not convert stays a string so the reader reports it. */
function typed(value: string, kind: Kind): string | number | boolean {
  const text = value.trim();
  if (kind === 'int' && /^[-+]?\d+$/.test(text)) return Number.parseInt(text, 10);
  if (kind === 'bool') {
    // Go's strconv.ParseBool spellings.
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  }
  return value;
}

/**
 * Writes the set environment overrides into the parsed document, so they are validated exactly
 * like YAML values. Overridden nodes have no position: their issues are labelled with the
 * variable by the caller.
 * @returns the field path (`clients.hyperfleet_api.timeout`) of each override → its variable.
 */
export function applyEnvOverrides(document: Document.Parsed, env: Readonly<Record<string, string | undefined>>): Map<string, string> {
  const applied = new Map<string, string>();
  for (const [variable, path, kind] of OVERRIDES) {
    const legacy = LEGACY[variable];
    const name = env[variable] !== undefined ? variable : legacy !== undefined && env[legacy] !== undefined ? legacy : undefined;
    if (name === undefined) continue;
    document.setIn(path, new Scalar(typed(env[name] as string, kind)));
    applied.set(path.join('.'), name);
  }
  return applied;
}
