/**
 * The embedded profile's own token issuer: Decom runs its adapters in the API's process, and they
 * authenticate like any client. At start an ES256 key pair is generated in memory (never written to disk,
 * gone at exit); each hosted adapter gets tokens `{ iss: urn:decom:embedded, aud: decom, sub/email:
 * adapter:<name> }` valid `ttlSeconds` (default 600), re-minted when less than a third of it is left.
 * The identity `adapter:<name>` of this issuer is bound to adapter `<name>` (access-policy.ts).
 */
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type CryptoKey, type JWTVerifyGetKey } from 'jose';
import { randomUUID } from 'node:crypto';
import type { JwtIssuerConfig } from '@decom/config';

export const EMBEDDED_ISSUER = 'urn:decom:embedded';
export const EMBEDDED_AUDIENCE = 'decom';

export class EmbeddedIssuer {
  private constructor(
    private readonly privateKey: CryptoKey,
    readonly keys: JWTVerifyGetKey,
    private readonly kid: string,
    private readonly ttlSeconds: number,
  ) {}

  static async create(ttlSeconds = 600): Promise<EmbeddedIssuer> {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const kid = randomUUID();
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    return new EmbeddedIssuer(privateKey, createLocalJWKSet({ keys: [jwk] }), kid, ttlSeconds);
  }

  get config(): JwtIssuerConfig {
    return { issuer_url: EMBEDDED_ISSUER, audience: EMBEDDED_AUDIENCE, identity_claim: 'sub', jwks_file: '(in memory)' };
  }

  /** A signed token for `identity`, valid `ttlSeconds` from now. */
  async mint(identity: string): Promise<string> {
    return new SignJWT({ email: identity })
      .setProtectedHeader({ alg: 'ES256', kid: this.kid })
      .setIssuer(EMBEDDED_ISSUER)
      .setAudience(EMBEDDED_AUDIENCE)
      .setSubject(identity)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.privateKey);
  }

  /** A token source for one identity: cached, re-minted once two thirds of its lifetime have passed. */
  tokenSource(identity: string): () => Promise<string> {
    let cached: { token: string; renewAtMs: number } | undefined;
    return async () => {
      if (!cached || Date.now() >= cached.renewAtMs) {
        cached = { token: await this.mint(identity), renewAtMs: Date.now() + (this.ttlSeconds * 1000 * 2) / 3 };
      }
      return cached.token;
    };
  }
}
