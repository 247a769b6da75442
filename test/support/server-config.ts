/**
 * Writes a `DECOM_SERVER_CONFIG` file (HyperFleet's `server.jwt` shape plus Decom's `authorization`,
 * docs/security.md) that trusts a test's `TestIssuer`, so each suite states only what it varies: roles,
 * tenants, the rate limit, extra issuers. Rendered with the `yaml` library, as an operator's file would be.
 */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import type { TestIssuer } from './test-issuer.js';

export interface TestServerConfig {
  /** `identity_claim` of the issuer's entry (the server's default, `sub`, when absent). */
  readonly identityClaim?: string;
  readonly jwksRefetchCooldownSeconds?: number;
  /** More `server.jwt.configs` entries after the issuer's, as written (e.g. one whose keys can't be fetched). */
  readonly extraIssuers?: readonly Record<string, unknown>[];
  /** `server.tenant`, as written. */
  readonly tenant?: Record<string, unknown>;
  /** `server.rate_limit`, as written. */
  readonly rateLimit?: Record<string, unknown>;
  /** `server.streams`, as written. */
  readonly streams?: Record<string, unknown>;
  /** `server.trusted_proxies`. */
  readonly trustedProxies?: readonly string[];
  readonly authorization?: {
    readonly admins?: readonly string[];
    readonly operators?: readonly string[];
    /** Adapter name → the identities bound to it. */
    readonly adapters?: Readonly<Record<string, readonly string[]>>;
    /** `authorization.break_glass`: the two-person rule. */
    readonly break_glass?: { readonly approvals: number; readonly expires_after_seconds?: number };
  };
}

/** The YAML text of a server config trusting `issuer` (its issuer URL, JWKS URL and audience). */
export function serverConfigYaml(issuer: Pick<TestIssuer, 'issuer' | 'jwksUrl' | 'audience'>, config: TestServerConfig = {}): string {
  const trusted = {
    issuer_url: issuer.issuer,
    jwk_cert_url: issuer.jwksUrl,
    audience: issuer.audience,
    ...(config.identityClaim !== undefined && { identity_claim: config.identityClaim }),
  };
  const document = {
    server: {
      jwt: {
        enabled: true,
        ...(config.jwksRefetchCooldownSeconds !== undefined && { jwks_refetch_cooldown_seconds: config.jwksRefetchCooldownSeconds }),
        configs: [trusted, ...(config.extraIssuers ?? [])],
      },
      ...(config.tenant && { tenant: config.tenant }),
      ...(config.rateLimit && { rate_limit: config.rateLimit }),
      ...(config.streams && { streams: config.streams }),
      ...(config.trustedProxies && { trusted_proxies: config.trustedProxies }),
    },
    ...(config.authorization && { authorization: config.authorization }),
  };
  return stringify(document);
}

/** Writes `serverConfigYaml(issuer, config)` to `file`; returns `file`. */
export async function writeServerConfig(
  file: string,
  issuer: Pick<TestIssuer, 'issuer' | 'jwksUrl' | 'audience'>,
  config: TestServerConfig = {},
): Promise<string> {
  await writeFile(file, serverConfigYaml(issuer, config));
  return file;
}
