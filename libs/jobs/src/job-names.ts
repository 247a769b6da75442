import { currentTrace, type TraceContext } from '@decom/tracing';

/**
 * Queue names, payloads and deterministic job ids (`<adapter>.<kind>-<id>.gen-<generation>`;
 * BullMQ rejects `:` in custom ids).
 */

/**
 * Sentinel-shaped event data (HyperFleet: hyperfleet-sentinel docs/config.md): what an adapter receives,
 * whoever dispatched it.
 */
export interface ReconcileEventData {
  readonly id: string;
  readonly kind: string;
  readonly href: string;
  readonly generation: number;
  readonly owner_references?: { readonly id: string; readonly kind: string; readonly href: string };
}

/** A CloudEvent 1.0 envelope as HyperFleet's Sentinel publishes it. */
export interface ReconcileCloudEvent {
  readonly specversion: '1.0';
  readonly type: string;
  readonly source: string;
  readonly id: string;
  readonly time: string;
  readonly datacontenttype: 'application/json';
  /** W3C Trace Context extension (CloudEvents distributed tracing), when the work belongs to a trace. */
  readonly traceparent?: string;
  readonly data: ReconcileEventData;
}

export interface AdapterRunJob {
  readonly adapter: string;
  readonly event: ReconcileCloudEvent;
  /** 0 for the run a fact triggered; n for the n-th re-run while work is still in progress. */
  readonly rerun: number;
  /** The trace id of the request whose fact caused this run (event metadata `trace_id`). */
  readonly trace_id?: string;
  /** A trigger deferred by the persistent backoff (retry-backoff.ts), released at its time: runs without the gate. */
  readonly deferred?: boolean;
  /**
   * A run enqueued because a watch saw one of the resource's objects change: it skips the
   * backoff of work in progress, never a failure backoff.
   */
  readonly watch?: { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly resource_version: string };
  /**
   * On a backoff re-run: the persistent backoff's attempt count when it was scheduled. A later count (or
   * a cleared backoff) means another run of this resource and adapter ran since (e.g. one a watch
   * triggered), so this one is stale and ends without running.
   */
  readonly backoff_attempts?: number;
}

export interface HardDeleteJob {
  readonly id: string;
  readonly kind: string;
  /** The trace id of the request whose fact caused this check. */
  readonly trace_id?: string;
}

export const HARD_DELETE_QUEUE = 'hard-delete';

/**
 * Tries of one adapter-run job for transient failures and the base of their jittered exponential
 * backoff: 0.5 s doubling to the 60 s cap, about 3 minutes in all before the job is dead-lettered
 * (the sweep re-dispatches the resource later if it still has pending work).
 */
export const ADAPTER_RUN_RETRY = { attempts: 10, backoffMs: 500 } as const;

export function adapterRunQueue(adapter: string): string {
  return `adapter-run.${adapter}`;
}

export function adapterRunJobId(adapter: string, data: Pick<ReconcileEventData, 'kind' | 'id' | 'generation'>, suffix?: string): string {
  const base = `${adapter}.${data.kind.toLowerCase()}-${data.id}.gen-${data.generation}`;
  return suffix ? `${base}.${suffix}` : base;
}

/** One adapter on one resource runs one job at a time. */
export function adapterRunGroup(adapter: string, resourceId: string): string {
  return `${adapter}.${resourceId}`;
}

export function hardDeleteJobId(kind: string, id: string, trigger: string): string {
  return `hard-delete.${kind.toLowerCase()}-${id}.${trigger}`;
}

/** The reconcile CloudEvent; in a trace (`trace`, default the current one: `@decom/tracing`) it carries the W3C `traceparent` extension. */
export function reconcileCloudEvent(
  data: ReconcileEventData,
  id: string,
  time: string,
  kind: string = data.kind,
  trace: TraceContext | undefined = currentTrace(),
): ReconcileCloudEvent {
  const traceparent = trace?.traceparent;
  return {
    specversion: '1.0',
    type: `com.redhat.hyperfleet.${kind.toLowerCase()}.reconcile`,
    source: 'decom',
    id,
    time,
    datacontenttype: 'application/json',
    ...(traceparent ? { traceparent } : {}),
    data,
  };
}
