/**
 * The two ways work is put on the queues, shared by the dispatch reactor and the sweeper so ids, groups
 * and retry settings cannot drift apart: an adapter run for one resource at one generation, and a
 * hard-delete check. Inside a trace (the fact's `trace_id`), jobs carry it (`trace_id`, CloudEvent `traceparent`).
 */
import {
  ADAPTER_RUN_RETRY,
  HARD_DELETE_QUEUE,
  adapterRunGroup,
  adapterRunJobId,
  adapterRunQueue,
  hardDeleteJobId,
  reconcileCloudEvent,
  type AdapterRunJob,
  type HardDeleteJob,
  type ReconcileEventData,
} from './job-names.js';
import type { JobQueue } from './job-queue.port.js';
import { currentTrace } from '@decom/tracing';

/**
 * Enqueues `adapter`'s run for `data` (job id `<adapter>.<kind>-<id>.gen-<g>[.<suffix>]`, one adapter per
 * resource at a time). `time` is the CloudEvent's `time` (RFC 3339). Returns false when deduplicated.
 * `resource` keys the job when `data` was shaped by a Sentinel `message_data` (default: `data` itself).
 */
export function enqueueAdapterRun(
  queue: JobQueue,
  adapter: string,
  data: ReconcileEventData,
  time: string,
  suffix?: string,
  resource: Pick<ReconcileEventData, 'kind' | 'id' | 'generation'> = data,
): Promise<boolean> {
  const id = adapterRunJobId(adapter, resource, suffix);
  const traceId = currentTrace()?.traceId;
  const job: AdapterRunJob = { adapter, event: reconcileCloudEvent(data, id, time, resource.kind), rerun: 0, ...(traceId ? { trace_id: traceId } : {}) };
  return queue.enqueue(adapterRunQueue(adapter), id, job, { group: adapterRunGroup(adapter, resource.id), ...ADAPTER_RUN_RETRY });
}

/** Enqueues a hard-delete check of one resource; `trigger` makes the id unique per fact. Returns false when deduplicated. */
export function enqueueHardDeleteCheck(queue: JobQueue, kind: string, id: string, trigger: string): Promise<boolean> {
  const traceId = currentTrace()?.traceId;
  const job: HardDeleteJob = { id, kind, ...(traceId ? { trace_id: traceId } : {}) };
  return queue.enqueue(HARD_DELETE_QUEUE, hardDeleteJobId(kind, id, trigger), job, { group: `hard-delete.${id}` });
}
