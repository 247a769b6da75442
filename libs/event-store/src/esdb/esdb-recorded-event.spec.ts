import type { AllStreamResolvedEvent } from '@eventstore/db-client';
import { EsdbStreamNames, toEventData, toRecordedEvent } from './esdb-recorded-event.js';

const created = new Date('2026-12-01T10:00:00.123Z');

function resolved(overrides: Record<string, unknown> = {}): AllStreamResolvedEvent {
  return {
    event: {
      streamId: 'cluster-a',
      id: '0190a1b2-0000-7000-8000-000000000001',
      isJson: true,
      revision: 3n,
      type: 'DeletionRequested',
      created,
      data: { id: 'a', generation: 2 },
      metadata: { caller: 'alice@example.com' },
      position: { commit: 5000n, prepare: 5000n },
      ...overrides,
    },
  } as AllStreamResolvedEvent;
}

describe('EventStoreDB events → port events', () => {
  it('maps stream, revision, position, data, metadata and recorded_time', () => {
    expect(toRecordedEvent(resolved(), new EsdbStreamNames())).toEqual({
      id: '0190a1b2-0000-7000-8000-000000000001',
      stream: 'cluster-a',
      revision: 3,
      position: 5000,
      type: 'DeletionRequested',
      data: { id: 'a', generation: 2 },
      metadata: { caller: 'alice@example.com' },
      recorded_time: '2026-12-01T10:00:00.123Z',
    });
  });

  it('filters out system events and streams, bare links, and other namespaces', () => {
    const plain = new EsdbStreamNames();
    expect(toRecordedEvent(resolved({ type: '$metadata' }), plain)).toBeUndefined();
    expect(toRecordedEvent(resolved({ streamId: '$$cluster-a' }), plain)).toBeUndefined();
    expect(toRecordedEvent({ link: resolved().event } as AllStreamResolvedEvent, plain)).toBeUndefined();

    const ns = new EsdbStreamNames('t1');
    expect(toRecordedEvent(resolved({ streamId: 't2.cluster-a' }), ns)).toBeUndefined();
    expect(toRecordedEvent(resolved({ streamId: 'cluster-a' }), ns)).toBeUndefined();
    expect(toRecordedEvent(resolved({ streamId: 't1.cluster-a' }), ns)?.stream).toBe('cluster-a');
  });

  it('decodes binary payloads written by other tools, and defaults missing metadata to {}', () => {
    const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
    const event = toRecordedEvent(resolved({ isJson: false, data: bytes('{"n":1}'), metadata: bytes('not json') }), new EsdbStreamNames());
    expect([event?.data, event?.metadata]).toEqual([{ n: 1 }, {}]);
    expect(toRecordedEvent(resolved({ metadata: undefined }), new EsdbStreamNames())?.metadata).toEqual({});
  });

  it('a stream read without a server-reported position carries 0', () => {
    expect(toRecordedEvent(resolved({ position: undefined }), new EsdbStreamNames())?.position).toBe(0);
  });
});

describe('port events → EventStoreDB', () => {
  it('writes JSON with the id kept, null data for none and {} metadata by default', () => {
    expect(toEventData({ id: 'e1', type: 'Tick', data: undefined })).toEqual({
      id: 'e1',
      contentType: 'application/json',
      type: 'Tick',
      data: null,
      metadata: {},
    });
    expect(toEventData({ id: 'e2', type: 'T', data: { a: 1 }, metadata: { caller: 'bob' } })).toMatchObject({
      data: { a: 1 },
      metadata: { caller: 'bob' },
    });
  });

  it('prefixes streams with the namespace and refuses a namespace that could leak into others', () => {
    const names = new EsdbStreamNames('t1');
    expect(names.toEsdb('cluster-a')).toBe('t1.cluster-a');
    expect(names.fromEsdb('t1.cluster-a')).toBe('cluster-a');
    expect(names.filterPrefix).toBe('t1.');
    expect(new EsdbStreamNames().filterPrefix).toBeUndefined();
    expect(() => new EsdbStreamNames('a.b')).toThrow(RangeError);
  });
});
