import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { TransportError } from '../transport-error.js';
import { fromProtoEvent, loadCloudEventService, type ProtoCloudEvent, toProtoEvent } from '@decom/maestro-protocol';
import { MANIFEST_BUNDLE_DATA_TYPE, type SpecEvent } from './maestro-http.client.js';

/** Where and how to reach Maestro's gRPC server (from `clients.maestro`; durations in milliseconds). */
export interface MaestroGrpcSourceClientOptions {
  /** `grpc_server_address`, `host:port`. */
  readonly address: string;
  /** `source_id`: the CloudEvents source of every spec event and the subscription's source. */
  readonly sourceId: string;
  /** `client_id`; sent as the `grpc.primary_user_agent` so Maestro's logs name us. */
  readonly clientId?: string;
  /** Plaintext (no TLS) when true and no TLS file is given. */
  readonly insecure?: boolean;
  /** PEM files (`auth.tls_config`): `caFile` to verify the server, `certFile` + `keyFile` for mTLS. */
  readonly tls?: { readonly caFile?: string; readonly certFile?: string; readonly keyFile?: string };
  readonly keepalive?: { readonly timeMs?: number; readonly timeoutMs?: number };
  /** Deadline of each Publish; default 10 s. */
  readonly timeoutMs?: number;
  readonly newEventId?: () => string;
}

/** A ManifestWork status update Maestro streams back to its source (`<data type>.status.update_request`). */
export interface WorkStatusEvent {
  /** `resourceid` extension: the work id (`manifestWorkId`). */
  readonly resourceId: string;
  readonly consumer: string;
  readonly resourceVersion: number;
  /** `ManifestBundleStatus`: `{conditions, resourceStatus}`. */
  readonly status: {
    readonly conditions?: readonly Record<string, unknown>[];
    readonly resourceStatus?: readonly Record<string, unknown>[];
  };
  /** The agent confirmed the deletion (a `Deleted` condition with status True). */
  readonly deleted: boolean;
}

interface CloudEventServiceStub {
  Publish(request: { event: ProtoCloudEvent }, options: grpc.CallOptions, callback: (error: grpc.ServiceError | null) => void): void;
  Subscribe(request: { source: string; data_type: string }): grpc.ClientReadableStream<ProtoCloudEvent>;
}

/** A live `Subscribe` stream; `close()` cancels it. */
export interface StatusSubscription {
  close(): void;
}

/** gRPC status code → [TransportError reason, HTTP-like status code]. */
const CODES: Readonly<Partial<Record<grpc.status, readonly [string, number | undefined]>>> = {
  [grpc.status.UNAVAILABLE]: ['ConnectionFailure', undefined],
  [grpc.status.DEADLINE_EXCEEDED]: ['Timeout', undefined],
  [grpc.status.INVALID_ARGUMENT]: ['BadRequest', 400],
  [grpc.status.UNAUTHENTICATED]: ['Unauthorized', 401],
  [grpc.status.PERMISSION_DENIED]: ['Forbidden', 403],
  [grpc.status.NOT_FOUND]: ['NotFound', 404],
  [grpc.status.ALREADY_EXISTS]: ['Conflict', 409],
  [grpc.status.ABORTED]: ['Conflict', 409],
  [grpc.status.FAILED_PRECONDITION]: ['Conflict', 409],
};

function transportError(error: grpc.ServiceError, action: string): TransportError {
  const [reason, statusCode] = CODES[error.code as grpc.status] ?? ['InternalError', 500];
  return new TransportError(
    reason,
    `maestro grpc ${action}: ${grpc.status[error.code] ?? error.code}: ${error.details || error.message}`,
    statusCode,
    { cause: error },
  );
}

function credentials(options: MaestroGrpcSourceClientOptions): grpc.ChannelCredentials {
  const { tls } = options;
  const hasFiles = Boolean(tls?.caFile || tls?.certFile || tls?.keyFile);
  if (!hasFiles && options.insecure) return grpc.credentials.createInsecure();
  if (Boolean(tls?.certFile) !== Boolean(tls?.keyFile)) {
    throw new TransportError('Invalid', 'maestro grpc: auth.tls_config needs both cert_file and key_file for mTLS');
  }
  const read = (file?: string) => (file ? readFileSync(file) : null);
  return grpc.credentials.createSsl(read(tls?.caFile), read(tls?.keyFile), read(tls?.certFile));
}

/**
 * Maestro's CloudEvents **source client over gRPC** (service `io.cloudevents.v1.CloudEventService`,
 * as OCM sdk-go's `cloudevents/generic/options/grpc`): publishes ManifestWork spec events
 * (`<data type>.spec.create_request|update_request|delete_request`, extensions `clustername`,
 * `resourceid`, `resourceversion`, `metadata`) and subscribes to the status events of its source.
 * Every failure is a `TransportError` (`ConnectionFailure` when unreachable, `Conflict`,
 * `BadRequest`, ...), never a silent success.
 * @see docs/adapter-maestro.md, HyperFleet: hyperfleet-adapter internal/executor/resource_executor.go.
 */
export class MaestroGrpcSourceClient {
  private readonly client: grpc.Client;

  constructor(readonly options: MaestroGrpcSourceClientOptions) {
    const { client: Client } = loadCloudEventService();
    const channelOptions: grpc.ChannelOptions = {
      ...(options.clientId && { 'grpc.primary_user_agent': options.clientId }),
      ...(options.keepalive?.timeMs !== undefined && {
        'grpc.keepalive_time_ms': options.keepalive.timeMs,
        'grpc.keepalive_permit_without_calls': 1,
      }),
      ...(options.keepalive?.timeoutMs !== undefined && { 'grpc.keepalive_timeout_ms': options.keepalive.timeoutMs }),
    };
    this.client = new Client(options.address, credentials(options), channelOptions);
  }

  get sourceId(): string {
    return this.options.sourceId;
  }

  /** Publishes one ManifestWork spec event. @throws TransportError when Maestro refuses it or cannot be reached. */
  async publish(spec: SpecEvent): Promise<void> {
    const event = toProtoEvent({
      id: (this.options.newEventId ?? randomUUID)(),
      source: this.options.sourceId,
      type: `${MANIFEST_BUNDLE_DATA_TYPE}.spec.${spec.action}`,
      attributes: {
        datacontenttype: 'application/json',
        time: new Date(),
        clustername: spec.consumer,
        resourceid: spec.resourceId,
        resourceversion: spec.resourceVersion,
        metadata: JSON.stringify(spec.metadata),
        ...(spec.action === 'delete_request' && { deletiontimestamp: new Date() }),
      },
      ...(spec.bundle && { data: spec.bundle }),
    });
    const deadline = Date.now() + (this.options.timeoutMs ?? 10_000);
    await new Promise<void>((resolve, reject) => {
      this.stub.Publish({ event }, { deadline }, (error) =>
        error ? reject(transportError(error, `${spec.action} work ${spec.resourceId}`)) : resolve(),
      );
    });
  }

  /**
   * Subscribes to the status events of this source's ManifestWorks. `onStatus` gets each decoded
   * status; `onError` gets the stream's failure (a `TransportError`; not called on `close()`).
   */
  subscribe(onStatus: (status: WorkStatusEvent) => void, onError: (error: TransportError) => void = () => undefined): StatusSubscription {
    const call = this.stub.Subscribe({
      source: this.options.sourceId,
      data_type: MANIFEST_BUNDLE_DATA_TYPE,
    });
    let closed = false;
    call.on('data', (message: ProtoCloudEvent) => {
      const status = decodeStatus(message);
      if (status) onStatus(status);
    });
    call.on('error', (error: grpc.ServiceError) => {
      if (!closed) onError(transportError(error, 'subscribe'));
    });
    return {
      close: () => {
        closed = true;
        call.cancel();
      },
    };
  }

  close(): void {
    this.client.close();
  }

  /** The dynamically generated methods of the loaded service (proto-loader has no static types). */
  private get stub(): CloudEventServiceStub {
    return this.client as unknown as CloudEventServiceStub;
  }
}

/** A status event of our data type, decoded; `undefined` for anything else (ignored). */
function decodeStatus(message: ProtoCloudEvent): WorkStatusEvent | undefined {
  const prefix = `${MANIFEST_BUNDLE_DATA_TYPE}.status.`;
  if (!message.type.startsWith(prefix)) return undefined;
  let event;
  try {
    event = fromProtoEvent(message);
  } catch {
    return undefined; // a malformed status is dropped; the next discovery reads the bundle anyway
  }
  const status = (event.data ?? {}) as WorkStatusEvent['status'];
  const deleted = (status.conditions ?? []).some((c) => c['type'] === 'Deleted' && c['status'] === 'True');
  return {
    resourceId: String(event.attributes['resourceid'] ?? ''),
    consumer: String(event.attributes['clustername'] ?? ''),
    resourceVersion: Number(event.attributes['resourceversion'] ?? 0),
    status,
    deleted,
  };
}
