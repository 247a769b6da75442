/**
 * `RetryBackoffStore` in Redis beside the queues (`<prefix>:decom:backoff:<key>`, a hash), so the backoff of
 * a resource and adapter survives worker restarts and is shared by every worker. Kept 7 days after its last
 * change (an idle key expires; a lost key only means the next run starts from the first delay).
 */
import type { Redis } from 'ioredis';
import type { RetryBackoffState, RetryBackoffStore } from '../retry-backoff.js';

const RETENTION_MS = 7 * 24 * 3_600_000;

export class RedisRetryBackoffStore implements RetryBackoffStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(key: string): string {
    return `${this.prefix}:decom:backoff:${key}`;
  }

  async get(key: string): Promise<RetryBackoffState | undefined> {
    const stored = await this.redis.hgetall(this.key(key));
    if (stored['attempts'] === undefined) return undefined;
    const reason = stored['reason'] === 'wait' || stored['reason'] === 'failure' ? stored['reason'] : undefined;
    const unreachable = stored['unreachable'];
    return {
      generation: Number(stored['generation']),
      attempts: Number(stored['attempts']),
      next_at_ms: Number(stored['next_at_ms']),
      ...(reason && { reason }),
      ...(unreachable && { unreachable }),
    };
  }

  async set(key: string, state: RetryBackoffState): Promise<void> {
    const write = this.redis.multi().hset(this.key(key), {
      generation: state.generation,
      attempts: state.attempts,
      next_at_ms: state.next_at_ms,
      ...(state.reason && { reason: state.reason }),
      ...(state.unreachable && { unreachable: state.unreachable }),
    });
    if (!state.reason) write.hdel(this.key(key), 'reason');
    if (!state.unreachable) write.hdel(this.key(key), 'unreachable');
    await write.pexpire(this.key(key), RETENTION_MS).exec();
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }
}
