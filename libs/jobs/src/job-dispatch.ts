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
import { currentTrace, type TraceContext } from '@decom/tracing';

/**
 * Enqueues `adapter`'s run for `data` (job id `<adapter>.<kind>-<id>.gen-<g>[.<suffix>]`, one adapter per
 * resource at a time). `time` is the CloudEvent's `time` (RFC 3339). Returns false when deduplicated.
 * `resource` keys the job when `data` was shaped by a Sentinel `message_data` (default: `data` itself); `trace`: the
 * trace the job carries (`trace_id`, the CloudEvent's `traceparent`), default the current one.
 */
export function enqueueAdapterRun(
  queue: JobQueue,
  adapter: string,
  data: ReconcileEventData,
  time: string,
  suffix?: string,
  resource: Pick<ReconcileEventData, 'kind' | 'id' | 'generation'> = data,
  trace: TraceContext | undefined = currentTrace(),
): Promise<boolean> {
  const id = adapterRunJobId(adapter, resource, suffix);
  const traceId = trace?.traceId;
  const job: AdapterRunJob = {
    adapter,
    event: reconcileCloudEvent(data, id, time, resource.kind, trace),
    rerun: 0,
    ...(traceId ? { trace_id: traceId } : {}),
  };
  return queue.enqueue(adapterRunQueue(adapter), id, job, { group: adapterRunGroup(adapter, resource.id), ...ADAPTER_RUN_RETRY });
}

/** Enqueues a hard-delete check of one resource; `trigger` makes the id unique per fact. Returns false when deduplicated. */
export function enqueueHardDeleteCheck(
  queue: JobQueue,
  kind: string,
  id: string,
  trigger: string,
  trace: TraceContext | undefined = currentTrace(),
): Promise<boolean> {
  const traceId = trace?.traceId;
  const job: HardDeleteJob = { id, kind, ...(traceId ? { trace_id: traceId } : {}) };
  return queue.enqueue(HARD_DELETE_QUEUE, hardDeleteJobId(kind, id, trigger), job, { group: `hard-delete.${id}` });
}
