/**
 * "One adapter on one resource at a time" across processes. BullMQ OSS has no job groups (that is a
 * BullMQ Pro feature), so a job of a group first takes `<prefix>:decom:group:<group>` with `SET NX PX`:
 * a per-run random token and a TTL, renewed while the job runs. A worker killed with `kill -9` stops
 * renewing, so its lock frees itself after one TTL, the same time BullMQ takes to see the job stalled.
 *
 * Limit (shared with BullMQ's own job lock): a run whose event loop is blocked longer than the TTL can
 * lose the lock while still running; keep the TTL well above the longest synchronous stretch.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Extends the TTL only while the key still holds our token; re-takes it if it vanished (FLUSHALL). */
const RENEW = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if not v then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) and 1 or 0 end
return 0`;

/** Deletes the key only while it still holds our token (never someone else's lock). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface HeldGroupLock {
  /** Stops renewing and frees the group for the next job. */
  release(): Promise<void>;
}

export class GroupLocks {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Lock lifetime without renewal, in ms (renewed every third of it). */
    private readonly ttlMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  key(group: string): string {
    return `${this.prefix}:decom:group:${group}`;
  }

  /** Takes the group's lock, or returns undefined when another run holds it. */
  async acquire(group: string): Promise<HeldGroupLock | undefined> {
    const key = this.key(group);
    const token = randomUUID();
    const taken = await this.redis.set(key, token, 'PX', this.ttlMs, 'NX');
    if (taken !== 'OK') return undefined;
    const timer = setInterval(() => {
      this.redis.eval(RENEW, 1, key, token, this.ttlMs).catch(this.onError);
    }, Math.max(10, Math.floor(this.ttlMs / 3)));
    timer.unref();
    return {
      release: async () => {
        clearInterval(timer);
        await this.redis.eval(RELEASE, 1, key, token);
      },
    };
  }
}
