/**
 * Per-request observability on the Fastify instance:
 * - the trace id: from a valid W3C `traceparent`, else a well-formed `X-Request-Id` (≤ 128 chars), else
 *   server-generated (`traceContextFromHeaders`); it is Fastify's `request.id` (so problem bodies carry it
 *   as `trace_id`), returned in the `X-Request-Id` response header, and the commands' `traceId` (caller.ts), so
 *   they record it in event metadata. No async context is entered per request: AsyncLocalStorage makes every
 *   promise of the process pay for propagation once any store is entered, and the route reads `request.id`;
 * - one access-log line per request: method, route, status, duration_ms, caller, trace_id;
 * - HyperFleet's request counter and duration histogram (path = route with ids replaced by `-` and the
 *   configured plurals of the kind-agnostic routes kept: `/api/hyperfleet/v1/clusters/-/statuses`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { routeLabel, type DecomMetrics } from '@decom/metrics';
import { traceContextFromHeaders, traceContextOf, type TraceContext } from '@decom/tracing';
import type { SpanExporter } from '../observability/otlp-export.js';

export interface RequestObservability {
  /** Access-log lines go here (info level); none when absent. */
  readonly logger?: Logger;
  readonly metrics?: DecomMetrics;
  /** OpenTelemetry export of one span per request (only when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  readonly spans?: SpanExporter;
}

/**
 * The route parameters that carry a kind's plural (`/:plural/:id/:childPlural`): a name, kept in the
 * metrics `path` label when `isPlural` knows it (a configured plural or `resources`), `-` otherwise.
 */
const PLURAL_PARAMS: ReadonlySet<string> = new Set(['plural', 'childPlural']);

const TRACE = Symbol('decom.trace');
type TracedMessage = IncomingMessage & { [TRACE]?: TraceContext };

/** Fastify `genReqId`: the request's trace id (the context is kept on the raw request for the hooks). */
export function traceRequestId(req: IncomingMessage): string {
  const context = traceContextFromHeaders(req.headers);
  (req as TracedMessage)[TRACE] = context;
  return context.traceId;
}

/** The trace of a request (the one `traceRequestId` chose). */
export function traceOf(request: FastifyRequest): TraceContext {
  return (request.raw as TracedMessage)[TRACE] ?? traceContextOf(String(request.id));
}

/**
 * Installs the hooks; call before routes are registered. `isPlural(segment)`: whether a path segment is
 * a configured plural (or `resources`), so the metrics label keeps it; a bounded set, so the label's
 * cardinality stays bounded (an unknown plural is labelled `-`).
 */
export function installRequestObservability(
  fastify: FastifyInstance,
  options: RequestObservability,
  isPlural: (segment: string) => boolean = () => false,
): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    void reply.header('x-request-id', String(request.id));
    done();
  });
  const { logger, metrics, spans } = options;
  if (!logger && !metrics && !spans) return;
  // The metrics label per route pattern and kept plurals, computed once (two regex replaces per request
  // otherwise). The cache key holds only kept plurals (unknown ones as `-`), so the cache stays bounded too.
  const labels = new Map<string | undefined, string>();
  const keep = (param: string, value: string) => PLURAL_PARAMS.has(param) && isPlural(value);
  const kept = (value: string | undefined) => (value !== undefined && isPlural(value) ? value : '-');
  const labelOf = (route: string | undefined, params: Readonly<Record<string, string | undefined>>) => {
    const key = route?.includes(':plural') ? `${route} ${kept(params['plural'])} ${kept(params['childPlural'])}` : route;
    let label = labels.get(key);
    if (label === undefined) labels.set(key, (label = routeLabel(route, params, keep)));
    return label;
  };
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = request.routeOptions?.url;
    const durationMs = reply.elapsedTime;
    metrics?.observeRequest(
      request.method,
      labelOf(route, (request.params ?? {}) as Record<string, string | undefined>),
      reply.statusCode,
      durationMs / 1000,
    );
    spans?.exportRequest({
      trace: traceOf(request),
      method: request.method,
      route: route ?? 'unmatched',
      status: reply.statusCode,
      startMs: Date.now() - durationMs,
      durationMs,
    });
    logger?.info(accessLine(request, reply, route, durationMs), 'request');
    done();
  });
}

/** The access-log line of one answer (also of answers given before routing: `route` is then `unmatched`). */
function accessLine(request: FastifyRequest, reply: FastifyReply, route: string | undefined, durationMs: number): Record<string, unknown> {
  return {
    method: request.method,
    route: route ?? 'unmatched',
    url: pathOf(request.url ?? '').slice(0, 512),
    status: reply.statusCode,
    duration_ms: Math.round(durationMs * 1000) / 1000,
    // Null when no caller was verified (public routes, refused requests).
    caller: request.decomPrincipal?.identity ?? null,
    trace_id: String(request.id),
    // A discarded adapter report (and any other answer that carries a Warning) says why in its line.
    ...(reply.hasHeader('warning') && { warning: String(reply.getHeader('warning')) }),
  };
}

/**
 * For answers the router gives before any hook runs (a bad percent-encoding, a path segment too long):
 * the `X-Request-Id` header now, and the access-log line once the answer is sent, as for every other request.
 */
export function observeUnroutedAnswer(options: RequestObservability, request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('x-request-id', String(request.id));
  const logger = options.logger;
  if (!logger) return;
  reply.raw.once('finish', () => logger.info(accessLine(request, reply, undefined, reply.elapsedTime), 'request'));
}

/**
 * For answers Node's HTTP parser gives before any request exists (a request line or headers too large):
 * the access-log line, with the trace id the answer carries.
 */
export function logUnparsedAnswer(options: RequestObservability, status: number, traceId: string): void {
  options.logger?.info({ method: null, route: 'unparsed', url: null, status, duration_ms: 0, caller: null, trace_id: traceId }, 'request');
}

/** `url` without its query string. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
