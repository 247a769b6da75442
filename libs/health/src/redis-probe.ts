/**
 * The Redis probe of `DependencyProbes`: PING, then the eviction policy. BullMQ needs
 * `maxmemory-policy noeviction`: under any other policy Redis may evict job keys when memory runs out, and
 * jobs vanish without a trace, so another policy makes the process not ready, naming it.
 * The policy is read with `CONFIG GET maxmemory-policy`, else from `INFO memory` (managed Redis often
 * renames or refuses CONFIG); when neither says, the policy is unknown: the probe stays up and `onUnknownPolicy`
 * is called once.
 */
import { Redis } from 'ioredis';
import type { DependencyProbe, ProbeVerdict } from './dependency-probes.js';

/** The one policy under which Redis never drops a job's keys. */
export const REQUIRED_EVICTION_POLICY = 'noeviction';

export interface RedisProbe extends DependencyProbe {
  /** Closes the probe's own connection. */
  close(): Promise<void>;
}

/**
 * A probe with its own connection to `url` (not BullMQ's: a blocked queue command must not delay it). The
 * connection has no offline queue, so while Redis is down a PING fails at once instead of waiting for a
 * reconnect; ioredis reconnects in the background.
 * @param onUnknownPolicy called once when the policy cannot be read (CONFIG and INFO refused), with why.
 */
export function redisProbe(url: string, onUnknownPolicy?: (reason: string) => void): RedisProbe {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: (times) => Math.min(times * 200, 1_000),
    lazyConnect: true,
    // ioredis's ready check sends INFO, which a managed Redis may refuse: PING below says whether it answers.
    enableReadyCheck: false,
  });
  let lastError = 'connection lost';
  client.on('error', (error: Error) => (lastError = error.message.split('\n')[0] || lastError));
  let isUnknownReported = false;
  return {
    dependency: 'redis',
    affectsReadiness: true,
    async check(): Promise<ProbeVerdict> {
      if (client.status === 'wait') await client.connect();
      // Without an offline queue a command fails with "Stream isn't writeable": say what the connection saw.
      if (client.status !== 'ready') throw new Error(`not connected: ${lastError}`);
      await client.ping();
      const policy = await evictionPolicy(client);
      if (client.status !== 'ready') throw new Error(`not connected: ${lastError}`);
      if (policy.value === undefined) {
        if (!isUnknownReported) onUnknownPolicy?.(policy.reason);
        isUnknownReported = true;
        return { status: 'up', detail: { maxmemory_policy: 'unknown' } };
      }
      if (policy.value !== REQUIRED_EVICTION_POLICY) {
        return {
          status: 'down',
          reason: `maxmemory-policy is ${policy.value}, BullMQ needs ${REQUIRED_EVICTION_POLICY} (jobs may be evicted)`,
          detail: { maxmemory_policy: policy.value },
        };
      }
      return { status: 'up', detail: { maxmemory_policy: policy.value } };
    },
    async close() {
      // QUIT needs an open connection; otherwise stop the reconnect attempts at once.
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

async function evictionPolicy(client: Redis): Promise<{ value?: string; reason: string }> {
  let configError = '';
  try {
    const answer = (await client.call('CONFIG', 'GET', 'maxmemory-policy')) as string[];
    const value = answer[1];
    if (value) return { value, reason: '' };
  } catch (error) {
    configError = error instanceof Error ? error.message : String(error);
  }
  try {
    const info = await client.info('memory');
    const value = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
    if (value) return { value, reason: '' };
    return { reason: `CONFIG GET maxmemory-policy: ${configError || 'no answer'}; INFO memory has no maxmemory_policy` };
  } catch (error) {
    return {
      reason: `CONFIG GET maxmemory-policy: ${configError || 'no answer'}; INFO memory: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
