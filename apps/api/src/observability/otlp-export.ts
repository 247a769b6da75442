/**
 * Optional OpenTelemetry export: only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, the official
 * SDK packages are imported (lazily, so nothing OpenTelemetry loads otherwise) and one SERVER span per HTTP
 * request is exported over OTLP/HTTP (`<endpoint>/v1/traces`). The span's trace id is the request's W3C
 * trace id (`traceparent` of the request context), its parent the caller's span when it sent one, so a
 * collector joins Decom's spans with the caller's.
 */
import type { TraceContext } from '@decom/tracing';

export interface RequestSpan {
  /** The request's trace; its `parentSpanId` is the caller's span, when it sent a valid `traceparent`. */
  readonly trace: TraceContext;
  readonly method: string;
  readonly route: string;
  readonly status: number;
  /** Epoch ms. */
  readonly startMs: number;
  readonly durationMs: number;
}

export interface SpanExporter {
  exportRequest(span: RequestSpan): void;
  /** Flushes pending spans and stops the exporter. */
  shutdown(): Promise<void>;
}

/**
 * @param endpoint OTLP/HTTP base URL, e.g. `http://otel-collector:4318`.
 * @param info `service.version` and the component (`service.name` = `decom-<component>`).
 */
export async function startOtlpExport(endpoint: string, info: { version: string; component: string }): Promise<SpanExporter> {
  const [api, sdk, exporterModule, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = new exporterModule.OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` });
  // A request without a caller span is a root span whose trace id must be the request's own: the SDK's id
  // generator is asked for it synchronously inside startSpan, so it hands out the id set just before.
  let rootTraceId: string | undefined;
  const random = new sdk.RandomIdGenerator();
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': `decom-${info.component}`, 'service.version': info.version }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
    idGenerator: { generateTraceId: () => rootTraceId ?? random.generateTraceId(), generateSpanId: () => random.generateSpanId() },
  });
  const tracer = provider.getTracer('decom', info.version);
  return {
    exportRequest(span) {
      const traceId = span.trace.traceparent.split('-')[1]!;
      const parent = span.trace.parentSpanId
        ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
            traceId,
            spanId: span.trace.parentSpanId,
            traceFlags: api.TraceFlags.SAMPLED,
            isRemote: true,
          })
        : api.ROOT_CONTEXT;
      rootTraceId = traceId;
      let otelSpan;
      try {
        otelSpan = tracer.startSpan(
          `${span.method} ${span.route}`,
          {
            kind: api.SpanKind.SERVER,
            startTime: span.startMs,
            attributes: {
              'http.request.method': span.method,
              'http.route': span.route,
              'http.response.status_code': span.status,
              'decom.trace_id': span.trace.traceId,
            },
          },
          parent,
        );
      } finally {
        rootTraceId = undefined;
      }
      if (span.status >= 500) otelSpan.setStatus({ code: api.SpanStatusCode.ERROR });
      otelSpan.end(span.startMs + span.durationMs);
    },
    shutdown: () => provider.shutdown(),
  };
}
