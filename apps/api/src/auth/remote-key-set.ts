/**
 * An issuer's JWKS fetched over HTTP (`jwk_cert_url`) and cached: jose's `createRemoteJWKSet` semantics
 * (refresh after `cacheMaxAgeMs`; a `kid` the cached set lacks refetches at most once per `cooldownMs`; one
 * fetch in flight, shared), but every duration is measured on a monotonic clock, the cooldown also follows
 * a failed fetch (a failing endpoint is asked at most once per cooldown; meanwhile its error answers), and
 * the body is read up to `MAX_JWKS_BYTES`. jose measures them with
 * `Date.now()`, so a wall-clock step back (NTP correcting a fresh VM's clock) stretched the cooldown by the
 * size of the step: a token signed with a rotated key was refused (401) although the last fetch was more
 * than a cooldown ago. Key selection and import stay jose's (`createLocalJWKSet`).
 */
import { readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { Agent, fetch as undiciFetch } from 'undici';
import type { KeySetHealth } from '@decom/health';

/** Largest JWKS body read, bytes: a key set is a few KB; a larger answer is refused, not buffered. */
export const MAX_JWKS_BYTES = 1024 * 1024;

export interface RemoteKeySetOptions {
  /**
   * Least time between two fetches, ms, measured from the start of the last one, whether it succeeded or
   * failed: neither unknown `kid`s nor a failing endpoint turn into a flood of fetches.
   */
  readonly cooldownMs: number;
  /** Age after which the cached set is refetched before use, ms. */
  readonly cacheMaxAgeMs: number;
  /** Time allowed for one fetch (connect to body), ms. */
  readonly timeoutMs: number;
  /** Monotonic milliseconds (default `performance.now()`); tests pass a clock they advance themselves. */
  readonly monotonicNowMs?: () => number;
  /**
   * A PEM CA bundle trusted besides the system roots for this endpoint (HyperFleet's `jwk_cert_ca_file`),
   * read at each fetch so a renewed bundle is picked up; unreadable, the fetch fails (503, never accepted).
   */
  readonly caFile?: string;
}

/** The key resolver plus a readiness probe of the same cache (`/readyz`, `decom_dependency_up{dependency="jwks"}`). */
export type RemoteKeySet = JWTVerifyGetKey & {
  /**
   * Resolves when tokens of this issuer can be verified now: fresh cached keys (no fetch), or a fetch that
   * succeeded (it fills the cache requests use). Within the cooldown after a failed fetch, rejects with that
   * fetch's error without fetching again (the probe never floods a failing endpoint).
   * @throws the same errors as the resolver's fetch (see `remoteKeySet`).
   */
  probe(): Promise<KeySetHealth>;
};

/**
 * The key resolver `jwtVerify` calls for tokens of one issuer.
 * The resolver rejects with: `JWKSNoMatchingKey` (kid unknown even after a refetch, or within the cooldown),
 * `JWKSTimeout`, `JOSEError` "Expected 200 OK from the JSON Web Key Set HTTP response" (any other status),
 * `JOSEError` "Failed to parse the JSON Web Key Set HTTP response as JSON", `JOSEError` "… larger than …"
 * (a body over `MAX_JWKS_BYTES`), `JWKSInvalid` (not a key set),
 * or fetch's own error (connection refused, DNS): the same classes as jose's remote set, so
 * `JwtVerifier` maps them unchanged (401 for a verdict, 503 for an unavailable key source).
 * @see docs/security.md "Authentication" (rotation without restart, bounded refetches).
 */
export function remoteKeySet(url: URL, options: RemoteKeySetOptions): RemoteKeySet {
  const now = options.monotonicNowMs ?? (() => performance.now());
  let cached: { keys: ReturnType<typeof createLocalJWKSet>; fetchedAtMs: number } | undefined;
  let inFlight: Promise<void> | undefined;
  let lastAttempt: { atMs: number; error?: unknown } | undefined;
  const coolingDown = () => lastAttempt !== undefined && now() - lastAttempt.atMs < options.cooldownMs;
  const refetch = (): Promise<void> => {
    if (inFlight) return inFlight;
    const attempt: { atMs: number; error?: unknown } = { atMs: now() };
    lastAttempt = attempt;
    return (inFlight = fetchKeySet(url, options.timeoutMs, options.caFile)
      .then(
        (jwks) => {
          cached = { keys: createLocalJWKSet(jwks), fetchedAtMs: now() };
        },
        (error: unknown) => {
          attempt.error = error;
          throw error;
        },
      )
      .finally(() => {
        inFlight = undefined;
      }));
  };
  const isFresh = () => cached !== undefined && now() - cached.fetchedAtMs < options.cacheMaxAgeMs;
  const probe = async (): Promise<KeySetHealth> => {
    if (isFresh()) return { isCached: true, ageMs: now() - cached!.fetchedAtMs };
    if (!inFlight && coolingDown() && lastAttempt?.error !== undefined) throw lastAttempt.error;
    await refetch();
    return { isCached: false, ageMs: now() - cached!.fetchedAtMs };
  };
  const resolve: JWTVerifyGetKey = async (header, token) => {
    if (!cached || now() - cached.fetchedAtMs >= options.cacheMaxAgeMs) {
      // Keys needed and none usable: a fetch that failed within the cooldown answers for the endpoint.
      if (!inFlight && coolingDown() && lastAttempt?.error !== undefined) throw lastAttempt.error;
      await refetch();
    }
    try {
      return await cached!.keys(header, token);
    } catch (error) {
      // An unknown kid is a rotation or a forgery: refetch, unless the last fetch began within the cooldown.
      if (error instanceof errors.JWKSNoMatchingKey && (inFlight || !coolingDown())) {
        await refetch();
        return cached!.keys(header, token);
      }
      throw error;
    }
  };
  return Object.assign(resolve, { probe });
}

/** One GET of the key set, errors as jose's remote set raises them (see `remoteKeySet`). */
async function fetchKeySet(url: URL, timeoutMs: number, caFile?: string): Promise<JSONWebKeySet> {
  const signal = AbortSignal.timeout(timeoutMs);
  const request = { method: 'GET', signal, redirect: 'manual', headers: { accept: 'application/json, application/jwk-set+json' } } as const;
  let response: Response;
  try {
    if (caFile === undefined) response = await fetch(url, request);
    else {
      // undici's own fetch with an agent trusting the system roots plus the bundle (global fetch takes no CA).
      const agent = new Agent({ connect: { ca: [...rootCertificates, await readFile(caFile, 'utf8')] } });
      try {
        response = (await undiciFetch(url, { ...request, dispatcher: agent })) as unknown as Response;
        const text = await boundedText(response, MAX_JWKS_BYTES).catch((cause: unknown) => {
          throw cause instanceof errors.JOSEError ? cause : signal.aborted ? new errors.JWKSTimeout(undefined, { cause }) : cause;
        });
        response = new Response(text, { status: response.status, headers: response.headers });
      } finally {
        void agent.close();
      }
    }
  } catch (error) {
    throw (error as Error).name === 'TimeoutError' ? new errors.JWKSTimeout(undefined, { cause: error }) : error;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new errors.JOSEError('Expected 200 OK from the JSON Web Key Set HTTP response');
  }
  let text: string;
  try {
    text = await boundedText(response, MAX_JWKS_BYTES);
  } catch (cause) {
    if (cause instanceof errors.JOSEError) throw cause;
    throw signal.aborted ? new errors.JWKSTimeout(undefined, { cause }) : cause;
  }
  try {
    return JSON.parse(text) as JSONWebKeySet;
  } catch (cause) {
    throw new errors.JOSEError('Failed to parse the JSON Web Key Set HTTP response as JSON', { cause });
  }
}

/**
 * The body as text, refused past `maxBytes` without buffering the rest (fetch has no size limit of its own,
 * and a hostile or broken endpoint could otherwise fill the heap within the timeout).
 * @throws JOSEError when the body is larger; the stream's own error when reading fails.
 */
async function boundedText(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () => new errors.JOSEError(`JSON Web Key Set HTTP response larger than ${maxBytes} bytes`);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
