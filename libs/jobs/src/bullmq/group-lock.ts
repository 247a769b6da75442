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

/**
 * Takes the lock and draws the run's fence sequence: `max(previous + 1, Redis TIME in µs)`, so it
 * grows with every run of the group, also after the fence key was lost (FLUSHALL, expiry): the
 * clock part is then larger than any earlier count. Returns 0 when the group is busy.
 */
const ACQUIRE = `
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local seq = math.max(last + 1, now)
redis.call('SET', KEYS[2], string.format('%d', seq), 'PX', ARGV[3])
return string.format('%d', seq)`;

/** 1 while the lock still holds our token and no later run drew a fence. */
const CURRENT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
return 1`;

/** How long a group's fence sequence is kept without a new run (its clock part covers a loss). */
const FENCE_RETENTION_MS = 7 * 24 * 3_600_000;

/** Deletes the key only while it still holds our token (never someone else's lock). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface HeldGroupLock {
  /** This run's fence sequence (job-queue.port.ts `JobFence`). */
  readonly sequence: number;
  /**
   * False once the lock was not renewed within its TTL (a frozen or partitioned process: someone
   * else may hold it now), or Redis says another run took the group since.
   */
  isCurrent(): Promise<boolean>;
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

  fenceKey(group: string): string {
    return `${this.prefix}:decom:fence:${group}`;
  }

  /** Takes the group's lock, or returns undefined when another run holds it. */
  async acquire(group: string): Promise<HeldGroupLock | undefined> {
    const key = this.key(group);
    const fenceKey = this.fenceKey(group);
    const token = randomUUID();
    const drawn = String(await this.redis.eval(ACQUIRE, 2, key, fenceKey, token, this.ttlMs, FENCE_RETENTION_MS));
    if (drawn === '0') return undefined;
    const sequence = Number(drawn);
    let renewedAt = Date.now();
    const timer = setInterval(
      () => {
        const asked = Date.now();
        this.redis
          .eval(RENEW, 1, key, token, this.ttlMs)
          .then((kept) => {
            if (Number(kept) === 1) renewedAt = asked;
          })
          .catch(this.onError);
      },
      Math.max(10, Math.floor(this.ttlMs / 3)),
    );
    timer.unref();
    return {
      sequence,
      isCurrent: async () => {
        // Checked locally first: after a freeze longer than the TTL the lock may be someone else's
        // even if Redis was re-taken by our own renewal since.
        if (Date.now() - renewedAt >= this.ttlMs) return false;
        return Number(await this.redis.eval(CURRENT, 2, key, fenceKey, token, drawn)) === 1;
      },
      release: async () => {
        clearInterval(timer);
        await this.redis.eval(RELEASE, 1, key, token);
      },
    };
  }
}
