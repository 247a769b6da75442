import Fastify from 'fastify';
import { installSecurityHeaders } from './security-headers.js';

describe('installSecurityHeaders', () => {
  async function answers(): Promise<Record<string, Record<string, unknown>>> {
    const fastify = Fastify();
    installSecurityHeaders(fastify);
    fastify.get('/ui/', async () => 'page');
    fastify.get('/refused', async (_request, reply) => reply.status(401).send({ title: 'Unauthorized' }));
    const result: Record<string, Record<string, unknown>> = {};
    for (const url of ['/ui/', '/refused', '/no-such-route']) result[url] = (await fastify.inject({ url })).headers;
    await fastify.close();
    return result;
  }

  it('forbids framing and foreign code on routed, refused and unrouted answers alike', async () => {
    for (const headers of Object.values(await answers())) {
      expect(headers['content-security-policy']).toBe(
        "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';connect-src 'self';" +
          "object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
      );
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('leaves HSTS to the TLS proxy in front', async () => {
    for (const headers of Object.values(await answers())) expect(headers['strict-transport-security']).toBeUndefined();
  });
});
