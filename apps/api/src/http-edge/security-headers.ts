/**
 * Security headers on every answer (`helmet`), written for the web UI Decom serves at `/ui/`: its
 * Vite build is one module script and one stylesheet from `/ui/assets/`, and it talks only to this origin
 * (REST, the event stream), so the policy allows nothing else. No page may frame the UI
 * (`frame-ancestors 'none'` and `X-Frame-Options: DENY`: a break-glass button inside an attacker's frame
 * is a clickjacking target). On JSON answers the same headers cost nothing and keep a browser from
 * rendering one as a page. HSTS is left to the TLS proxy in front (Decom serves plain HTTP).
 *
 * `helmet` itself rather than `@fastify/helmet`: the plugin builds a new helmet middleware for every request
 * (parsing the policy's directives each time, about 6 % of a `GET /clusters/{id}`'s CPU) and adds two hooks;
 * the headers here are the same for every route, so one middleware built at start serves them all.
 */
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';

const SELF = "'self'";

export const SECURITY_HEADERS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: [SELF],
      scriptSrc: [SELF],
      styleSrc: [SELF],
      imgSrc: [SELF, 'data:'],
      fontSrc: [SELF],
      connectSrc: [SELF],
      objectSrc: ["'none'"],
      baseUri: [SELF],
      formAction: [SELF],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  hsts: false,
};

/**
 * Sets the headers on every answer, routed or not (404, 405, and the 401/403/429 that later hooks give):
 * an `onRequest` hook on the root instance, registered before every other hook and route.
 * @throws Error from helmet at start if an option is invalid.
 */
export function installSecurityHeaders(fastify: FastifyInstance): void {
  const setHeaders = helmet(SECURITY_HEADERS);
  fastify.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
}
