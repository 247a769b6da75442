/**
 * Builds the API's authentication and roles from `DECOM_SERVER_CONFIG` and `DECOM_ADMINS`, and applies the
 * safe defaults: without JWT the API serves loopback only, unless `DECOM_AUTH=disabled`
 * says otherwise explicitly. Returns the start-up summary lines (issuers, admins, tenants).
 */
import type { Logger } from 'pino';
import {
  ConfigError,
  DEFAULT_SERVER_CONFIG,
  loadServerConfig,
  type AppConfig,
  type AuthorizationConfig,
  type ServerConfig,
} from '@decom/config';
import type { ApiAuth } from '../app.module.js';
import { AccessPolicy } from '../auth/access-policy.js';
import { Authenticator } from '../auth/authenticator.js';
import { EmbeddedIssuer } from '../auth/embedded-issuer.js';
import { JwtVerifier } from '../auth/jwt-verifier.js';
import { TenantResolver } from '../auth/tenant-resolver.js';

export interface EngineAuth {
  readonly auth: ApiAuth;
  /** Mints the hosted adapters' tokens when JWT is on (embedded profile). */
  readonly embedded?: EmbeddedIssuer;
  /** The JWT verifier when JWT is on (its `keySetProbes` feed the JWKS readiness probe). */
  readonly verifier?: JwtVerifier;
  readonly summary: readonly string[];
}

/** `127.0.0.0/8`, `::1` and `localhost`: nothing but this machine can connect. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * @throws ServerConfigError for a bad server config (`file:line:column field: message`); ConfigError naming
 *   HOST when a non-loopback address would be served without authentication.
 */
export async function buildEngineAuth(config: AppConfig, logger: Logger, options: { hostsAdapters: boolean }): Promise<EngineAuth> {
  const server: ServerConfig = config.serverConfigFile ? await loadServerConfig(config.serverConfigFile) : DEFAULT_SERVER_CONFIG;
  const jwtOn = server.jwt.enabled;
  if (!jwtOn && !isLoopback(config.host) && !config.authDisabledExplicitly) {
    throw new ConfigError(
      'HOST',
      `refusing to serve ${config.host} without authentication: configure server.jwt in DECOM_SERVER_CONFIG, bind 127.0.0.1, or set DECOM_AUTH=disabled to accept every caller's claimed identity`,
    );
  }
  const authorization = { ...server.authorization, admins: [...new Set([...server.authorization.admins, ...config.admins])] };
  const embedded = jwtOn && options.hostsAdapters ? await EmbeddedIssuer.create() : undefined;
  const verifier = jwtOn
    ? new JwtVerifier({
        configs: server.jwt.configs,
        clockSkewSeconds: server.jwt.clock_skew_seconds,
        maxTokenLifetimeSeconds: server.jwt.max_token_lifetime_seconds,
        remote: { cooldownMs: server.jwt.jwks_refetch_cooldown_seconds * 1000 },
        ...(embedded ? { localIssuers: [{ config: embedded.config, keys: embedded.keys }] } : {}),
        onKeyFetchError: (issuer, error) =>
          logger.warn(
            { issuer, err: { message: error.message } },
            `cannot fetch the signing keys of issuer ${issuer}: tokens of it are refused meanwhile`,
          ),
      })
    : undefined;
  const policy = new AccessPolicy({
    authorization,
    authenticated: jwtOn,
    ...(embedded ? { embeddedIssuer: embedded.config.issuer_url } : {}),
  });
  const tenant = server.tenant?.enabled ? server.tenant : undefined;
  const tenants = tenant
    ? new TenantResolver(
        tenant,
        (principal) => policy.isSystem(principal),
        (principal) => policy.rolesOf(principal).includes('admin'),
      )
    : undefined;
  const summary = [
    jwtOn
      ? `authentication: JWT from ${server.jwt.configs.map((c) => c.issuer_url).join(', ')}${embedded ? ' (+ embedded adapter issuer)' : ''}${server.jwt.anonymous_reads ? '; anonymous reads allowed' : ''}`
      : isLoopback(config.host)
        ? `authentication is OFF: every caller may act as any identity; serving ${config.host} only (configure server.jwt in DECOM_SERVER_CONFIG: docs/security.md)`
        : `authentication is OFF on ${config.host} (DECOM_AUTH=disabled): every caller may act as any identity`,
    `authorization: ${authorization.admins.length} admin(s), operators: ${authorization.operators ? authorization.operators.length : 'any authenticated caller'}, adapters bound: ${Object.keys(authorization.adapters).join(', ') || '(none)'}; tenants: ${tenant ? `on (${tenant.dimensions.map((d) => `${d.header}${d.required ? '' : '?'}`).join(', ')}; system header ${tenant.system_header})` : 'off'}; rate limit: ${server.rate_limit.enabled ? `${server.rate_limit.max} per ${server.rate_limit.time_window_ms} ms per caller` : 'off'}; trusted proxies: ${server.trusted_proxies.join(', ') || '(none)'}`,
  ];
  const unbound = unboundGrants(authorization);
  if (jwtOn && server.jwt.configs.length > 1 && unbound > 0) {
    summary.push(
      `warning: ${unbound} role grant(s) name an identity without an issuer: each matches a token of any of the ${server.jwt.configs.length} issuers; write {issuer, identity} to bind it to one (docs/security.md "Roles")`,
    );
  }
  return {
    auth: {
      authenticator: new Authenticator({
        ...(verifier ? { verifier } : {}),
        anonymousReads: server.jwt.anonymous_reads,
        ...(tenants ? { tenants } : {}),
        isSystemIdentity: (identity) => identity.startsWith('system:') || policy.namesSystemIdentity(identity),
        loopbackHostsOnly: !jwtOn && isLoopback(config.host),
      }),
      policy,
      rateLimit: server.rate_limit,
      trustedProxies: server.trusted_proxies,
      streams: server.streams,
      graphqlIntrospection: server.graphql.introspection,
      ...(server.limits && { deletionBudgets: server.limits.deletions }),
    },
    ...(embedded ? { embedded } : {}),
    ...(verifier ? { verifier } : {}),
    summary,
  };
}

/** How many grants of the admin, operator and adapter lists are plain identities (any issuer). */
function unboundGrants(authorization: AuthorizationConfig): number {
  const lists = [authorization.admins, authorization.operators ?? [], ...Object.values(authorization.adapters)];
  return lists.reduce((count, list) => count + list.filter((grant) => typeof grant === 'string').length, 0);
}
