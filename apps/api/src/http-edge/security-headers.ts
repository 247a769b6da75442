/**
 * Security headers on every answer (`@fastify/helmet`), written for the web UI Decom serves at `/ui/`: its
 * Vite build is one module script and one stylesheet from `/ui/assets/`, and it talks only to this origin
 * (REST, the event stream), so the policy allows nothing else. No page may frame the UI
 * (`frame-ancestors 'none'` and `X-Frame-Options: DENY`: a break-glass button inside an attacker's frame
 * is a clickjacking target). On JSON answers the same headers cost nothing and keep a browser from
 * rendering one as a page. HSTS is left to the TLS proxy in front (Decom serves plain HTTP).
 */
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const SELF = "'self'";

export const SECURITY_HEADERS: FastifyHelmetOptions = {
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

/** Registers the headers for every route added after it (helmet reads each route as it is added). */
export async function installSecurityHeaders(fastify: FastifyInstance): Promise<void> {
  await fastify.register(helmet, SECURITY_HEADERS);
}
