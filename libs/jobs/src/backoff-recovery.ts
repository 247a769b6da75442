/**
 * Re-runs on recovery: when a dependency the adapters call answers again after an outage (the Kubernetes
 * probe of the process going down → up), the adapter runs backing off because they could not reach it
 * run now instead of at their backoff's slot, which may be minutes later (up to the 10 min cap).
 *
 * Which runs: the delayed jobs of the adapter-run queues whose resource and adapter hold a failure backoff
 * (retry-backoff.ts) recording that dependency as unreachable at the job's generation: the queue's own
 * retries of a failed run and the triggers the backoff deferred. Runs merely waiting for work in progress,
 * and runs that failed with an answer (a 5xx, a refusal), keep their time.
 */
import type { JobQueue } from './job-queue.port.js';
import { adapterRunQueue, type AdapterRunJob } from './job-names.js';
import { retryBackoffKey } from './retry-backoff.js';

/**
 * Promotes, in each adapter's queue, the delayed runs backing off because `dependency` (e.g. `kubernetes`)
 * was unreachable. Safe to call from several processes at once and repeatedly: a job promoted already is
 * skipped (`JobQueue.promoteDelayed`). A queue without `promoteDelayed` or without a backoff store
 * promotes nothing.
 * @param adapters adapter names (their queues are `adapter-run.<adapter>`).
 * @returns how many runs this call made due.
 * @throws what the queue's store throws (Redis unreachable).
 */
export async function requeueBackedOffRuns(queue: JobQueue, adapters: readonly string[], dependency: string): Promise<number> {
  const store = queue.retryBackoff;
  if (!queue.promoteDelayed || !store) return 0;
  let promoted = 0;
  for (const adapter of adapters) {
    promoted += await queue.promoteDelayed(adapterRunQueue(adapter), async ({ data }) => {
      const event = (data as Partial<AdapterRunJob> | undefined)?.event?.data;
      if (!event) return false;
      const state = await store.get(retryBackoffKey(adapter, event.kind, event.id));
      return state?.reason === 'failure' && state.unreachable === dependency && state.generation === event.generation;
    });
  }
  return promoted;
}
