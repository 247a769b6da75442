/**
 * EventStoreDB events ↔ the port's events, and stream names inside an optional namespace.
 */
import type { AllStreamResolvedEvent, EventData, ResolvedEvent } from '@eventstore/db-client';
import type { NewEvent, RecordedEvent } from '../event-store.port.js';
import { toSafeNumber } from './esdb-revisions.js';
import { toPortPosition } from './esdb-positions.js';

/**
 * Stream names in EventStoreDB: `<namespace>.<stream>` when a namespace isolates the store on a shared
 * server (tests), else the stream name itself. A dot keeps `$ce-<namespace>.cluster` a category per namespace.
 */
export class EsdbStreamNames {
  private readonly prefix: string;

  constructor(namespace = '') {
    if (namespace !== '' && !/^[A-Za-z0-9_]+$/.test(namespace)) throw new RangeError(`namespace must be [A-Za-z0-9_]+, got "${namespace}"`);
    this.prefix = namespace === '' ? '' : `${namespace}.`;
  }

  toEsdb(stream: string): string {
    return `${this.prefix}${stream}`;
  }

  /** The port's stream name, or `undefined` for a stream outside the namespace or a system stream (`$...`). */
  fromEsdb(esdbStream: string): string | undefined {
    if (esdbStream.startsWith('$') || !esdbStream.startsWith(this.prefix)) return undefined;
    return esdbStream.slice(this.prefix.length);
  }

  /** Prefix for a server-side stream-name filter; `undefined` when the store owns the whole `$all`. */
  get filterPrefix(): string | undefined {
    return this.prefix === '' ? undefined : this.prefix;
  }
}

/** A port event with its id fixed → EventStoreDB's JSON event (data `null` when absent, metadata `{}`). */
export function toEventData(event: NewEvent & { readonly id: string }): EventData {
  // The client JSON-encodes `data` itself; its type says object/array/string, but any JSON value round-trips.
  return {
    id: event.id,
    contentType: 'application/json',
    type: event.type,
    data: (event.data ?? null) as Record<string, unknown>,
    metadata: { ...(event.metadata ?? {}) },
  };
}

/**
 * A resolved EventStoreDB event → the port's event; `undefined` when it is not ours to deliver: a bare link,
 * a system event or stream (`$...`), or a stream outside the namespace.
 * `position` is the `$all` position (see esdb-positions.ts); stream reads from servers that do not report
 * positions carry `0`.
 */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent, names: EsdbStreamNames): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || event.type.startsWith('$')) return undefined;
  const stream = names.fromEsdb(event.streamId);
  if (stream === undefined) return undefined;
  return {
    id: event.id,
    stream,
    revision: toSafeNumber(event.revision, 'revision'),
    position: toPortPosition(event.position) ?? 0,
    type: event.type,
    data: event.isJson ? event.data : decodeJson(event.data as Uint8Array),
    metadata: toMetadata(event.metadata),
    recorded_time: event.created.toISOString(),
  };
}

function toMetadata(metadata: unknown): Readonly<Record<string, unknown>> {
  const value = metadata instanceof Uint8Array ? decodeJson(metadata) : metadata;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Binary payloads written by other tools: JSON when they parse, else the raw text. */
function decodeJson(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return null;
  const text = Buffer.from(bytes).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
