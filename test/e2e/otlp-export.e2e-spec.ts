/**
 * Optional OpenTelemetry export: with OTEL_EXPORTER_OTLP_ENDPOINT set, request spans reach an
 * OTLP/HTTP collector (a real HTTP server here, recording what the official exporter POSTs to /v1/traces)
 * with the request's trace id and the caller's span as parent; without it, nothing is exported.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestEngine } from './engine-fixture.js';

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

describe('OpenTelemetry export (OTLP/HTTP)', () => {
  let collector: Server;
  let endpoint: string;
  const bodies: { contentType: string; body: string }[] = [];

  beforeAll(async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') bodies.push({ contentType: req.headers['content-type'] ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => collector.close(() => resolve())));

  it("exports one server span per request, in the request's trace, child of the caller's span", async () => {
    const fixture = await startTestEngine({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
    const traceId = hex(32);
    const parentId = hex(16);
    let untracedId: string;
    try {
      const answer = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters?page=1`, {
        headers: { traceparent: `00-${traceId}-${parentId}-01` },
      });
      expect(answer.status).toBe(200);
      const untraced = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters/nope`);
      untracedId = untraced.headers.get('x-request-id')!;
    } finally {
      await fixture.stop(); // flushes the batch processor
    }
    expect(bodies.length).toBeGreaterThanOrEqual(1);
    expect(bodies[0]!.contentType).toContain('application/json');
    const spans = bodies.flatMap((b) => JSON.parse(b.body).resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans)));
    const traced = spans.find((s: any) => s.traceId === traceId);
    expect(traced).toMatchObject({ parentSpanId: parentId, name: 'GET /api/hyperfleet/v1/:plural', kind: 2 });
    const root = spans.find((s: any) => s.traceId === untracedId);
    expect(root).toBeDefined();
    expect(root.parentSpanId ?? '').toBe('');
    const service = JSON.parse(bodies[0]!.body).resourceSpans[0].resource.attributes.find((a: any) => a.key === 'service.name');
    expect(service.value.stringValue).toBe('decom-api');
  });

  it('exports nothing when the endpoint is unset (the SDK is imported only when it is set)', async () => {
    bodies.length = 0;
    const fixture = await startTestEngine();
    try {
      await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`);
    } finally {
      await fixture.stop();
    }
    expect(bodies).toEqual([]);
  });
});
