/**
 * Maestro's wire protocol shared by the adapter's Maestro transport (client side) and the local
 * Maestro server (server side): the CloudEvents gRPC service (proto/cloudevent.proto) and the
 * binary-mode CloudEvent codec. Neither side imports the other.
 * @see docs/adapter-maestro.md
 */
export {
  CLOUDEVENT_SERVICE,
  loadCloudEventService,
  toProtoEvent,
  fromProtoEvent,
  type ProtoAttributeValue,
  type ProtoCloudEvent,
  type PlainCloudEvent,
} from './cloudevent-grpc.codec.js';
