import {
  acceptRequestId,
  currentTrace,
  outgoingTraceHeaders,
  parseTraceparent,
  runInTrace,
  traceContextFromHeaders,
  traceContextOf,
  w3cTraceIdOf,
} from './trace-context.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const VALID = `00-${TRACE}-00f067aa0ba902b7-01`;

describe('trace context (W3C traceparent, X-Request-Id)', () => {
  it('accepts a valid traceparent and refuses malformed, all-zero, version ff and oversized ones', () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE, parentId: '00f067aa0ba902b7', flags: '01' });
    for (const bad of [
      '',
      'garbage',
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `ff-${TRACE}-00f067aa0ba902b7-01`,
      `00-${TRACE.toUpperCase()}-00f067aa0ba902b7-01`,
      `00-${TRACE}-00f067aa0ba902b7-01-extra`,
      `01-${TRACE}-00f067aa0ba902b7-01-${'x'.repeat(600)}`,
    ]) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
    // A future version may append fields.
    expect(parseTraceparent(`01-${TRACE}-00f067aa0ba902b7-01-more`)?.traceId).toBe(TRACE);
  });

  it('keeps an X-Request-Id of at most 128 safe characters only', () => {
    expect(acceptRequestId('req-42.a:b_c')).toBe('req-42.a:b_c');
    expect(acceptRequestId('x'.repeat(128))).toBe('x'.repeat(128));
    for (const bad of ['x'.repeat(129), 'has space', 'a/b', '', '-leading', 'ünï']) expect(acceptRequestId(bad)).toBeUndefined();
  });

  it('prefers traceparent, then X-Request-Id, else generates 32 hex digits', () => {
    expect(traceContextFromHeaders({ traceparent: VALID, 'x-request-id': 'abc' }).traceId).toBe(TRACE);
    expect(traceContextFromHeaders({ traceparent: 'bad', 'x-request-id': 'abc' }).traceId).toBe('abc');
    const generated = traceContextFromHeaders({ 'x-request-id': 'x'.repeat(200) });
    expect(generated.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(generated.traceparent).toMatch(new RegExp(`^00-${generated.traceId}-[0-9a-f]{16}-01$`));
  });

  it('maps any trace id to a W3C trace id: itself, a UUID without dashes, or a stable hash', () => {
    expect(w3cTraceIdOf(TRACE)).toBe(TRACE);
    expect(w3cTraceIdOf('0190f0a2-7b3c-7d4e-8f5a-6b7c8d9e0f1a')).toBe('0190f0a27b3c7d4e8f5a6b7c8d9e0f1a');
    expect(w3cTraceIdOf('req-42')).toMatch(/^[0-9a-f]{32}$/);
    expect(w3cTraceIdOf('req-42')).toBe(w3cTraceIdOf('req-42'));
  });

  it('carries the current trace across awaits and stamps outgoing headers with a fresh span id', async () => {
    expect(outgoingTraceHeaders()).toEqual({});
    const context = traceContextOf('req-42');
    await runInTrace(context, async () => {
      await new Promise((r) => setTimeout(r, 1));
      expect(currentTrace()).toBe(context);
      const headers = outgoingTraceHeaders();
      expect(headers['x-request-id']).toBe('req-42');
      expect(parseTraceparent(headers['traceparent'])?.traceId).toBe(w3cTraceIdOf('req-42'));
      expect(headers['traceparent']).not.toBe(context.traceparent);
    });
    expect(currentTrace()).toBeUndefined();
  });
});
