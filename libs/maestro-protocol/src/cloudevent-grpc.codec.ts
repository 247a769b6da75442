import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** Full name of the CloudEvents gRPC service Maestro serves (proto/cloudevent.proto). */
export const CLOUDEVENT_SERVICE = 'io.cloudevents.v1.CloudEventService';

/** OCM's sdk-go keys every optional/extension attribute `ce-<name>` in `CloudEvent.attributes`. */
const ATTRIBUTE_PREFIX = 'ce-';

/** One `CloudEventAttributeValue` as proto-loader presents it (`keepCase`, `oneofs`; int64 as string). */
export interface ProtoAttributeValue {
  ce_boolean?: boolean;
  ce_integer?: number;
  ce_string?: string;
  ce_bytes?: Buffer;
  ce_uri?: string;
  ce_uri_ref?: string;
  ce_timestamp?: { seconds?: string | number; nanos?: number };
}

/** The protobuf `io.cloudevents.v1.CloudEvent` (binary mode: attributes map + `binary_data`). */
export interface ProtoCloudEvent {
  id: string;
  source: string;
  spec_version: string;
  type: string;
  attributes?: Record<string, ProtoAttributeValue>;
  binary_data?: Buffer;
  text_data?: string;
}

/** A CloudEvent as plain values: the four required attributes, extensions by name, JSON data. */
export interface PlainCloudEvent {
  readonly id: string;
  readonly source: string;
  readonly type: string;
  /** `datacontenttype`, `time` and extensions (`clustername`, `resourceid`, ...); a Date encodes as `ce_timestamp` (decoded back as an ISO string). */
  readonly attributes: Readonly<Record<string, string | number | boolean | Date>>;
  /** JSON-serialisable payload; absent when the event carries none. */
  readonly data?: unknown;
}

/**
 * The `CloudEventService` client constructor and service definition, loaded from
 * `proto/cloudevent.proto` next to this module (the build must ship the .proto file).
 */
export function loadCloudEventService(): { client: grpc.ServiceClientConstructor; service: grpc.ServiceDefinition } {
  const file = fileURLToPath(new URL('./proto/cloudevent.proto', import.meta.url));
  if (!existsSync(file))
    throw new Error(`maestro grpc: ${file} is missing (a build must copy libs/maestro-protocol/src/proto/ next to the compiled code)`);
  const definition = protoLoader.loadSync(file, { keepCase: true, longs: String, enums: String, defaults: false, oneofs: true });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    io: { cloudevents: { v1: { CloudEventService: grpc.ServiceClientConstructor } } };
  };
  const client = loaded.io.cloudevents.v1.CloudEventService;
  return { client, service: client.service };
}

function attributeFor(value: string | number | boolean | Date): ProtoAttributeValue {
  if (value instanceof Date)
    return { ce_timestamp: { seconds: Math.floor(value.getTime() / 1000), nanos: (value.getTime() % 1000) * 1e6 } };
  if (typeof value === 'boolean') return { ce_boolean: value };
  // CloudEvents integers are int32 (sdk-go validates extensions to int32).
  if (typeof value === 'number') return { ce_integer: value };
  return { ce_string: value };
}

function attributeFrom(value: ProtoAttributeValue): string | number | boolean | undefined {
  if (value.ce_boolean !== undefined) return value.ce_boolean;
  if (value.ce_integer !== undefined) return value.ce_integer;
  if (value.ce_string !== undefined) return value.ce_string;
  if (value.ce_uri !== undefined) return value.ce_uri;
  if (value.ce_uri_ref !== undefined) return value.ce_uri_ref;
  if (value.ce_bytes !== undefined) return Buffer.from(value.ce_bytes).toString('base64');
  if (value.ce_timestamp !== undefined) {
    const millis = Number(value.ce_timestamp.seconds ?? 0) * 1000 + Math.floor((value.ce_timestamp.nanos ?? 0) / 1e6);
    return new Date(millis).toISOString();
  }
  return undefined;
}

/** Encodes an event as OCM's grpc protocol writes it: `ce-`-prefixed attributes, JSON in `binary_data`. */
export function toProtoEvent(event: PlainCloudEvent): ProtoCloudEvent {
  const attributes: Record<string, ProtoAttributeValue> = {};
  for (const [name, value] of Object.entries(event.attributes)) attributes[`${ATTRIBUTE_PREFIX}${name}`] = attributeFor(value);
  return {
    id: event.id,
    source: event.source,
    spec_version: '1.0',
    type: event.type,
    attributes,
    ...(event.data !== undefined && { binary_data: Buffer.from(JSON.stringify(event.data), 'utf8') }),
  };
}

/**
 * Decodes a protobuf CloudEvent (`ce-` prefix optional on attribute keys).
 * @throws SyntaxError when the data is not JSON.
 */
export function fromProtoEvent(event: ProtoCloudEvent): PlainCloudEvent {
  const attributes: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(event.attributes ?? {})) {
    const decoded = attributeFrom(value);
    const name = key.startsWith(ATTRIBUTE_PREFIX) ? key.slice(ATTRIBUTE_PREFIX.length) : key;
    if (decoded !== undefined) attributes[name === 'contenttype' ? 'datacontenttype' : name] = decoded;
  }
  const raw = event.binary_data && event.binary_data.length > 0 ? Buffer.from(event.binary_data).toString('utf8') : event.text_data;
  return {
    id: event.id,
    source: event.source,
    type: event.type,
    attributes,
    ...(raw !== undefined && raw !== '' && { data: JSON.parse(raw) as unknown }),
  };
}
