import * as grpc from '@grpc/grpc-js';
import type { CloudEventV1 } from 'cloudevents';
// The proto transcription and its codec live with the adapter's source client; the local server
// speaks the same wire format (no path alias exists for test libraries, hence the relative path).
import { fromProtoEvent, loadCloudEventService, type ProtoCloudEvent, toProtoEvent } from '@decom/maestro-protocol';
import { MANIFEST_BUNDLE_DATA_TYPE } from './cloudevent-intake.js';
import { MaestroError } from './maestro-errors.js';
import type { ResourceBundle } from './resource-bundle.js';

/** Path the request log records gRPC publishes under (method `GRPC`). */
export const PUBLISH_PATH = '/io.cloudevents.v1.CloudEventService/Publish';

/** What the endpoint needs from the server: apply a decoded spec event, answering its action. */
export interface SpecEventSink {
  /** @throws MaestroError (mapped to a gRPC status). */
  receive(event: CloudEventV1<unknown>): string;
  /** Records a publish in the request log (`status` HTTP-like: 204 accepted, else the refusal). */
  record(action: string | undefined, status: number): void;
  /** An injected fault for this publish, if any (`faults.add({method: 'GRPC', ...})`). */
  fault(): { status: number; reason?: string } | undefined;
}

const CODES: Readonly<Record<number, grpc.status>> = {
  400: grpc.status.INVALID_ARGUMENT,
  401: grpc.status.UNAUTHENTICATED,
  403: grpc.status.PERMISSION_DENIED,
  404: grpc.status.NOT_FOUND,
  409: grpc.status.ABORTED,
  503: grpc.status.UNAVAILABLE,
};

interface Subscriber {
  readonly source: string;
  readonly dataType: string;
  readonly call: grpc.ServerWritableStream<{ source?: string; data_type?: string }, ProtoCloudEvent>;
}

/**
 * Maestro's CloudEvents gRPC server side (`io.cloudevents.v1.CloudEventService`): `Publish` takes
 * a source's ManifestWork spec events (same handling as the HTTP intake); `Subscribe` streams the
 * status events of the subscriber's source (`<data type>.status.update_request`, extensions
 * `resourceid`, `resourceversion`, `clustername`, `originalsource`, `sequenceid`; data the
 * `ManifestBundleStatus`, with a `Deleted` condition once the agent confirmed a deletion).
 */
export class GrpcEndpoint {
  private readonly server = new grpc.Server();
  private readonly subscribers = new Set<Subscriber>();
  private sequence = 0;
  port = 0;

  constructor(private readonly sink: SpecEventSink) {
    const { service } = loadCloudEventService();
    this.server.addService(service, {
      Publish: (call: grpc.ServerUnaryCall<{ event?: ProtoCloudEvent }, unknown>, callback: grpc.sendUnaryData<unknown>) =>
        this.publish(call.request, callback),
      Subscribe: (call: Subscriber['call']) => this.subscribe(call),
    });
  }

  async listen(host: string): Promise<void> {
    this.port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(`${host}:0`, grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
    );
  }

  /** Open `Subscribe` streams of `source`. */
  subscribersOf(source: string): number {
    let count = 0;
    for (const subscriber of this.subscribers) if (subscriber.source === source) count += 1;
    return count;
  }

  /** Streams a bundle's status (or its confirmed deletion) to the subscribers of its source. */
  broadcast(bundle: ResourceBundle, deleted: boolean): void {
    const conditions: unknown[] = [...(bundle.status?.conditions ?? [])];
    if (deleted)
      conditions.push({
        type: 'Deleted',
        status: 'True',
        reason: 'ManifestsDeleted',
        message: 'The resources are deleted from the cluster',
      });
    this.sequence += 1;
    const event = toProtoEvent({
      id: `status-${bundle.id}-${this.sequence}`,
      source: 'maestro',
      type: `${MANIFEST_BUNDLE_DATA_TYPE}.status.update_request`,
      attributes: {
        datacontenttype: 'application/json',
        resourceid: bundle.id,
        resourceversion: bundle.version,
        clustername: bundle.consumer_name,
        originalsource: bundle.source,
        sequenceid: String(this.sequence),
      },
      data: { conditions, resourceStatus: bundle.status?.resourceStatus ?? [] },
    });
    for (const subscriber of this.subscribers) {
      if (subscriber.source === bundle.source && (subscriber.dataType === '' || subscriber.dataType === MANIFEST_BUNDLE_DATA_TYPE))
        subscriber.call.write(event);
    }
  }

  close(): void {
    for (const subscriber of this.subscribers) subscriber.call.end();
    this.subscribers.clear();
    this.server.forceShutdown();
  }

  private publish(request: { event?: ProtoCloudEvent }, callback: grpc.sendUnaryData<unknown>): void {
    const fault = this.sink.fault();
    if (fault) {
      this.sink.record(undefined, fault.status);
      callback({ code: CODES[fault.status] ?? grpc.status.INTERNAL, details: fault.reason ?? 'injected fault' });
      return;
    }
    try {
      if (!request.event) throw new MaestroError(400, 'PublishRequest.event is required');
      let plain;
      try {
        plain = fromProtoEvent(request.event);
      } catch {
        throw new MaestroError(400, 'cloudevent data is not JSON');
      }
      const event = {
        id: plain.id,
        source: plain.source,
        type: plain.type,
        specversion: '1.0',
        ...plain.attributes,
        data: plain.data,
      } as unknown as CloudEventV1<unknown>;
      this.sink.record(this.sink.receive(event), 204);
      callback(null, {});
    } catch (error) {
      if (!(error instanceof MaestroError)) throw error;
      this.sink.record(undefined, error.status);
      callback({ code: CODES[error.status] ?? grpc.status.INTERNAL, details: error.reason });
    }
  }

  private subscribe(call: Subscriber['call']): void {
    const source = call.request.source ?? '';
    if (source === '') {
      call.destroy(Object.assign(new Error('subscription source is required'), { code: grpc.status.INVALID_ARGUMENT }));
      return;
    }
    const subscriber: Subscriber = { source, dataType: call.request.data_type ?? '', call };
    this.subscribers.add(subscriber);
    const drop = () => this.subscribers.delete(subscriber);
    call.on('cancelled', drop);
    call.on('close', drop);
  }
}
