/**
 * The adapters whose job queue (`adapter-run.<adapter>`) no process consumes now, for the `no_worker` mark
 * of their `AdapterNotFinalized` blockers: in the distributed profile, a deletion waiting on such an adapter
 * waits for a `decom worker` to start. None when the source cannot say (no `consumedQueues`; the job queue
 * unreachable, where `JobQueueUnavailable` already explains every deletion; `CLIENT LIST` refused).
 */
import { adapterRunQueue } from '@decom/jobs';
import type { IdleAdapter, KindRegistry } from '@decom/domain';
import type { DeadLetterSource } from '../tokens.js';

/** Never throws: without an answer no blocker is marked. */
export async function readIdleAdapters(source: DeadLetterSource, kinds: KindRegistry): Promise<IdleAdapter[]> {
  if (!source.consumedQueues || source.availability?.().status === 'unavailable') return [];
  let consumed: ReadonlySet<string>;
  try {
    consumed = new Set(await source.consumedQueues());
  } catch {
    // The mark only adds to the list: a Redis that refuses CLIENT LIST (ACLs, some managed services) or stops
    // answering must not fail it. The refusal shows in decom_scrape_collector_errors_total{collector="decom_queue_workers"}.
    return [];
  }
  const adapters = [...new Set(kinds.descriptors.flatMap((d) => d.required_adapters))].sort();
  return adapters.map((adapter) => ({ adapter, queue: adapterRunQueue(adapter) })).filter((a) => !consumed.has(a.queue));
}
