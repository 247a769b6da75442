import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { useRedis } from './redis.js';

/** Resolves true when something accepts TCP connections on the URL's host and port. */
function isListening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('useRedis', () => {
  it('gives a working server and stops it', async () => {
    const redis = await useRedis();
    const client = new Redis(redis.url, { maxRetriesPerRequest: 0, lazyConnect: true });
    try {
      await client.connect();
      const key = `support-check-${process.pid}-${Date.now()}`;
      await client.set(key, 'ok', 'EX', 10);
      expect(await client.get(key)).toBe('ok');
    } finally {
      await client.quit();
      await redis.stop();
    }
    // A server we started is gone (with REDIS_URL the shared server must stay up).
    expect(await isListening(redis.url)).toBe(Boolean(process.env['REDIS_URL']));
  });
});
