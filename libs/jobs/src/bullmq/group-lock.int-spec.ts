/**
 * Group-lock fences on a real Redis (`REDIS_URL` with a fresh prefix, or a throw-away server):
 * the sequence grows with every run of a group, also after the fence key is lost; a run whose lock
 * lapsed (its process frozen longer than the TTL) or that another run replaced is no longer current;
 * the persistent retry backoff lives beside them.
 */
import { Redis } from 'ioredis';
import { useRedis, type RedisForTests } from '../../../../test/support/redis.js';
import { GroupLocks } from './group-lock.js';
import { RedisRetryBackoffStore } from './redis-retry-backoff.js';

describe('GroupLocks fences', () => {
  let redis: RedisForTests;
  let client: Redis;
  let locks: GroupLocks;
  beforeAll(async () => {
    redis = await useRedis();
    client = new Redis(redis.url);
  });
  beforeEach(() => {
    locks = new GroupLocks(client, redis.prefix(), 300);
  });
  afterAll(async () => {
    await client?.quit();
    await redis?.stop();
  });

  it('each run of a group draws a larger sequence; the earlier run is no longer current', async () => {
    const first = (await locks.acquire('np-configmap.n1'))!;
    expect(await first.isCurrent()).toBe(true);
    expect(await locks.acquire('np-configmap.n1')).toBeUndefined();
    await first.release();
    const second = (await locks.acquire('np-configmap.n1'))!;
    expect(second.sequence).toBeGreaterThan(first.sequence);
    expect(await first.isCurrent()).toBe(false);
    expect(await second.isCurrent()).toBe(true);
    await second.release();
  });

  it('the sequence keeps growing after the fence key is lost (FLUSHALL, expiry): it starts from the Redis clock', async () => {
    const first = (await locks.acquire('g'))!;
    await first.release();
    await client.del(locks.fenceKey('g'));
    const second = (await locks.acquire('g'))!;
    expect(second.sequence).toBeGreaterThan(first.sequence);
    await second.release();
  });

  it('a run frozen longer than the TTL is not current, even after its own renewal re-took a vanished lock', async () => {
    const run = (await locks.acquire('g'))!;
    // A real freeze of this process' event loop (as a GC pause or SIGSTOP would be): no renewal runs.
    const until = Date.now() + 450;
    while (Date.now() < until) {
      // busy: the timers cannot fire
    }
    expect(await run.isCurrent()).toBe(false);
    await run.release();
  });

  it("RedisRetryBackoffStore keeps a resource and adapter's backoff in Redis (shared by workers, kept across restarts)", async () => {
    const prefix = redis.prefix();
    const store = new RedisRetryBackoffStore(client, prefix);
    await store.set('validation.cluster-c1', { generation: 2, attempts: 5, next_at_ms: 1_764_000_000_000 });
    // Another process (a fresh store on the same Redis) reads the same state.
    expect(await new RedisRetryBackoffStore(client, prefix).get('validation.cluster-c1')).toEqual({
      generation: 2,
      attempts: 5,
      next_at_ms: 1_764_000_000_000,
    });
    expect(await client.pttl(`${prefix}:decom:backoff:validation.cluster-c1`)).toBeGreaterThan(0);
    await store.clear('validation.cluster-c1');
    expect(await store.get('validation.cluster-c1')).toBeUndefined();
  });
});
