import { useThrowAwayRedis, type RedisForTests } from '../../../test/support/redis.js';
import { redisProbe, type RedisProbe } from './redis-probe.js';

/** Real redis-servers of the test's own (never REDIS_URL), each started with the settings a case needs. */
describe('redisProbe', () => {
  const servers: RedisForTests[] = [];
  const probes: RedisProbe[] = [];
  const start = async (args: string[] = []) => {
    const server = await useThrowAwayRedis(args);
    servers.push(server);
    return server;
  };
  const probeOf = (url: string, onUnknown?: (reason: string) => void) => {
    const probe = redisProbe(url, onUnknown);
    probes.push(probe);
    return probe;
  };
  const check = (probe: RedisProbe) => probe.check(new AbortController().signal);
  afterAll(async () => {
    for (const probe of probes) await probe.close();
    for (const server of servers) await server.stop();
  });

  it('is up with noeviction, down naming another policy', async () => {
    expect(await check(probeOf((await start()).url))).toEqual({ status: 'up', detail: { maxmemory_policy: 'noeviction' } });
    expect(await check(probeOf((await start(['--maxmemory-policy', 'volatile-lru'])).url))).toEqual({
      status: 'down',
      reason: 'maxmemory-policy is volatile-lru, BullMQ needs noeviction (jobs may be evicted)',
      detail: { maxmemory_policy: 'volatile-lru' },
    });
  });

  it('reads the policy from INFO memory when CONFIG is refused; unknown (reported once, still up) when INFO is too', async () => {
    const noConfig = await start(['--rename-command', 'CONFIG', '', '--maxmemory-policy', 'allkeys-lru']);
    expect(await check(probeOf(noConfig.url))).toMatchObject({ status: 'down', detail: { maxmemory_policy: 'allkeys-lru' } });
    const neither = await start(['--rename-command', 'CONFIG', '', '--rename-command', 'INFO', '']);
    const reasons: string[] = [];
    const probe = probeOf(neither.url, (reason) => reasons.push(reason));
    expect(await check(probe)).toEqual({ status: 'up', detail: { maxmemory_policy: 'unknown' } });
    expect(await check(probe)).toEqual({ status: 'up', detail: { maxmemory_policy: 'unknown' } });
    expect(reasons).toEqual([expect.stringMatching(/^CONFIG GET maxmemory-policy: .*unknown command.*; INFO memory: .*unknown command/i)]);
  });

  it('rejects at once, naming the connection error, once the server is gone', async () => {
    const server = await start();
    const probe = probeOf(server.url);
    await check(probe);
    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await expect(check(probe)).rejects.toThrow(/^not connected: /);
    expect(Date.now() - started).toBeLessThan(100);
  });
});
