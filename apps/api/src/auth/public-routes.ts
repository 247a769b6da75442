/**
 * Which routes answer without a verified caller, decided once per route when it is registered (Fastify's
 * `onRoute` hook) and read per request from the route that matched (`request.routeOptions.config`), never
 * from the URL string: the router decodes and normalises the path (`/a%70i/...` is `/api/...` to it), so
 * only its verdict says which handler will run. Everything not listed here, and every request no route
 * matched, needs a verified caller (request-authentication.ts), is rate limited and is tenant-scoped.
 *
 * Public: liveness and readiness (load balancers carry no token), the web UI's static files (the UI logs in
 * itself and calls the API with a token), the OpenAPI document (the API's shape, no data), and the CORS
 * preflight route (browsers send preflights without credentials by design). `/metrics` is served on its own
 * port (libs/metrics), not by this server.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `installPublicRoutes` on every route: true only for the routes `PUBLIC_ROUTES` lists. */
    decomPublic?: boolean;
  }
}

/**
 * Public routes as `METHOD pattern`, the pattern exactly as registered (Fastify syntax). GET routes list
 * their HEAD twin too (Fastify registers one per GET).
 */
export const PUBLIC_ROUTES: readonly string[] = [
  ...['/healthz', '/readyz', '/ui', '/ui/*', '/api/hyperfleet/v1/openapi.json', '/api/hyperfleet/v1/openapi.yaml'].flatMap((url) => [
    `GET ${url}`,
    `HEAD ${url}`,
  ]),
  // @fastify/cors's preflight route (only with DECOM_CORS_ORIGINS set): answers CORS headers, no data.
  'OPTIONS *',
];

const PUBLIC = new Set(PUBLIC_ROUTES);

/** One registered route, as the route table records it. */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
  readonly public: boolean;
}

const tables = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Installs the `onRoute` hook on `fastify` (before any route is registered): each route in `PUBLIC_ROUTES`
 * gets `config.decomPublic: true`, every other route is left needing authentication. Every route is also
 * recorded in the route table (`registeredRoutes`). A route registered with several methods is public only
 * when each of them is.
 */
export function installPublicRoutes(fastify: FastifyInstance): void {
  const table: RegisteredRoute[] = [];
  tables.set(fastify, table);
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toUpperCase());
    const isPublic = methods.every((method) => PUBLIC.has(`${method} ${route.url}`));
    // A caller-supplied flag is overwritten either way: only this list makes a route public.
    route.config = { ...route.config, decomPublic: isPublic };
    for (const method of methods) table.push({ method, url: route.url, public: isPublic });
  });
}

/** Every route registered on `fastify` since `installPublicRoutes`, in registration order. */
export function registeredRoutes(fastify: FastifyInstance): readonly RegisteredRoute[] {
  return tables.get(fastify) ?? [];
}

/** True when the route that matched `request` is declared public; false for unmatched requests (404). */
export function isPublicRoute(request: FastifyRequest): boolean {
  if (request.is404) return false;
  return request.routeOptions.config?.decomPublic === true;
}
