/**
 * The trace id of one piece of work (an API request, the jobs it caused, the adapter calls they make)
 * (W3C Trace Context level 1). Passed explicitly where it is known (a request's `request.id`, a fact's
 * `trace_id` handed to the jobs it enqueues); carried across `await`s with `AsyncLocalStorage` (`runInTrace`)
 * only around an adapter run, so the HTTP and Kubernetes clients can stamp its outgoing requests. Entering a
 * store makes every promise of the process pay for propagation from then on, so nothing else enters one.
 *
 * Shapes: `traceId` is 32 lower-case hex digits (W3C trace-id) when Decom made it or the caller sent a
 * valid `traceparent`; otherwise the caller's well-formed `X-Request-Id` (1–128 of `[A-Za-z0-9._:-]`,
 * HyperFleet's `trace_id` = request id). `traceparent` is always a valid W3C header value.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';

export interface TraceContext {
  /** What `trace_id` shows everywhere: problem bodies, event metadata, log lines, the `X-Request-Id` header. */
  readonly traceId: string;
  /** `00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`, sent on outgoing calls. */
  readonly traceparent: string;
  /** The caller's span id, when the request came with a valid `traceparent` (OpenTelemetry export). */
  readonly parentSpanId?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
export const MAX_REQUEST_ID_LENGTH = 128;

/**
 * Random bytes for ids, filled 4 KiB at a time: one `randomBytes` call per request was a measurable share of
 * a GET; the bytes are as random, only fetched in bulk. Never reused: each id takes fresh ones.
 */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomHex(bytes: number): string {
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

/** A fresh 8-byte W3C parent/span id. */
export function newSpanId(): string {
  return randomHex(8);
}

/** A fresh 16-byte W3C trace id. */
export function newTraceId(): string {
  return randomHex(16);
}

/**
 * Parses a W3C `traceparent`; `undefined` for anything malformed, version `ff`, all-zero ids, or over 512 chars.
 * @returns the trace id and flags of a well-formed header.
 */
export function parseTraceparent(value: string | undefined): { traceId: string; parentId: string; flags: string } | undefined {
  if (!value || value.length > 512) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags] = match as unknown as [string, string, string, string, string];
  if (version === 'ff' || /^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  if (version === '00' && value.trim().length !== 55) return undefined;
  return { traceId, parentId, flags };
}

/** The caller's `X-Request-Id` when well-formed and at most 128 characters; `undefined` otherwise (then ignored). */
export function acceptRequestId(value: string | undefined): string | undefined {
  return value !== undefined && REQUEST_ID.test(value) ? value : undefined;
}

/** A W3C trace id for any trace id: itself when already 32 hex, a UUID without dashes, else a stable hash. */
export function w3cTraceIdOf(traceId: string): string {
  const hex = traceId.toLowerCase().replace(/-/g, '');
  if (/^[0-9a-f]{32}$/.test(hex) && !/^0+$/.test(hex)) return hex;
  return createHash('sha256').update(traceId).digest('hex').slice(0, 32);
}

/** The context of a trace id, with a new span id in its `traceparent` (sampled flag set). */
export function traceContextOf(traceId: string, flags = '01'): TraceContext {
  return { traceId, traceparent: `00-${w3cTraceIdOf(traceId)}-${newSpanId()}-${flags}` };
}

/**
 * The context of an incoming request: a valid `traceparent` wins, then a well-formed `X-Request-Id`,
 * else a server-generated id. Malformed or oversized values are dropped, never echoed.
 */
export function traceContextFromHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): TraceContext {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const parent = parseTraceparent(first('traceparent'));
  if (parent) return { ...traceContextOf(parent.traceId, parent.flags), parentSpanId: parent.parentId };
  const requestId = acceptRequestId(first('x-request-id'));
  if (requestId !== undefined) return traceContextOf(requestId);
  // A fresh id is already a W3C trace id (32 lower-case hex digits; all zeros has odds 2^-128 and is left to
  // traceContextOf): no normalising per request.
  const traceId = newTraceId();
  return traceId === ZERO_TRACE_ID ? traceContextOf(traceId) : { traceId, traceparent: `00-${traceId}-${newSpanId()}-01` };
}

const ZERO_TRACE_ID = '0'.repeat(32);

const storage = new AsyncLocalStorage<TraceContext>();

/** Runs `fn` with `context` as the current trace (propagated across awaits, timers and promises). */
export function runInTrace<T>(context: TraceContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The current trace, if the code runs inside `runInTrace`. */
export function currentTrace(): TraceContext | undefined {
  return storage.getStore();
}

/**
 * Headers to add to an outgoing call in the current trace: `traceparent` with a fresh span id, and
 * `X-Request-Id` so a Decom (or HyperFleet) API records the same `trace_id`. Empty outside a trace.
 */
export function outgoingTraceHeaders(): Record<string, string> {
  const trace = currentTrace();
  if (!trace) return {};
  return { traceparent: traceContextOf(trace.traceId, trace.traceparent.slice(-2)).traceparent, 'x-request-id': trace.traceId };
}
