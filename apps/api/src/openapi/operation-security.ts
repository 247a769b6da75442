/**
 * The security every operation of the OpenAPI document declares, from the rule that decides it
 * (auth/public-routes.ts `PUBLIC_ROUTES`, matched on the route pattern as registered) and the configured
 * authentication (authenticator.ts):
 * - a public route: `security: []`, no 401/403;
 * - JWT on: `BearerAuth` (HTTP bearer, JWT) is required, 401 when it is missing, invalid or expired
 *   (`anonymous_reads`: a GET may also come without one);
 * - JWT off: the `X-HyperFleet-Identity` header names the caller, optional (`system@hyperfleet.local`
 *   without it), so no 401 can come.
 * Either way a non-public operation may answer 403 (roles, tenant, or the loopback-host rule with JWT off).
 */
import { PUBLIC_ROUTES } from '../auth/public-routes.js';
import { problemResponse } from './problem-responses.js';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** How this API authenticates (from the composition root's `Authenticator`). */
export interface ApiSecurityMode {
  readonly jwt: boolean;
  readonly anonymousReads: boolean;
}

/** `components.securitySchemes` for `mode`. */
export function securitySchemes(mode: ApiSecurityMode): Json {
  return mode.jwt
    ? {
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A JWT from a configured issuer (server.jwt); the caller is its identity claim',
        },
      }
    : {
        HyperFleetIdentity: {
          type: 'apiKey',
          in: 'header',
          name: 'X-HyperFleet-Identity',
          description:
            'Authentication off: the caller named by this header, `system@hyperfleet.local` without it (served only to loopback host names)',
        },
      };
}

/**
 * Sets `security` on every operation of `paths` (full paths, `{param}` templates as Nest scanned them) and
 * adds the 401/403 answers it implies. Mutates and returns `paths`.
 */
export function applySecurity(paths: Record<string, Json>, mode: ApiSecurityMode): Record<string, Json> {
  for (const [path, item] of Object.entries(paths)) {
    const pattern = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      if (PUBLIC_ROUTES.includes(`${method.toUpperCase()} ${pattern}`)) {
        operation['security'] = [];
        continue;
      }
      operation['security'] = mode.jwt
        ? [{ BearerAuth: [] }, ...(mode.anonymousReads && method === 'get' ? [{}] : [])]
        : [{ HyperFleetIdentity: [] }, {}];
      const responses = (operation['responses'] ??= {}) as Json;
      if (mode.jwt) responses['401'] ??= problemResponse(401);
      responses['403'] ??= problemResponse(403);
    }
  }
  return paths;
}
