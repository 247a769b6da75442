import { startLocalMaestro, type LocalMaestro } from '@decom/maestro-local';
import type { KubeObject } from '../resource-transport.port.js';
import { TransportError } from '../transport-error.js';
import { MaestroHttpClient } from './maestro-http.client.js';
import { MaestroTransport } from './maestro.transport.js';
import { findInWork } from './nested-manifests.js';

/** MaestroTransport over HTTP against the local Maestro-compatible server. */
const SOURCE = 'hyperfleet-adapter';
const GEN = (g: number) => ({ 'hyperfleet.io/generation': String(g) });

function work(name: string, generation: number, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'work.open-cluster-management.io/v1',
    kind: 'ManifestWork',
    metadata: { name, labels, annotations: GEN(generation) },
    spec: {
      workload: {
        manifests: [
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns-a', labels: { role: 'ns' }, annotations: GEN(generation) } },
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'cm-a', namespace: 'ns-a', annotations: GEN(generation) },
            data: { g: String(generation) },
          },
        ],
      },
      deleteOption: { propagationPolicy: 'Foreground' },
    },
  };
}
const ref = (name: string) => ({ apiVersion: 'work.open-cluster-management.io/v1', kind: 'ManifestWork', name });

describe('MaestroTransport', () => {
  let maestro: LocalMaestro;
  let transport: MaestroTransport;
  beforeEach(async () => {
    maestro = await startLocalMaestro({ consumers: ['cluster1'] });
    transport = new MaestroTransport(new MaestroHttpClient({ baseUrl: maestro.url, sourceId: SOURCE }), 'cluster1');
  });
  afterEach(() => maestro.close());

  it('creates a work through a create_request event and reads it back as a ManifestWork with status', async () => {
    expect(await transport.get(ref('w1'))).toBeUndefined();
    await transport.create(work('w1', 1, { app: 'x' }));
    await maestro.settle();
    const read = await transport.get(ref('w1'));
    expect(read).toMatchObject({
      apiVersion: 'work.open-cluster-management.io/v1',
      kind: 'ManifestWork',
      metadata: { name: 'w1', namespace: 'cluster1', labels: { app: 'x' }, annotations: GEN(1), resourceVersion: '1', generation: 1 },
      spec: { workload: { manifests: work('w1', 1).spec && expect.any(Array) }, deleteOption: { propagationPolicy: 'Foreground' } },
      status: {
        conditions: [expect.objectContaining({ type: 'Applied' }), expect.objectContaining({ type: 'Available' })],
        resourceStatus: { manifests: expect.any(Array) },
      },
    });
    expect(maestro.requests.find((r) => r.action)?.action).toBe('create_request');
  });

  it('discovers by labels (highest generation wins) and finds manifests inside works with their status feedback', async () => {
    await transport.create(work('w1', 1, { app: 'x' }));
    await transport.create(work('w2', 3, { app: 'x' }));
    await transport.create(work('w3', 9, { app: 'y' }));
    await maestro.settle();
    maestro.setStatusFeedback(SOURCE, 'cluster1', 'w2', { kind: 'Namespace', name: 'ns-a' }, [
      { name: 'phase', fieldValue: { type: 'String', string: 'Active' } },
    ]);
    const found = await transport.discover({
      apiVersion: 'work.open-cluster-management.io/v1',
      kind: 'ManifestWork',
      labelSelector: { app: 'x' },
    });
    expect(found?.metadata.name).toBe('w2');
    // Other kinds are searched inside the consumer's works: the newest generation wins.
    const ns = await transport.discover({ apiVersion: 'v1', kind: 'Namespace', labelSelector: { role: 'ns' } });
    expect(ns?.metadata.annotations).toEqual(GEN(9));
    const cm = await transport.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm-a', namespace: 'ns-a' });
    expect(cm).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'cm-a', namespace: 'ns-a' } });
    const w2 = (await transport.get(ref('w2'))) as KubeObject;
    expect(findInWork(w2, { kind: 'Namespace', byName: 'ns-a' })).toMatchObject({
      metadata: { name: 'ns-a', annotations: GEN(3) },
      statusFeedback: { values: [{ name: 'phase', fieldValue: { type: 'String', string: 'Active' } }] },
      conditions: [
        expect.objectContaining({ type: 'Applied', status: 'True' }),
        expect.objectContaining({ type: 'Available', status: 'True' }),
      ],
    });
  });

  it('updates at the version read (update_request); a stale version is a Conflict', async () => {
    await transport.create(work('w1', 1));
    const current = (await transport.get(ref('w1'))) as KubeObject;
    await transport.replace({
      ...work('w1', 2),
      metadata: { ...work('w1', 2).metadata, resourceVersion: current.metadata.resourceVersion },
    });
    expect((await transport.get(ref('w1')))?.metadata).toMatchObject({ resourceVersion: '2', annotations: GEN(2) });
    await expect(
      transport.replace({ ...work('w1', 3), metadata: { ...work('w1', 3).metadata, resourceVersion: '1' } }),
    ).rejects.toMatchObject({
      reason: 'Conflict',
      statusCode: 409,
    });
  });

  it('deletes asynchronously: the work stays terminating until Maestro confirms; a second delete is not-found', async () => {
    await transport.create(work('w1', 1));
    maestro.pauseAgent();
    expect(await transport.delete(ref('w1'), 'Background')).toBe('deleted');
    expect((await transport.get(ref('w1')))?.metadata.deletionTimestamp).toEqual(expect.any(String));
    maestro.resumeAgent();
    await maestro.settle();
    expect(await transport.get(ref('w1'))).toBeUndefined();
    expect(await transport.delete(ref('w1'), 'Background')).toBe('not-found');
  });

  it('never turns a failure into "absent", and validates generation annotations before sending', async () => {
    maestro.faults.add({ method: 'GET', status: 500, reason: 'db down' });
    await expect(transport.get(ref('w1'))).rejects.toMatchObject({ name: 'TransportError', reason: 'InternalError', statusCode: 500 });
    await expect(transport.discover({ apiVersion: 'v1', kind: 'Namespace', byName: 'x' })).rejects.toBeInstanceOf(TransportError);
    maestro.faults.clear();
    const bad = work('w1', 1);
    delete (bad.spec as { workload: { manifests: KubeObject[] } }).workload.manifests[1]!.metadata.annotations;
    await expect(transport.create(bad)).rejects.toMatchObject({
      reason: 'Invalid',
      message: expect.stringContaining('manifest[1] ConfigMap/cm-a: missing hyperfleet.io/generation'),
    });
    await expect(transport.delete({ apiVersion: 'v1', kind: 'Namespace', name: 'x' }, 'Background')).rejects.toMatchObject({
      reason: 'Invalid',
    });
    const unreachable = new MaestroTransport(new MaestroHttpClient({ baseUrl: 'http://127.0.0.1:1', sourceId: SOURCE }), 'cluster1');
    await expect(unreachable.get(ref('w1'))).rejects.toMatchObject({ reason: 'ConnectionFailure' });
  });
});
