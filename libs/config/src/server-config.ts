/**
 * The server config file named by `DECOM_SERVER_CONFIG` (YAML): HyperFleet's `server.jwt` shape
 * and `server.tenant` plus Decom's `authorization:` roles and `server.rate_limit`. Every problem is
 * reported at once as `file:line:column field: message`; nothing is half-applied.
 */
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { dirname, isAbsolute, resolve } from 'node:path';
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node, type YAMLMap } from 'yaml';
import { IDENTITY_MAX, isValidIdentity, nonCanonicalIdentity } from './identity.js';

/** One trusted token issuer (HyperFleet `server.jwt.configs[]`). */
export interface JwtIssuerConfig {
  /** `iss` a token must carry, exactly. */
  readonly issuer_url: string;
  /** JWKS over HTTP(S); exactly one of `jwk_cert_url` and `jwks_file` is set. */
  readonly jwk_cert_url?: string;
  /**
   * Local JWKS file (absolute path) for air-gapped sites; re-read when it changes. Written `jwks_file` or,
   * as HyperFleet names it, `jwk_cert_file`.
   */
  readonly jwks_file?: string;
  /**
   * HyperFleet's `jwk_cert_ca_file`: a PEM CA bundle (absolute path) trusted, besides the system roots,
   * when fetching `jwk_cert_url` (e.g. the Kubernetes service-account CA). Only with `jwk_cert_url`.
   */
  readonly jwk_cert_ca_file?: string;
  /**
   * HyperFleet's `header`: the request header carrying this issuer's token, lower-case; absent means
   * `authorization`. In another header the value is the token, with or without a `Bearer ` prefix.
   */
  readonly header?: string;
  /** `aud` a token must contain. */
  readonly audience: string;
  /** Claim holding the caller identity (default `email`; `sub` for Kubernetes service-account tokens). */
  readonly identity_claim: string;
  /** When set, the identity claim must match this regular expression. */
  readonly identity_claim_pattern?: RegExp;
  /** When set, a request with a valid token from this issuer may name its identity in this header. */
  readonly identity_header?: string;
  /**
   * May `identity_header` name a system identity (`system:...`, or one bound in `authorization.adapters`)?
   * Default false: a gateway's token then names users only, so it cannot report statuses as an adapter.
   */
  readonly system_identities?: boolean;
}

export interface JwtConfig {
  readonly enabled: boolean;
  /** HyperFleet lets anonymous reads through; Decom only when this is true (a fleet inventory is sensitive). */
  readonly anonymous_reads: boolean;
  /** Tolerance on `exp`/`nbf`, seconds (default 30). */
  readonly clock_skew_seconds: number;
  /** An unknown `kid` refetches the issuer's JWKS at most once per this many seconds (default 30). */
  readonly jwks_refetch_cooldown_seconds: number;
  /**
   * Longest lifetime a token may claim, seconds (default 86400 = 24 h): `exp - iat`, or `exp - now` for a
   * token without `iat`, above it is refused, so a stolen token with `exp: 1e308` is not valid forever.
   */
  readonly max_token_lifetime_seconds: number;
  readonly configs: readonly JwtIssuerConfig[];
}

/**
 * One entry of a role list: an identity from any configured issuer (a plain string, or header identities with
 * JWT off), or `{issuer, identity}`: that identity only when a token of that `issuer_url` verified it. Two
 * issuers may both name someone `admin@x.test`; only the bound form says which one is meant.
 */
export type RoleGrant = string | { readonly issuer: string; readonly identity: string };

export interface AuthorizationConfig {
  /** May do everything, including force-delete, force-orphan, pause and unpause. */
  readonly admins: readonly RoleGrant[];
  /** When set, only these (and admins) may create, patch and delete; unset = any authenticated non-system caller. */
  readonly operators?: readonly RoleGrant[];
  /** Adapter name → identities allowed to report its statuses (system identities: statuses only). */
  readonly adapters: Readonly<Record<string, readonly RoleGrant[]>>;
  /**
   * `deletion_protection.clear_role`: the least role that may clear a resource's `deletion_protection`
   * (`admin`, the default, or `operator`). Setting it needs only the patch right.
   */
  readonly deletion_protection?: { readonly clear_role: 'admin' | 'operator' };
  /**
   * `break_glass`: the two-person rule (docs/policies.md "Two-person rule"). `approvals: 1` turns force delete,
   * force orphan, unpause and leak deletion into requests a different administrator approves within
   * `expires_after_seconds` (default 3600). Absent = `approvals: 0`: the actions run at once.
   */
  readonly break_glass?: BreakGlassConfig;
}

/** `authorization.break_glass`: approvals needed (1; 0 = off) and how long a request waits, seconds. */
export interface BreakGlassConfig {
  readonly approvals: number;
  readonly expires_after_seconds: number;
}

/** `server.streams`: caps on concurrent Server-Sent-Events streams (`/api/decom/v1/events/stream`). */
export interface StreamLimitsConfig {
  /** Open streams per verified caller (issuer + identity), or per client address when none is verified. */
  readonly max_per_caller: number;
  /** Open streams of this process in all. */
  readonly max_total: number;
}

/** Each caller may hold a few dashboards open; the total keeps one process's sockets and feed listeners bounded. */
export const DEFAULT_STREAM_LIMITS: StreamLimitsConfig = { max_per_caller: 10, max_total: 500 };

export interface RateLimitConfig {
  readonly enabled: boolean;
  /** Requests per caller and window. */
  readonly max: number;
  /** Window length, milliseconds. */
  readonly time_window_ms: number;
}

/** HyperFleet's `server.tenant`. Header names are stored lower-case. */
export interface TenantConfig {
  readonly enabled: boolean;
  /** A request with this header equal to `true` is a system caller (honoured for system identities only). */
  readonly system_header: string;
  /**
   * Each dimension: the header carrying it, its key in a resource's tenancy, whether a caller must send it,
   * and optionally the verified token's claim that binds it (a header disagreeing with the claim is refused;
   * no header = the claim's value).
   */
  readonly dimensions: readonly { readonly header: string; readonly key: string; readonly required: boolean; readonly claim?: string }[];
}

/** One kind's deletion budget (`limits.deletions.<Kind>` or `'*'`): per tenant; an absent bound is unlimited. */
export interface DeletionBudgetConfig {
  /** Top-level deletions (DELETE requests) of the kind still Finalizing. */
  readonly max_in_flight?: number;
  /** Top-level deletions of the kind requested in any hour. */
  readonly max_per_hour?: number;
}

export interface ServerConfig {
  readonly file?: string;
  /** `limits.deletions`: kind (or `'*'`) → deletion budget (docs/policies.md "Deletion budget"); absent = no budget. */
  readonly limits?: { readonly deletions: Readonly<Record<string, DeletionBudgetConfig>> };
  readonly jwt: JwtConfig;
  readonly authorization: AuthorizationConfig;
  readonly rate_limit: RateLimitConfig;
  readonly streams: StreamLimitsConfig;
  /** `server.graphql`: whether `__schema`/`__type` introspection is served (default: only with JWT off). */
  readonly graphql: { readonly introspection: boolean };
  readonly tenant?: TenantConfig;
  /**
   * Proxies (IP addresses or CIDR ranges, e.g. `10.0.0.0/8`) whose `X-Forwarded-For` is believed: the client
   * address (rate limit, logs) is the hop after the last trusted one. Empty (default): the socket's address.
   */
  readonly trusted_proxies: readonly string[];
}

/** No file: JWT off, no roles, no rate limit (today's open development behaviour). */
export const DEFAULT_SERVER_CONFIG: ServerConfig = {
  jwt: {
    enabled: false,
    anonymous_reads: false,
    clock_skew_seconds: 30,
    jwks_refetch_cooldown_seconds: 30,
    max_token_lifetime_seconds: 86_400,
    configs: [],
  },
  authorization: { admins: [], adapters: {} },
  rate_limit: { enabled: false, max: 600, time_window_ms: 60_000 },
  streams: DEFAULT_STREAM_LIMITS,
  graphql: { introspection: true },
  trusted_proxies: [],
};

export class ServerConfigError extends Error {
  override readonly name = 'ServerConfigError';
  constructor(readonly issues: readonly string[]) {
    super(issues.join('\n'));
  }
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** Headers HyperFleet refuses as a token source (`header`): cookies are no bearer credential. */
const FORBIDDEN_TOKEN_HEADERS: ReadonlySet<string> = new Set(['cookie', 'set-cookie']);
/** Headers HyperFleet refuses as `identity_header`: they carry credentials, not a caller's name. */
const FORBIDDEN_IDENTITY_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
  'x-forwarded-authorization',
  'proxy-authorization',
]);
const TENANT_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Parses a server config. Relative `jwks_file` paths are resolved against the file's folder.
 * @throws ServerConfigError listing every issue as `file:line:column field: message`.
 */
export function parseServerConfig(text: string, file: string): ServerConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const issues: string[] = [];
  const at = (node: Node | null | undefined, field: string, message: string) => {
    const { line, col } = lineCounter.linePos(node?.range?.[0] ?? 0);
    issues.push(`${file}:${line}:${col} ${field}: ${message}`);
  };
  for (const error of doc.errors) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    issues.push(`${file}:${line}:${col} (yaml): ${error.message.split('\n')[0]}`);
  }
  if (issues.length > 0) throw new ServerConfigError(issues);
  const root = doc.contents as Node | null;
  // An empty file (a ConfigMap mounted without its key) would otherwise mean every default: authentication off.
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    issues.push(
      `${file}:1:1 (root): the file is empty: write server: and authorization: (docs/security.md), or unset DECOM_SERVER_CONFIG to run without a server config`,
    );
    throw new ServerConfigError(issues);
  }
  if (!isMap(root)) {
    at(root, '(root)', 'must be a mapping with server: and authorization:');
    throw new ServerConfigError(issues);
  }
  const reader = new MapReader(root as YAMLMap | null, '', at);
  reader.only(['server', 'authorization', 'limits']);
  const server = reader.map('server');
  server.only(['jwt', 'tenant', 'rate_limit', 'streams', 'graphql', 'trusted_proxies']);
  const trusted_proxies = server.addresses('trusted_proxies');

  const jwtMap = server.map('jwt');
  jwtMap.only([
    'enabled',
    'anonymous_reads',
    'clock_skew_seconds',
    'jwks_refetch_cooldown_seconds',
    'max_token_lifetime_seconds',
    'configs',
  ]);
  const enabled = jwtMap.bool('enabled', false);
  const configs: JwtIssuerConfig[] = [];
  const seenIssuers = new Set<string>();
  jwtMap.list('configs').forEach((item) => {
    item.only([
      'issuer_url',
      'jwk_cert_url',
      'jwks_file',
      'jwk_cert_file',
      'jwk_cert_ca_file',
      'header',
      'audience',
      'identity_claim',
      'identity_claim_pattern',
      'identity_header',
      'system_identities',
    ]);
    const issuer_url = item.string('issuer_url', true);
    if (issuer_url !== undefined && seenIssuers.has(issuer_url)) item.problem('issuer_url', `duplicate issuer "${issuer_url}"`);
    if (issuer_url !== undefined) seenIssuers.add(issuer_url);
    const jwk_cert_url = item.url('jwk_cert_url');
    // `jwk_cert_file` is HyperFleet's name of Decom's `jwks_file`: one key, two spellings.
    if (item.has('jwks_file') && item.has('jwk_cert_file'))
      item.problem('jwk_cert_file', 'jwk_cert_file and jwks_file are the same setting: set one');
    const jwksFile = item.string('jwks_file', false) ?? item.string('jwk_cert_file', false);
    const hasFile = item.has('jwks_file') || item.has('jwk_cert_file');
    if (item.has('jwk_cert_url') === hasFile) item.problem('jwk_cert_url', 'set exactly one of jwk_cert_url and jwk_cert_file (jwks_file)');
    const caFile = item.string('jwk_cert_ca_file', false);
    if (caFile !== undefined && !item.has('jwk_cert_url'))
      item.problem('jwk_cert_ca_file', 'jwk_cert_ca_file requires jwk_cert_url (it is the CA of that endpoint)');
    const header = (item.string('header', false) ?? 'authorization').toLowerCase();
    if (!HEADER_NAME.test(header)) item.problem('header', `not a valid header name: "${header}"`);
    else if (FORBIDDEN_TOKEN_HEADERS.has(header)) item.problem('header', `"${header}" is not allowed as a token source`);
    const audience = item.string('audience', true);
    const identity_claim = item.string('identity_claim', false) ?? 'email';
    const pattern = item.string('identity_claim_pattern', false);
    let identity_claim_pattern: RegExp | undefined;
    if (pattern !== undefined) {
      try {
        identity_claim_pattern = new RegExp(pattern);
      } catch (error) {
        item.problem('identity_claim_pattern', `not a valid regular expression: ${(error as Error).message}`);
      }
    }
    const identity_header = item.string('identity_header', false);
    if (identity_header !== undefined && !HEADER_NAME.test(identity_header))
      item.problem('identity_header', `not a valid header name: "${identity_header}"`);
    else if (identity_header !== undefined && FORBIDDEN_IDENTITY_HEADERS.has(identity_header.toLowerCase()))
      item.problem('identity_header', `"${identity_header}" carries credentials: not allowed as identity_header`);
    else if (identity_header !== undefined && identity_header.toLowerCase() === header)
      item.problem('identity_header', `must differ from header "${header}"`);
    const systemIdentities = item.bool('system_identities', false);
    if (systemIdentities && identity_header === undefined)
      item.problem('system_identities', 'system_identities applies to identity_header: set identity_header too');
    const absolute = (path: string) => (isAbsolute(path) ? path : resolve(dirname(file), path));
    if (issuer_url && audience && (jwk_cert_url || jwksFile)) {
      configs.push({
        issuer_url,
        ...(jwk_cert_url ? { jwk_cert_url } : {}),
        ...(jwksFile ? { jwks_file: absolute(jwksFile) } : {}),
        ...(caFile && jwk_cert_url ? { jwk_cert_ca_file: absolute(caFile) } : {}),
        ...(header !== 'authorization' ? { header } : {}),
        audience,
        identity_claim,
        ...(identity_claim_pattern ? { identity_claim_pattern } : {}),
        ...(identity_header ? { identity_header: identity_header.toLowerCase() } : {}),
        ...(systemIdentities ? { system_identities: true } : {}),
      });
    }
  });
  if (enabled && configs.length === 0 && issues.length === 0) jwtMap.problem('configs', 'jwt is enabled but no issuer is configured');
  const clockSkew = jwtMap.integer('clock_skew_seconds', 30, 0, 600);
  const cooldown = jwtMap.integer('jwks_refetch_cooldown_seconds', 30, 1, 3600);
  const maxLifetime = jwtMap.integer('max_token_lifetime_seconds', 86_400, 60, 31_536_000);

  const rl = server.map('rate_limit');
  rl.only(['enabled', 'max', 'time_window_ms']);
  const rate_limit: RateLimitConfig = {
    enabled: rl.bool('enabled', false),
    max: rl.integer('max', 600, 1, 1_000_000),
    time_window_ms: rl.integer('time_window_ms', 60_000, 100, 86_400_000),
  };

  const streamsMap = server.map('streams');
  streamsMap.only(['max_per_caller', 'max_total']);
  const streams: StreamLimitsConfig = {
    max_per_caller: streamsMap.integer('max_per_caller', DEFAULT_STREAM_LIMITS.max_per_caller, 1, 10_000),
    max_total: streamsMap.integer('max_total', DEFAULT_STREAM_LIMITS.max_total, 1, 100_000),
  };
  if (streams.max_per_caller > streams.max_total) streamsMap.problem('max_per_caller', `must not exceed max_total (${streams.max_total})`);

  const graphqlMap = server.map('graphql');
  graphqlMap.only(['introspection']);
  // Off by default once callers are authenticated: a token holder should not be handed a map of the API.
  const graphql = { introspection: graphqlMap.bool('introspection', !enabled) };

  const tenantMap = server.map('tenant');
  let tenant: TenantConfig | undefined;
  if (tenantMap.present) {
    tenantMap.only(['enabled', 'system_header', 'dimensions']);
    const tenantEnabled = tenantMap.bool('enabled', false);
    const system_header = tenantMap.string('system_header', tenantEnabled) ?? '';
    if (system_header && !HEADER_NAME.test(system_header))
      tenantMap.problem('system_header', `not a valid header name: "${system_header}"`);
    const headers = new Set<string>([system_header.toLowerCase()]);
    const keys = new Set<string>();
    const dimensions = tenantMap.list('dimensions').map((d) => {
      d.only(['header', 'key', 'required', 'claim']);
      const claim = d.string('claim', false);
      const header = d.string('header', true) ?? '';
      const key = d.string('key', true) ?? '';
      if (header && !HEADER_NAME.test(header)) d.problem('header', `not a valid header name: "${header}"`);
      else if (header && headers.has(header.toLowerCase())) d.problem('header', `duplicate header "${header}"`);
      // Keys name JSON fields in the read model's tenant column (resource-queries.ts): identifiers only.
      if (key && !TENANT_KEY.test(key)) d.problem('key', `must match ${TENANT_KEY.source}, got "${key}"`);
      else if (key && keys.has(key)) d.problem('key', `duplicate key "${key}"`);
      headers.add(header.toLowerCase());
      keys.add(key);
      return { header: header.toLowerCase(), key, required: d.bool('required', false), ...(claim ? { claim } : {}) };
    });
    if (tenantEnabled && dimensions.length === 0) tenantMap.problem('dimensions', 'tenants are enabled but no dimension is configured');
    else if (tenantEnabled && !dimensions.some((d) => d.required))
      tenantMap.problem('dimensions', 'at least one dimension must be required: true');
    tenant = { enabled: tenantEnabled, system_header: system_header.toLowerCase(), dimensions };
  }

  const authz = reader.map('authorization');
  authz.only(['admins', 'operators', 'adapters', 'deletion_protection', 'break_glass']);
  const admins = authz.identities('admins') ?? [];
  const protectionMap = authz.map('deletion_protection');
  protectionMap.only(['clear_role']);
  const clearRole = protectionMap.string('clear_role', false) ?? 'admin';
  if (clearRole !== 'admin' && clearRole !== 'operator')
    protectionMap.problem('clear_role', `must be admin or operator, got "${clearRole}"`);
  const operators = authz.identities('operators');
  const breakGlassMap = authz.map('break_glass');
  breakGlassMap.only(['approvals', 'expires_after_seconds']);
  // One other administrator: the rule is about two people; more approvers would need a quorum the API does not model.
  const approvals = breakGlassMap.integer('approvals', 0, 0, 1);
  const expiresAfter = breakGlassMap.integer('expires_after_seconds', 3600, 60, 604_800);
  // Header identities prove nothing: without verified tokens one person could approve as another.
  if (approvals > 0 && !enabled)
    breakGlassMap.problem('approvals', 'the two-person rule needs verified callers: set server.jwt.enabled: true');
  const adaptersMap = authz.map('adapters');
  const adapters: Record<string, readonly RoleGrant[]> = {};
  for (const key of adaptersMap.keys()) adapters[key] = adaptersMap.identities(key) ?? [];
  // A grant bound to an issuer that is not configured would never match: a typo there must not pass as a grant.
  const configured = new Set(configs.map((c) => c.issuer_url));
  authz.checkIssuers(['admins', 'operators'], configured);
  adaptersMap.checkIssuers(adaptersMap.keys(), configured);

  const limitsMap = reader.map('limits');
  limitsMap.only(['deletions']);
  const deletionsMap = limitsMap.map('deletions');
  const deletions: Record<string, DeletionBudgetConfig> = {};
  for (const key of deletionsMap.keys()) {
    const budget = deletionsMap.map(key);
    budget.only(['max_in_flight', 'max_per_hour']);
    const bound = (field: 'max_in_flight' | 'max_per_hour') =>
      budget.has(field) ? { [field]: budget.integer(field, 1, 1, 1_000_000) } : {};
    if (!budget.has('max_in_flight') && !budget.has('max_per_hour')) deletionsMap.problem(key, 'set max_in_flight and/or max_per_hour');
    deletions[key] = { ...bound('max_in_flight'), ...bound('max_per_hour') };
  }

  if (issues.length > 0) throw new ServerConfigError(issues);
  return {
    file,
    ...(Object.keys(deletions).length > 0 ? { limits: { deletions } } : {}),
    jwt: {
      enabled,
      anonymous_reads: jwtMap.bool('anonymous_reads', false),
      clock_skew_seconds: clockSkew,
      jwks_refetch_cooldown_seconds: cooldown,
      max_token_lifetime_seconds: maxLifetime,
      configs,
    },
    authorization: {
      admins,
      ...(operators ? { operators } : {}),
      adapters,
      ...(clearRole === 'operator' ? { deletion_protection: { clear_role: 'operator' as const } } : {}),
      ...(approvals > 0 && { break_glass: { approvals, expires_after_seconds: expiresAfter } }),
    },
    rate_limit,
    streams,
    graphql,
    ...(tenant ? { tenant } : {}),
    trusted_proxies,
  };
}

/** @throws ServerConfigError (also when the file cannot be read: `file:1:1 (file): ENOENT ...`). */
export async function loadServerConfig(file: string): Promise<ServerConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ServerConfigError([`${file}:1:1 (file): ${(error as Error).message}`]);
  }
  return parseServerConfig(text, file);
}

type Report = (node: Node | null | undefined, field: string, message: string) => void;

/** A tolerant reader over one YAML mapping: records an issue and returns a default on bad input. */
class MapReader {
  constructor(
    private readonly node: YAMLMap | null,
    private readonly path: string,
    private readonly at: Report,
  ) {}

  get present(): boolean {
    return this.node !== null;
  }

  private field(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  private get(key: string): Node | undefined {
    return (this.node?.get(key, true) as Node | undefined) ?? undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  problem(key: string, message: string): void {
    this.at(this.get(key) ?? this.node, this.field(key), message);
  }

  keys(): string[] {
    return (this.node?.items ?? []).map((pair) => String((pair.key as { value?: unknown }).value));
  }

  only(allowed: readonly string[]): void {
    for (const pair of this.node?.items ?? []) {
      const key = String((pair.key as { value?: unknown }).value);
      if (!allowed.includes(key)) this.at(pair.key as Node, this.field(key), `unknown field (expected one of ${allowed.join(', ')})`);
    }
  }

  map(key: string): MapReader {
    const value = this.get(key);
    if (value === undefined || (isScalar(value) && value.value === null)) return new MapReader(null, this.field(key), this.at);
    if (!isMap(value)) {
      this.at(value, this.field(key), 'must be a mapping');
      return new MapReader(null, this.field(key), this.at);
    }
    return new MapReader(value, this.field(key), this.at);
  }

  list(key: string): MapReader[] {
    const value = this.get(key);
    if (value === undefined) return [];
    if (!isSeq(value)) {
      this.at(value, this.field(key), 'must be a list');
      return [];
    }
    return value.items.flatMap((item, i) => {
      if (!isMap(item)) {
        this.at(item as Node, `${this.field(key)}[${i}]`, 'must be a mapping');
        return [];
      }
      return [new MapReader(item, `${this.field(key)}[${i}]`, this.at)];
    });
  }

  private scalar(key: string): { node: Node; value: unknown } | undefined {
    const node = this.get(key);
    if (node === undefined) return undefined;
    if (!isScalar(node)) {
      this.at(node, this.field(key), 'must be a scalar');
      return undefined;
    }
    return node.value === null ? undefined : { node, value: node.value };
  }

  string(key: string, required: boolean): string | undefined {
    const s = this.scalar(key);
    if (!s) {
      if (required) this.at(this.node, this.field(key), 'is required');
      return undefined;
    }
    if (typeof s.value !== 'string' || s.value.trim() === '') {
      this.at(s.node, this.field(key), 'must be a non-empty string');
      return undefined;
    }
    return s.value.trim();
  }

  url(key: string): string | undefined {
    const value = this.string(key, false);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
    } catch {
      this.problem(key, `must be an http(s) URL, got "${value}"`);
      return undefined;
    }
    return value;
  }

  bool(key: string, fallback: boolean): boolean {
    const s = this.scalar(key);
    if (!s) return fallback;
    if (typeof s.value !== 'boolean') {
      this.at(s.node, this.field(key), `must be true or false, got ${JSON.stringify(s.value)}`);
      return fallback;
    }
    return s.value;
  }

  integer(key: string, fallback: number, min: number, max: number): number {
    const s = this.scalar(key);
    if (!s) return fallback;
    if (typeof s.value !== 'number' || !Number.isInteger(s.value) || s.value < min || s.value > max) {
      this.at(s.node, this.field(key), `must be an integer between ${min} and ${max}, got ${JSON.stringify(s.value)}`);
      return fallback;
    }
    return s.value;
  }

  /** A list of IP addresses or CIDR ranges (`10.0.0.0/8`, `fd00::/8`, `127.0.0.1`). */
  addresses(key: string): string[] {
    const node = this.get(key);
    if (node === undefined || (isScalar(node) && node.value === null)) return [];
    if (!isSeq(node)) {
      this.at(node, this.field(key), 'must be a list of IP addresses or CIDR ranges');
      return [];
    }
    const out: string[] = [];
    node.items.forEach((item, i) => {
      const value = isScalar(item) && typeof item.value === 'string' ? item.value.trim() : undefined;
      if (value === undefined || !isAddressOrRange(value)) {
        this.at(
          item as Node,
          `${this.field(key)}[${i}]`,
          `must be an IP address or CIDR range (e.g. 10.0.0.0/8), got ${JSON.stringify(isScalar(item) ? item.value : '(not a scalar)')}`,
        );
      } else out.push(value);
    });
    return out;
  }

  /**
   * A list of role grants: identities (non-empty printable ASCII strings of at most 256 characters, in
   * canonical form), each either plain or as `{issuer: <issuer_url>, identity: <identity>}`.
   */
  identities(key: string): RoleGrant[] | undefined {
    const node = this.get(key);
    if (node === undefined || (isScalar(node) && node.value === null)) return undefined;
    if (!isSeq(node)) {
      this.at(node, this.field(key), 'must be a list of identities');
      return undefined;
    }
    const out: RoleGrant[] = [];
    const bound: { node: Node; field: string; issuer: string }[] = [];
    node.items.forEach((item, i) => {
      const field = `${this.field(key)}[${i}]`;
      if (isMap(item)) {
        const grant = new MapReader(item, field, this.at);
        grant.only(['issuer', 'identity']);
        const issuer = grant.string('issuer', true);
        const identity = grant.string('identity', true);
        if (
          identity !== undefined &&
          this.validIdentity(item.get('identity', true) as Node, `${field}.identity`, identity) &&
          issuer !== undefined
        ) {
          out.push({ issuer, identity });
          bound.push({ node: item.get('issuer', true) as Node, field: `${field}.issuer`, issuer });
        }
        return;
      }
      const value = isScalar(item) ? item.value : undefined;
      if (typeof value !== 'string') this.at(item as Node, field, `must be an identity: 1..${IDENTITY_MAX} printable ASCII characters`);
      else if (this.validIdentity(item as Node, field, value)) out.push(value);
    });
    this.boundGrants.set(key, bound);
    return out;
  }

  /** The issuer-bound grants `identities` read, per key, for `checkIssuers`. */
  private readonly boundGrants = new Map<string, readonly { node: Node; field: string; issuer: string }[]>();

  /** Records an issue for every grant of `keys` (read by `identities`) bound to an issuer not in `configured`. */
  checkIssuers(keys: readonly string[], configured: ReadonlySet<string>): void {
    const known = configured.size > 0 ? `one of ${[...configured].join(', ')}` : 'none: server.jwt.configs is empty';
    for (const key of keys) {
      for (const grant of this.boundGrants.get(key) ?? []) {
        if (!configured.has(grant.issuer)) this.at(grant.node, grant.field, `"${grant.issuer}" is not a configured issuer_url (${known})`);
      }
    }
  }

  private validIdentity(node: Node, field: string, value: string): boolean {
    if (!isValidIdentity(value.trim())) {
      this.at(node, field, `must be an identity: 1..${IDENTITY_MAX} printable ASCII characters`);
      return false;
    }
    const notCanonical = nonCanonicalIdentity(value);
    if (notCanonical !== undefined) {
      this.at(node, field, `must be in canonical form: ${notCanonical} (callers with it are refused)`);
      return false;
    }
    return true;
  }
}

/** `a.b.c.d`, an IPv6 address, or either with a `/prefix` in range (32 or 128). */
function isAddressOrRange(value: string): boolean {
  const [address, prefix, extra] = value.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
