import { startLocalKube, type LocalKube } from '@decom/kube-local';
import { TransportError } from '../transport-error.js';
import { KubernetesTransport } from './kubernetes.transport.js';

const configMap = (name: string, generation?: number, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    namespace: 'default',
    labels,
    ...(generation !== undefined && { annotations: { 'hyperfleet.io/generation': String(generation) } }),
  },
  data: { a: '1' },
});

describe('KubernetesTransport against the local Kubernetes API server', () => {
  let kube: LocalKube;
  let transport: KubernetesTransport;

  beforeEach(async () => {
    kube = await startLocalKube();
    transport = new KubernetesTransport(kube.kubeConfig());
  });
  afterEach(() => kube.close());

  it('creates, reads back the wire JSON, and answers undefined for an absent object', async () => {
    await transport.create(configMap('cm1'));
    const read = await transport.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm1', namespace: 'default' });
    expect(read?.data).toEqual({ a: '1' });
    // Plain JSON, not client models: timestamps stay strings.
    expect(typeof read?.metadata.creationTimestamp).toBe('string');
    expect(await transport.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'nope', namespace: 'default' })).toBeUndefined();
  });

  it('never reports "absent" for a server error: a 500 on GET throws TransportError', async () => {
    kube.faults.add({ method: 'GET', kind: 'ConfigMap', name: 'cm1', status: 500, message: 'etcd timeout' });
    const error = await transport.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm1', namespace: 'default' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ statusCode: 500 });
    expect((error as Error).message).toContain('etcd timeout');
  });

  it('deletes with the propagation policy; a second delete is "not-found" (#1)', async () => {
    kube.seed(configMap('cm1'));
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm1', namespace: 'default' };
    expect(await transport.delete(ref, 'Foreground')).toBe('deleted');
    const [request] = kube.requestsMatching({ method: 'DELETE', kind: 'ConfigMap', name: 'cm1' });
    expect(request?.query.propagationPolicy).toBe('Foreground');
    expect(await transport.delete(ref, 'Background')).toBe('not-found');
  });

  it('reports a 403 on delete as TransportError Forbidden', async () => {
    kube.seed(configMap('cm1'));
    kube.faults.add({ method: 'DELETE', kind: 'ConfigMap', status: 403, reason: 'Forbidden', message: 'RBAC denied' });
    const error = await transport
      .delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm1', namespace: 'default' }, 'Background')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ reason: 'Forbidden', statusCode: 403 });
  });

  it('discovers by label selector: highest hyperfleet.io/generation wins, ties by name (#10)', async () => {
    const labels = { 'hyperfleet.io/cluster-id': 'c1' };
    kube.seed(configMap('gen1', 1, labels));
    kube.seed(configMap('b-gen3', 3, labels));
    kube.seed(configMap('a-gen3', 3, labels));
    kube.seed(configMap('other', 9, { 'hyperfleet.io/cluster-id': 'c2' }));
    const found = await transport.discover({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', labelSelector: labels });
    expect(found?.metadata.name).toBe('a-gen3');
    expect(found?.kind).toBe('ConfigMap');
    expect(
      await transport.discover({ apiVersion: 'v1', kind: 'ConfigMap', labelSelector: { 'hyperfleet.io/cluster-id': 'none' } }),
    ).toBeUndefined();
  });

  it('replaces with the existing resourceVersion', async () => {
    const created = await transport.create(configMap('cm1', 1));
    const replaced = await transport.replace({
      ...configMap('cm1', 2),
      metadata: { ...configMap('cm1', 2).metadata, resourceVersion: created.metadata.resourceVersion },
    });
    expect(replaced.metadata.annotations?.['hyperfleet.io/generation']).toBe('2');
  });

  it('surfaces AlreadyExists on create and UnknownKind for kinds the server does not serve', async () => {
    kube.seed(configMap('cm1'));
    await expect(transport.create(configMap('cm1'))).rejects.toMatchObject({ reason: 'AlreadyExists', statusCode: 409 });
    await expect(transport.get({ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w' })).rejects.toMatchObject({
      reason: 'UnknownKind',
    });
    await expect(transport.get({ apiVersion: 'v1', kind: 'Widget', name: 'w' })).rejects.toMatchObject({ reason: 'UnknownKind' });
  });

  it('reports an unreachable server as ConnectionFailure, not as absent', async () => {
    await transport.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'warm', namespace: 'default' });
    await kube.stopListening();
    await expect(transport.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm1', namespace: 'default' })).rejects.toMatchObject({
      reason: 'ConnectionFailure',
    });
    await kube.startListening();
  });
});
