import { createServer } from 'node:net';
import { startLocalMaestro, type LocalMaestro } from '@decom/maestro-local';
import type { KubeObject } from '../resource-transport.port.js';
import { isConnectionFailure, TransportError } from '../transport-error.js';
import { MaestroGrpcSourceClient, type WorkStatusEvent } from './maestro-grpc-source.client.js';
import { MaestroHttpClient } from './maestro-http.client.js';
import { MaestroTransport } from './maestro.transport.js';
import { manifestWorkId } from './manifest-work.js';

/** The gRPC source client (CloudEventService Publish/Subscribe) against the local Maestro over real gRPC. */
const SOURCE = 'hyperfleet-adapter';
const GEN = (g: number) => ({ 'hyperfleet.io/generation': String(g) });

function work(name: string, generation: number): KubeObject {
  return {
    apiVersion: 'work.open-cluster-management.io/v1',
    kind: 'ManifestWork',
    metadata: { name, labels: { app: 'x' }, annotations: GEN(generation) },
    spec: {
      workload: {
        manifests: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'cm-a', namespace: 'ns-a', annotations: GEN(generation) },
            data: { g: String(generation) },
          },
        ],
      },
    },
  };
}
const ref = (name: string) => ({ apiVersion: 'work.open-cluster-management.io/v1', kind: 'ManifestWork', name });

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves with the first received status matching `test`. */
async function until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function nextStatus(received: WorkStatusEvent[], test: (s: WorkStatusEvent) => boolean, timeoutMs = 3_000): Promise<WorkStatusEvent> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = () => {
      const found = received.find(test);
      if (found) return resolve(found);
      if (Date.now() - started > timeoutMs) return reject(new Error(`no matching status among ${JSON.stringify(received)}`));
      setTimeout(poll, 10);
    };
    poll();
  });
}

describe('MaestroGrpcSourceClient', () => {
  let maestro: LocalMaestro;
  let grpcClient: MaestroGrpcSourceClient;
  let transport: MaestroTransport;
  beforeEach(async () => {
    maestro = await startLocalMaestro({ consumers: ['cluster1'] });
    grpcClient = new MaestroGrpcSourceClient({
      address: maestro.grpcAddress,
      sourceId: SOURCE,
      insecure: true,
      keepalive: { timeMs: 30_000, timeoutMs: 10_000 },
    });
    transport = new MaestroTransport(new MaestroHttpClient({ baseUrl: maestro.url, sourceId: SOURCE }), 'cluster1', grpcClient);
  });
  afterEach(async () => {
    grpcClient.close();
    await maestro.close();
  });

  it('creates and updates a work through gRPC Publish (no HTTP CloudEvents), then deletes it with a delete_request', async () => {
    await transport.create(work('w1', 1));
    await maestro.settle();
    expect(maestro.requests.filter((r) => r.action)).toEqual([
      expect.objectContaining({
        method: 'GRPC',
        path: '/io.cloudevents.v1.CloudEventService/Publish',
        action: 'create_request',
        status: 204,
      }),
    ]);
    expect(maestro.requests.some((r) => r.path === maestro.cloudEventsPath)).toBe(false);
    const stored = maestro.peek(SOURCE, 'cluster1', 'w1');
    expect(stored).toMatchObject({
      version: 1,
      consumer_name: 'cluster1',
      metadata: { name: 'w1', labels: { app: 'x' }, annotations: GEN(1) },
    });
    expect(stored?.manifests).toEqual([expect.objectContaining({ kind: 'ConfigMap', data: { g: '1' } })]);

    const read = (await transport.get(ref('w1'))) as KubeObject;
    await transport.replace({ ...work('w1', 2), metadata: { ...work('w1', 2).metadata, resourceVersion: read.metadata.resourceVersion } });
    expect(maestro.peek(SOURCE, 'cluster1', 'w1')).toMatchObject({
      version: 2,
      manifests: [expect.objectContaining({ data: { g: '2' } })],
    });

    const resourceId = manifestWorkId(SOURCE, 'cluster1', 'w1');
    maestro.pauseAgent();
    await grpcClient.publish({ action: 'delete_request', consumer: 'cluster1', resourceId, resourceVersion: 2, metadata: { name: 'w1' } });
    expect((await transport.get(ref('w1')))?.metadata).toMatchObject({ deletionTimestamp: expect.any(String) });
    maestro.resumeAgent();
    await maestro.settle();
    expect(await transport.get(ref('w1'))).toBeUndefined();
  });

  it('streams status over Subscribe: applied, then status feedback, then the confirmed deletion', async () => {
    const received: WorkStatusEvent[] = [];
    const errors: TransportError[] = [];
    const subscription = grpcClient.subscribe(
      (s) => received.push(s),
      (e) => errors.push(e),
    );
    try {
      // The stream must be open before anything happens (status is not replayed).
      await until(() => maestro.subscribers(SOURCE) === 1);
      await transport.create(work('w2', 1));
      const resourceId = manifestWorkId(SOURCE, 'cluster1', 'w2');
      const applied = await nextStatus(received, (s) => s.resourceId === resourceId);
      expect(applied).toMatchObject({
        consumer: 'cluster1',
        resourceVersion: 1,
        deleted: false,
        status: {
          conditions: [expect.objectContaining({ type: 'Applied', status: 'True' }), expect.objectContaining({ type: 'Available' })],
        },
      });

      maestro.setStatusFeedback(SOURCE, 'cluster1', 'w2', { kind: 'ConfigMap', name: 'cm-a', namespace: 'ns-a' }, [
        { name: 'phase', fieldValue: { type: 'String', string: 'Ready' } },
      ]);
      const feedback = await nextStatus(received, (s) => JSON.stringify(s.status).includes('Ready'));
      expect(feedback.status.resourceStatus?.[0]).toMatchObject({
        statusFeedback: { values: [{ name: 'phase', fieldValue: { string: 'Ready' } }] },
      });

      await transport.delete(ref('w2'), 'Background');
      expect(await nextStatus(received, (s) => s.deleted)).toMatchObject({ resourceId, deleted: true });
      expect(errors).toEqual([]);
    } finally {
      subscription.close();
    }
  });

  it('maps refusals to TransportError: stale version → Conflict, unknown consumer → BadRequest, injected 503 → ConnectionFailure', async () => {
    await transport.create(work('w3', 1));
    const stale = transport.replace({ ...work('w3', 2), metadata: { ...work('w3', 2).metadata, resourceVersion: '7' } });
    await expect(stale).rejects.toMatchObject({ name: 'TransportError', reason: 'Conflict', statusCode: 409 });
    const elsewhere = new MaestroTransport(new MaestroHttpClient({ baseUrl: maestro.url, sourceId: SOURCE }), 'nowhere', grpcClient);
    await expect(elsewhere.create(work('w4', 1))).rejects.toMatchObject({
      reason: 'BadRequest',
      message: expect.stringContaining("consumer 'nowhere' is not registered"),
    });
    maestro.faults.add({ method: 'GRPC', status: 503, reason: 'maintenance', times: 1 });
    await expect(transport.create(work('w5', 1))).rejects.toMatchObject({
      reason: 'ConnectionFailure',
      message: expect.stringContaining('maintenance'),
    });
    expect(maestro.peek(SOURCE, 'cluster1', 'w5')).toBeUndefined();
  });

  it('connection refused is a TransportError ConnectionFailure (never a silent success or "absent")', async () => {
    const unreachable = new MaestroGrpcSourceClient({
      address: `127.0.0.1:${await closedPort()}`,
      sourceId: SOURCE,
      insecure: true,
      timeoutMs: 2_000,
    });
    try {
      const error = await unreachable
        .publish({
          action: 'create_request',
          consumer: 'cluster1',
          resourceId: 'x',
          resourceVersion: 0,
          metadata: { name: 'x' },
          bundle: { manifests: [] },
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(isConnectionFailure(error)).toBe(true);
      const viaTransport = new MaestroTransport(new MaestroHttpClient({ baseUrl: maestro.url, sourceId: SOURCE }), 'cluster1', unreachable);
      await expect(viaTransport.create(work('w6', 1))).rejects.toMatchObject({ reason: 'ConnectionFailure' });
      expect(maestro.bundles()).toEqual([]);
    } finally {
      unreachable.close();
    }
  });

  it('refuses a TLS config with a certificate but no key', () => {
    expect(() => new MaestroGrpcSourceClient({ address: '127.0.0.1:1', sourceId: SOURCE, tls: { certFile: '/nonexistent.crt' } })).toThrow(
      /cert_file and key_file/,
    );
  });
});
