/**
 * Re-runs on recovery: when a dependency the adapters call answers again after an outage (the Kubernetes
 * probe of the process going down → up), the adapter runs backing off because they could not reach it
 * run now instead of at their backoff's slot, which may be minutes later (up to the 10 min cap).
 *
 * Which runs: the delayed jobs of the adapter-run queues whose resource and adapter hold a failure backoff
 * (retry-backoff.ts) recording that dependency as unreachable at the job's generation: the queue's own
 * retries of a failed run and the triggers the backoff deferred. Runs merely waiting for work in progress,
 * and runs that failed with an answer (a 5xx, a refusal), keep their time. A run dead-lettered during the
 * outage is not in backoff, but the next trigger of its resource would wait for the backoff's slot: that
 * slot is moved to now.
 */
import type { JobQueue } from './job-queue.port.js';
import { adapterRunQueue, type AdapterRunJob } from './job-names.js';
import { retryBackoffKey, type RetryBackoffState } from './retry-backoff.js';

/** What one recovery did. */
export interface BackoffRecovery {
  /** Delayed runs made due now. */
  readonly requeued: number;
  /**
   * Resources and adapters whose runs were dead-lettered (retries exhausted during the outage) with such a
   * failure backoff: its slot is moved to now, so the next trigger (the sweep re-dispatches pending work)
   * runs at once instead of waiting for it. The dead letters themselves stay (`decom jobs retry` runs one now).
   */
  readonly released: number;
}

/**
 * Promotes, in each adapter's queue, the delayed runs backing off because `dependency` (e.g. `kubernetes`)
 * was unreachable, and releases the backoff of such runs that were dead-lettered. Safe to call from several
 * processes at once and repeatedly: a job promoted already is skipped (`JobQueue.promoteDelayed`), a
 * released backoff is released again harmlessly. A queue without `promoteDelayed` or without a backoff
 * store does nothing.
 * @param adapters adapter names (their queues are `adapter-run.<adapter>`).
 * @param now the clock, ms since the epoch.
 * @throws what the queue or its store throws (Redis unreachable).
 */
export async function requeueBackedOffRuns(
  queue: JobQueue,
  adapters: readonly string[],
  dependency: string,
  now: () => number = Date.now,
): Promise<BackoffRecovery> {
  const store = queue.retryBackoff;
  if (!queue.promoteDelayed || !store) return { requeued: 0, released: 0 };
  /** The backoff key of a run held because `dependency` was unreachable, else undefined. */
  const heldKey = async (adapter: string, data: unknown): Promise<{ key: string; state: RetryBackoffState } | undefined> => {
    const event = (data as Partial<AdapterRunJob> | undefined)?.event?.data;
    if (!event) return undefined;
    const key = retryBackoffKey(adapter, event.kind, event.id);
    const state = await store.get(key);
    return state?.reason === 'failure' && state.unreachable === dependency && state.generation === event.generation
      ? { key, state }
      : undefined;
  };
  let requeued = 0;
  const released = new Set<string>();
  for (const adapter of adapters) {
    const name = adapterRunQueue(adapter);
    requeued += await queue.promoteDelayed(name, async ({ data }) => (await heldKey(adapter, data)) !== undefined);
    for (const dead of await queue.failed(name)) {
      const held = await heldKey(adapter, dead.data);
      if (!held || released.has(held.key) || held.state.next_at_ms <= now()) continue;
      await store.set(held.key, { ...held.state, next_at_ms: now() });
      released.add(held.key);
    }
  }
  return { requeued, released: released.size };
}
