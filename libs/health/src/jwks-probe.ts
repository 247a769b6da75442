/**
 * The JWKS probe of `DependencyProbes`: every configured issuer must have usable keys (fresh in the cache
 * or fetched now for `jwk_cert_url`; a readable key set for `jwks_file`). An issuer without them answers every authenticated request with
 * 503, so the process is not ready; the reason names the issuer and the fetch's error.
 */
import type { DependencyProbe, ProbeVerdict } from './dependency-probes.js';

/** What an issuer's key-set probe found: usable keys, and whether they came from the cache. */
export interface KeySetHealth {
  /** True when fresh cached keys answered without a fetch. */
  readonly isCached: boolean;
  /** Age of the cached set, ms (monotonic). */
  readonly ageMs: number;
}

/** `sources`: `JwtVerifier.keySetProbes`. */
export function jwksProbe(sources: readonly { readonly issuer: string; probe(): Promise<KeySetHealth> }[]): DependencyProbe {
  return {
    dependency: 'jwks',
    affectsReadiness: true,
    async check(): Promise<ProbeVerdict> {
      const outcomes = await Promise.all(
        sources.map(async (source) => {
          try {
            const health = await source.probe();
            return { issuer: source.issuer, cached: health.isCached, age_seconds: Math.round(health.ageMs / 1000) };
          } catch (error) {
            return { issuer: source.issuer, error: describe(error) };
          }
        }),
      );
      const failed = outcomes.filter((outcome) => 'error' in outcome);
      if (failed.length === 0) return { status: 'up', detail: { issuers: outcomes } };
      return {
        status: 'down',
        reason: failed
          .map((outcome) => `keys of issuer ${outcome.issuer} cannot be loaded and none are cached: ${outcome.error}`)
          .join('; '),
        detail: { issuers: outcomes },
      };
    },
  };
}

/** fetch says only "fetch failed"; its cause says why (ECONNREFUSED, DNS). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const why = cause instanceof Error ? `${error.message} (${(cause as NodeJS.ErrnoException).code ?? cause.message})` : error.message;
  return why.split('\n')[0]!;
}
