/**
 * The adapters whose job queue (`adapter-run.<adapter>`) no process consumes now, for the `no_worker` mark
 * of their `AdapterNotFinalized` blockers: in the distributed profile, a deletion waiting on such an adapter
 * waits for a `decom worker` to start. None when the source cannot say (no `consumedQueues`, the job queue
 * unreachable: `JobQueueUnavailable` already explains every deletion then).
 */
import { adapterRunQueue, QueueUnavailable } from '@decom/jobs';
import type { IdleAdapter, KindRegistry } from '@decom/domain';
import type { DeadLetterSource } from '../tokens.js';

/** @throws what `source.consumedQueues()` throws, except `QueueUnavailable`. */
export async function readIdleAdapters(source: DeadLetterSource, kinds: KindRegistry): Promise<IdleAdapter[]> {
  if (!source.consumedQueues || source.availability?.().status === 'unavailable') return [];
  let consumed: ReadonlySet<string>;
  try {
    consumed = new Set(await source.consumedQueues());
  } catch (error) {
    if (error instanceof QueueUnavailable) return [];
    throw error;
  }
  const adapters = [...new Set(kinds.descriptors.flatMap((d) => d.required_adapters))].sort();
  return adapters.map((adapter) => ({ adapter, queue: adapterRunQueue(adapter) })).filter((a) => !consumed.has(a.queue));
}
