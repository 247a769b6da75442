/**
 * Bearer-token verification with `jose` (no hand-written crypto), HyperFleet `server.jwt` semantics:
 * RS256 or ES256 only, `iss` equal to a configured `issuer_url`, `aud` containing its
 * `audience`, `exp`/`nbf` with `clock_skew_seconds` of tolerance, a lifetime (`exp - iat`, or `exp - now`
 * without `iat`) of at most `max_token_lifetime_seconds`, identity from `identity_claim`.
 * JWKS over HTTP is cached (remote-key-set.ts, jose's semantics on a monotonic clock): an unknown `kid`
 * refetches at most once per cooldown (30 s), keys are refreshed after 10 minutes. A `jwks_file` is re-read
 * when its mtime changes.
 */
import { stat, readFile } from 'node:fs/promises';
import { createLocalJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { isValidIdentity, nonCanonicalIdentity, type JwtIssuerConfig } from '@decom/config';
import { Problems } from '../problem-details/problem.js';
import type { KeySetHealth } from '@decom/health';
import { remoteKeySet, type RemoteKeySet } from './remote-key-set.js';

/** A key resolver with the readiness probe of its source (a remote JWKS, or a `jwks_file`). */
type ProbedKeySet = JWTVerifyGetKey & Pick<RemoteKeySet, 'probe'>;

export const TOKEN_ALGORITHMS = ['RS256', 'ES256'];

/** What a verified token says. */
export interface VerifiedToken {
  readonly issuer: JwtIssuerConfig;
  readonly identity: string;
  readonly subject: string | null;
  readonly payload: JWTPayload;
}

export interface JwtVerifierOptions {
  readonly configs: readonly JwtIssuerConfig[];
  readonly clockSkewSeconds: number;
  /** Longest lifetime a token may claim, seconds (`server.jwt.max_token_lifetime_seconds`; default 86400). */
  readonly maxTokenLifetimeSeconds?: number;
  /** Issuers whose keys Decom holds in memory (the embedded adapters' minting key). */
  readonly localIssuers?: readonly { readonly config: JwtIssuerConfig; readonly keys: JWTVerifyGetKey }[];
  /** One line per key-fetch failure (never per request flood: the cooldown bounds the refetches). */
  readonly onKeyFetchError?: (issuer: string, error: Error) => void;
  /** Remote JWKS knobs (tests shorten the cooldown). */
  readonly remote?: { readonly cooldownMs?: number; readonly cacheMaxAgeMs?: number; readonly timeoutMs?: number };
}

export class JwtVerifier {
  private readonly byIssuer = new Map<string, { config: JwtIssuerConfig; keys: JWTVerifyGetKey }>();
  private readonly keyProbes: { issuer: string; probe(): Promise<KeySetHealth> }[] = [];

  constructor(private readonly options: JwtVerifierOptions) {
    for (const config of options.configs) {
      const remote = config.jwk_cert_url
        ? remoteKeySet(new URL(config.jwk_cert_url), {
            cooldownMs: options.remote?.cooldownMs ?? 30_000,
            cacheMaxAgeMs: options.remote?.cacheMaxAgeMs ?? 600_000,
            timeoutMs: options.remote?.timeoutMs ?? 5_000,
            ...(config.jwk_cert_ca_file !== undefined && { caFile: config.jwk_cert_ca_file }),
          })
        : undefined;
      const keys = remote ?? fileKeySet(config.jwks_file!);
      this.keyProbes.push({ issuer: config.issuer_url, probe: keys.probe });
      this.byIssuer.set(config.issuer_url, { config, keys });
    }
    for (const local of options.localIssuers ?? []) this.byIssuer.set(local.config.issuer_url, local);
  }

  get issuers(): readonly string[] {
    return [...this.byIssuer.keys()];
  }

  /**
   * One readiness probe per configured issuer, on the same keys the verification uses: for `jwk_cert_url`
   * the fetch cache (see `RemoteKeySet.probe`), for a `jwks_file` the file (missing, unreadable or not a key
   * set rejects). It resolves while tokens of the issuer can be verified. The in-memory issuer has none.
   */
  get keySetProbes(): readonly { readonly issuer: string; probe(): Promise<KeySetHealth> }[] {
    return this.keyProbes;
  }

  /** The request headers tokens arrive in (each issuer's `header`, lower-case; default `authorization`), in config order. */
  get tokenHeaders(): readonly string[] {
    return [...new Set([...this.byIssuer.values()].map((e) => e.config.header ?? 'authorization'))];
  }

  /**
   * @throws HttpProblem 401 AUT-002, AUT-003 when expired (stable reasons: `malformed`, `unknown issuer`, `expired`, `invalid`,
   *   `no usable identity`, `lifetime over N s (max_token_lifetime_seconds)`), 503 SVC-001 when the issuer's keys cannot be fetched. Never accepts on doubt.
   */
  async verify(token: string): Promise<VerifiedToken> {
    let claimedIssuer: unknown;
    try {
      claimedIssuer = decodeJwt(token).iss;
    } catch {
      throw Problems.invalidToken('malformed');
    }
    const entry = typeof claimedIssuer === 'string' ? this.byIssuer.get(claimedIssuer) : undefined;
    if (!entry) throw Problems.invalidToken('unknown issuer');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, entry.keys, {
        issuer: entry.config.issuer_url,
        audience: entry.config.audience,
        algorithms: TOKEN_ALGORITHMS,
        clockTolerance: this.options.clockSkewSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw this.refusal(entry.config, error);
    }
    // jose's `maxTokenAge` bounds `now - iat` (how old a token is), not how long it claims to live, and needs
    // `iat`: the lifetime is checked here, on the verified payload.
    // An `iat` ahead of now would stretch that measure: a token "issued" in 300 days with a one-minute lifetime
    // is usable from now until then. Such a token is refused, as jose refuses an `nbf` ahead of now.
    const maxLifetime = this.options.maxTokenLifetimeSeconds ?? 86_400;
    const latestIssue = Date.now() / 1000 + this.options.clockSkewSeconds;
    if (typeof payload.iat === 'number' && payload.iat > latestIssue) throw Problems.invalidToken('issued in the future (iat)');
    const from = typeof payload.iat === 'number' ? payload.iat : latestIssue;
    if (typeof payload.exp !== 'number' || payload.exp - from > maxLifetime)
      throw Problems.invalidToken(`lifetime over ${maxLifetime} s (max_token_lifetime_seconds)`);
    const claim = payload[entry.config.identity_claim];
    if (
      typeof claim !== 'string' ||
      !isValidIdentity(claim) ||
      (entry.config.identity_claim_pattern && !entry.config.identity_claim_pattern.test(claim))
    ) {
      throw Problems.invalidToken('no usable identity');
    }
    const notCanonical = nonCanonicalIdentity(claim);
    if (notCanonical !== undefined) throw Problems.invalidToken(`identity not in canonical form (${notCanonical})`);
    return { issuer: entry.config, identity: claim, subject: typeof payload.sub === 'string' ? payload.sub.slice(0, 256) : null, payload };
  }

  private refusal(config: JwtIssuerConfig, error: unknown): Error {
    if (error instanceof errors.JWTExpired) return Problems.invalidToken('expired');
    if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || isFetchFailure(error)) {
      this.options.onKeyFetchError?.(config.issuer_url, error as Error);
      return Problems.authenticationUnavailable();
    }
    return Problems.invalidToken('invalid');
  }
}

/**
 * Key-source failures: jose passes fetch's own errors through (connection refused, DNS), and a `jwks_file`
 * that cannot be read throws a file-system error. Anything that is not a JOSE verdict is infrastructure.
 */
function isFetchFailure(error: unknown): boolean {
  if (error instanceof errors.JOSEError)
    return error.constructor === errors.JOSEError && /JSON Web Key Set HTTP response/.test(error.message);
  return true;
}

/**
 * A local JWKS file as a key set, re-read when its mtime changes (checked at most once a second, measured
 * on the monotonic clock so a wall-clock step back cannot stop the checks).
 */
function fileKeySet(file: string): ProbedKeySet {
  let current: { mtimeMs: number; loadedAtMs: number; keys: JWTVerifyGetKey } | undefined;
  let checkedAt = 0;
  // Re-checks the file at most once a second; a changed mtime reloads it. A missing or broken file throws
  // (the token gets 503, /readyz says which file): the last good keys are not kept past a deletion.
  const load = async (): Promise<{ keys: JWTVerifyGetKey; cached: boolean }> => {
    const now = performance.now();
    if (current && now - checkedAt <= 1_000) return { keys: current.keys, cached: true };
    checkedAt = now;
    try {
      const info = await stat(file);
      if (current && info.mtimeMs === current.mtimeMs) return { keys: current.keys, cached: true };
      current = {
        mtimeMs: info.mtimeMs,
        loadedAtMs: now,
        keys: createLocalJWKSet(JSON.parse(await readFile(file, 'utf8')) as JSONWebKeySet),
      };
      return { keys: current.keys, cached: false };
    } catch (error) {
      // Forget the old keys: a removed or broken file revokes them, steadily, until a good file is back.
      current = undefined;
      throw error;
    }
  };
  const resolve = (async (header, token) => (await load()).keys(header, token)) as ProbedKeySet;
  resolve.probe = async () => {
    const { cached } = await load();
    return { isCached: cached, ageMs: performance.now() - current!.loadedAtMs };
  };
  return resolve;
}
