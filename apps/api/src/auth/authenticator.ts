/**
 * Turns a request into its verified `Principal`:
 * - JWT on: `Authorization: Bearer <JWT>` is required (401 AUT-001 without, AUT-002 when not a bearer
 *   token or when it does not verify, AUT-003 when it expired); the identity is the issuer's `identity_claim`, or its
 *   `identity_header` when that issuer configures one and the request carries it (only then).
 *   `anonymous_reads: true` lets GET/HEAD through without a token as `anonymous`.
 * - JWT off: the `X-HyperFleet-Identity` header, else `system@hyperfleet.local` (HyperFleet's value with
 *   authentication disabled). A bearer token is then ignored, so browsers may send it unchanged.
 * Identities are 1..256 printable ASCII characters; anything else is refused, never stored altered. With
 * JWT on, a verified identity (claim or `identity_header`) not in canonical form (whitespace around it, an
 * e-mail not in lower case) is 401 naming the rule; an `identity_header` naming a system identity is 403
 * unless its issuer sets `system_identities: true`.
 */
import type { FastifyRequest } from 'fastify';
import { isValidIdentity, nonCanonicalIdentity } from '@decom/config';
import { ANONYMOUS_CALLER, IDENTITY_HEADER } from './identity-header.js';
import { Problems } from '../problem-details/problem.js';
import type { Principal } from './access-policy.js';
import type { JwtVerifier } from './jwt-verifier.js';
import type { TenantResolver } from './tenant-resolver.js';

export const ANONYMOUS_READER = 'anonymous';

export interface AuthenticatorOptions {
  /** Undefined = JWT off. */
  readonly verifier?: JwtVerifier;
  readonly anonymousReads?: boolean;
  /** Tenants on (`server.tenant.enabled`): the caller's tenancy is resolved after its identity. */
  readonly tenants?: TenantResolver;
  /**
   * Is `identity` a system identity (an adapter's)? An issuer's `identity_header` may name one only when
   * that issuer sets `system_identities: true`. Default: the `system:` prefix (Kubernetes service accounts).
   */
  readonly isSystemIdentity?: (identity: string) => boolean;
  /**
   * JWT off on a loopback address: only requests naming a loopback host (`localhost`, `127.0.0.0/8`,
   * `[::1]`) are served. Without it a web page whose name an attacker rebinds to 127.0.0.1 (DNS rebinding)
   * would be same-origin with the API, and with authentication off every caller may act as anyone.
   */
  readonly loopbackHostsOnly?: boolean;
}

export class Authenticator {
  constructor(private readonly options: AuthenticatorOptions) {}

  get jwtEnabled(): boolean {
    return this.options.verifier !== undefined;
  }

  /** JWT on with `anonymous_reads`: GET/HEAD may come without a token. */
  get anonymousReads(): boolean {
    return this.jwtEnabled && this.options.anonymousReads === true;
  }

  /**
   * @throws HttpProblem 401 (AUT-001..003), 503 (keys unavailable), 400 (header identity not valid) or,
   *   tenants on, 403 AUZ-001 (tenant-resolver.ts).
   */
  async authenticate(request: FastifyRequest): Promise<Principal> {
    if (!this.options.verifier) return this.authenticateNow(request);
    const { principal, claims } = await this.identify(request, this.options.verifier);
    return this.withTenant(request, principal, claims);
  }

  /** True when `authenticateNow` may be used: JWT off, nothing to verify asynchronously. */
  get canAuthenticateNow(): boolean {
    return this.options.verifier === undefined;
  }

  /**
   * `authenticate` without a promise, for JWT off (`canAuthenticateNow`: the hook runs on every request).
   * @throws as `authenticate`; Error when JWT is on.
   */
  authenticateNow(request: FastifyRequest): Principal {
    if (this.options.verifier) throw new Error('authenticateNow: JWT is on, use authenticate');
    // Node keeps the first of two Host headers; a proxy may route by the other: refuse the pair.
    if (this.options.loopbackHostsOnly && (headerOccurrences(request, 'host')?.length ?? 0) > 1) {
      throw Problems.validation('host must be sent once', [{ field: 'host', constraint: 'unique', message: 'host must be sent once' }]);
    }
    if (this.options.loopbackHostsOnly && !isLoopbackHostHeader(request.headers.host)) {
      throw Problems.forbidden(
        `authentication is off: only requests to a loopback host name (localhost, 127.0.0.1, [::1]) are served, not ${JSON.stringify(String(request.headers.host ?? '').slice(0, 64))}`,
      );
    }
    return this.withTenant(request, {
      identity: headerIdentity(request, IDENTITY_HEADER) ?? ANONYMOUS_CALLER,
      issuer: null,
      subject: null,
      tenant: null,
    });
  }

  /** `claims`: the verified token's payload (tenant dimensions bound to a claim). */
  private withTenant(request: FastifyRequest, principal: Principal, claims: Readonly<Record<string, unknown>> = {}): Principal {
    const tenants = this.options.tenants;
    return tenants ? { ...principal, tenant: tenants.resolve(request, principal, claims) } : principal;
  }

  private async identify(
    request: FastifyRequest,
    verifier: JwtVerifier,
  ): Promise<{ principal: Principal; claims: Readonly<Record<string, unknown>> }> {
    // HyperFleet's per-issuer `header`: the first configured token header the request carries.
    const source = verifier.tokenHeaders.find((name) => (single(request.headers[name]) ?? '').trim() !== '') ?? 'authorization';
    const authorization = onlyValue(request, source);
    if (authorization === undefined || authorization.trim() === '') {
      if (this.options.anonymousReads && (request.method === 'GET' || request.method === 'HEAD')) {
        return { principal: { identity: ANONYMOUS_READER, issuer: null, subject: null, tenant: null }, claims: {} };
      }
      throw Problems.authenticationRequired();
    }
    // Authorization needs the Bearer scheme; another configured header may carry the bare token too.
    const match =
      /^Bearer +([A-Za-z0-9._~+/=-]+)\s*$/i.exec(authorization) ??
      (source === 'authorization' ? null : /^\s*([A-Za-z0-9._~+/=-]+)\s*$/.exec(authorization));
    if (!match)
      throw Problems.invalidCredentials(`the ${source === 'authorization' ? 'Authorization' : source} header must be "Bearer <JWT>"`);
    const token = await verifier.verify(match[1]!);
    // A token is accepted only from the header its issuer names.
    if ((token.issuer.header ?? 'authorization') !== source) throw Problems.invalidToken('invalid');
    const headerName = token.issuer.identity_header;
    const named = headerName ? headerIdentity(request, headerName) : undefined;
    const notCanonical = named === undefined ? undefined : nonCanonicalIdentity(named);
    if (notCanonical !== undefined) throw Problems.invalidCredentials(`${headerName} is not in canonical form (${notCanonical})`);
    const isSystem = this.options.isSystemIdentity ?? ((identity: string) => identity.startsWith('system:'));
    if (named !== undefined && !token.issuer.system_identities && (isSystem(named) || named.startsWith('system:'))) {
      throw Problems.forbidden(
        `${headerName} may not name a system identity: issuer ${token.issuer.issuer_url} is not configured with system_identities`,
      );
    }
    const expires = typeof token.payload.exp === 'number' ? { expires_at: token.payload.exp * 1000 } : {};
    return {
      principal: { identity: named ?? token.identity, issuer: token.issuer.issuer_url, subject: token.subject, tenant: null, ...expires },
      claims: token.payload,
    };
  }
}

function single(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

/**
 * Every value a header was sent with, in order (`undefined` when absent), read from `rawHeaders`: what Node's
 * `headersDistinct` is built from for a request from a socket, and all a request injected by this process has
 * (the hosted adapters' in-process calls, Fastify's `inject`), so both are read by one rule.
 */
function headerOccurrences(request: FastifyRequest, name: string): string[] | undefined {
  const raw = request.raw.rawHeaders;
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if ((raw[i] as string).toLowerCase() === name) values.push(raw[i + 1] as string);
  return values.length > 0 ? values : undefined;
}

/**
 * The one value of a credential or identity header. Node joins repeated custom headers with ", " and keeps
 * only the first Authorization, so `a` and `b` would become the identity `a, b`, or a proxy and Decom would
 * each read a different token: a repeated header is refused instead.
 * @throws HttpProblem 400 naming the header when the request sends it more than once.
 */
function onlyValue(request: FastifyRequest, name: string): string | undefined {
  const values = headerOccurrences(request, name);
  if (values !== undefined && values.length > 1) {
    const message = `${name} must be sent once, got ${values.length} values`;
    throw Problems.validation(message, [{ field: name, constraint: 'unique', message }]);
  }
  return values?.[0];
}

/** @throws HttpProblem 400 naming the header when its value is not a valid identity or it is repeated. */
function headerIdentity(request: FastifyRequest, name: string): string | undefined {
  const raw = onlyValue(request, name);
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = raw.trim();
  // `a, b` is how a proxy joins two copies of the header: one caller's identity never contains a comma.
  if (value.includes(',')) {
    const message = `${name} must name one identity, got a comma-separated list`;
    throw Problems.validation(message, [{ field: name, constraint: 'pattern', message }]);
  }
  if (!isValidIdentity(value)) {
    throw Problems.validation(`${name} must be 1..256 printable ASCII characters`, [
      {
        field: name,
        constraint: value.length > 256 ? 'max_length' : 'pattern',
        message: `${name} must be 1..256 printable ASCII characters`,
      },
    ]);
  }
  return value;
}

/** The Host header names this machine: `localhost` (or a `*.localhost` name), `127.0.0.0/8` or `[::1]`, any port. */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  const name = (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')).toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}
