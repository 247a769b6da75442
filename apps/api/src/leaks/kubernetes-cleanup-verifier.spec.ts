import type { DiscoveryQuery, KubeObject, ResourceTransport } from '@decom/adapter';
import { KubernetesCleanupVerifier } from './kubernetes-cleanup-verifier.js';

const C = '0190b6a4-0000-7000-8000-00000000000c';
const configMaps = { apiVersion: 'v1', kind: 'ConfigMap' };

/** A cluster answering list calls from `objects` by label selector, recording each query. */
function cluster(objects: KubeObject[], fail?: Error): { transport: ResourceTransport; queries: DiscoveryQuery[] } {
  const queries: DiscoveryQuery[] = [];
  const transport = {
    get: async () => undefined,
    discover: async () => undefined,
    create: async (o: KubeObject) => o,
    replace: async (o: KubeObject) => o,
    delete: async () => 'deleted' as const,
    discoverAll: async (query: DiscoveryQuery) => {
      queries.push(query);
      if (fail) throw fail;
      const selector = Object.entries(query.labelSelector ?? {});
      return objects.filter((o) => o.kind === query.kind && selector.every(([k, v]) => o.metadata.labels?.[k] === v));
    },
  } satisfies ResourceTransport;
  return { transport, queries };
}

const marked = (name: string, owner: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  ...configMaps,
  metadata: {
    name,
    namespace: 'ns',
    annotations: { 'decom.io/owner': owner },
    labels: { 'decom.io/owner-id': C, 'decom.io/managed-by': 'validation' },
    ...extra,
  },
});

describe('KubernetesCleanupVerifier', () => {
  const kinds = new Map([['validation', [configMaps]]]);

  it('before Kubernetes is connected, every adapter comes back unverified with the reason, never clean', async () => {
    const verifier = new KubernetesCleanupVerifier(kinds, 'Kubernetes is not connected yet in this process');
    expect(verifier.hostedAdapters).toEqual(['validation']);
    expect(await verifier.check('Cluster', C, ['validation'])).toEqual({
      adapters: ['validation'],
      objects: [],
      unverified: [{ adapter: 'validation', reason: 'Kubernetes is not connected yet in this process' }],
    });
  });

  it('lists label-selected, keeps only objects whose owner annotation is this resource and adapter, terminating ones marked', async () => {
    const verifier = new KubernetesCleanupVerifier(kinds);
    const { transport, queries } = cluster([
      marked('kept', `Cluster/${C}/validation`),
      marked('going', `Cluster/${C}/validation`, { deletionTimestamp: '2026-12-06T10:00:00Z' }),
      // Labels copied onto an object another resource owns: the annotation decides.
      marked('foreign', 'Cluster/other/validation'),
    ]);
    verifier.transport = transport;
    expect(await verifier.check('Cluster', C, ['validation'])).toEqual({
      adapters: ['validation'],
      objects: [
        { adapter: 'validation', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', name: 'kept' },
        { adapter: 'validation', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', name: 'going', terminating: true },
      ],
      unverified: [],
    });
    expect(queries).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', labelSelector: { 'decom.io/managed-by': 'validation', 'decom.io/owner-id': C } },
    ]);
  });

  it('a failed list is unverified with its first line, not "nothing left"', async () => {
    const verifier = new KubernetesCleanupVerifier(kinds);
    verifier.transport = cluster([], new Error('list ConfigMap: connect ECONNREFUSED 127.0.0.1:6443\nstack')).transport;
    expect((await verifier.check('Cluster', C, ['validation'])).unverified).toEqual([
      { adapter: 'validation', reason: 'list ConfigMap: connect ECONNREFUSED 127.0.0.1:6443' },
    ]);
  });
});
