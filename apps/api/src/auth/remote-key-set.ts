/**
 * An issuer's JWKS fetched over HTTP (`jwk_cert_url`) and cached: jose's `createRemoteJWKSet` semantics
 * (refresh after `cacheMaxAgeMs`; a `kid` the cached set lacks refetches at most once per `cooldownMs`; one
 * fetch in flight, shared), but every duration is measured on a monotonic clock. jose measures them with
 * `Date.now()`, so a wall-clock step back (NTP correcting a fresh VM's clock) stretched the cooldown by the
 * size of the step: a token signed with a rotated key was refused (401) although the last fetch was more
 * than a cooldown ago. Key selection and import stay jose's (`createLocalJWKSet`).
 */
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

export interface RemoteKeySetOptions {
  /** Least time between two fetches caused by unknown `kid`s, ms. */
  readonly cooldownMs: number;
  /** Age after which the cached set is refetched before use, ms. */
  readonly cacheMaxAgeMs: number;
  /** Time allowed for one fetch (connect to body), ms. */
  readonly timeoutMs: number;
  /** Monotonic milliseconds (default `performance.now()`); tests pass a clock they advance themselves. */
  readonly monotonicNowMs?: () => number;
}

/**
 * The key resolver `jwtVerify` calls for tokens of one issuer.
 * The resolver rejects with: `JWKSNoMatchingKey` (kid unknown even after a refetch, or within the cooldown),
 * `JWKSTimeout`, `JOSEError` "Expected 200 OK from the JSON Web Key Set HTTP response" (any other status),
 * `JOSEError` "Failed to parse the JSON Web Key Set HTTP response as JSON", `JWKSInvalid` (not a key set),
 * or fetch's own error (connection refused, DNS): the same classes as jose's remote set, so
 * `JwtVerifier` maps them unchanged (401 for a verdict, 503 for an unavailable key source).
 * @see docs/security.md "Authentication" (rotation without restart, bounded refetches).
 */
export function remoteKeySet(url: URL, options: RemoteKeySetOptions): JWTVerifyGetKey {
  const now = options.monotonicNowMs ?? (() => performance.now());
  let cached: { keys: ReturnType<typeof createLocalJWKSet>; fetchedAtMs: number } | undefined;
  let inFlight: Promise<void> | undefined;
  const refetch = (): Promise<void> =>
    (inFlight ??= fetchKeySet(url, options.timeoutMs)
      .then((jwks) => {
        cached = { keys: createLocalJWKSet(jwks), fetchedAtMs: now() };
      })
      .finally(() => {
        inFlight = undefined;
      }));
  return async (header, token) => {
    if (!cached || now() - cached.fetchedAtMs >= options.cacheMaxAgeMs) await refetch();
    try {
      return await cached!.keys(header, token);
    } catch (error) {
      // An unknown kid is a rotation or a forgery: refetch, unless the last fetch is younger than the cooldown.
      if (error instanceof errors.JWKSNoMatchingKey && now() - cached!.fetchedAtMs >= options.cooldownMs) {
        await refetch();
        return cached!.keys(header, token);
      }
      throw error;
    }
  };
}

/** One GET of the key set, errors as jose's remote set raises them (see `remoteKeySet`). */
async function fetchKeySet(url: URL, timeoutMs: number): Promise<JSONWebKeySet> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', signal, redirect: 'manual', headers: { accept: 'application/json, application/jwk-set+json' } });
  } catch (error) {
    throw (error as Error).name === 'TimeoutError' ? new errors.JWKSTimeout(undefined, { cause: error }) : error;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new errors.JOSEError('Expected 200 OK from the JSON Web Key Set HTTP response');
  }
  try {
    return (await response.json()) as JSONWebKeySet;
  } catch (cause) {
    throw signal.aborted ? new errors.JWKSTimeout(undefined, { cause }) : new errors.JOSEError('Failed to parse the JSON Web Key Set HTTP response as JSON', { cause });
  }
}
