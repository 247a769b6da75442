import { KubernetesObjectApi } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';
import { obj } from './testing/test-object.js';

/** Label-selected lists go through the store's label index: it must follow relabels and deletes. */
describe('label-selected lists follow label changes', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;
  const cm = (name: string, labels: Record<string, string | null> = {}, namespace = 'default') =>
    obj({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels } });
  const names = async (labelSelector: string) =>
    (await api.list('v1', 'ConfigMap', undefined, undefined, undefined, undefined, undefined, labelSelector)).items.map(
      (i) => `${i.metadata?.namespace}/${i.metadata?.name}`,
    );
  const relabel = (name: string, labels: Record<string, string | null>) =>
    api.patch(cm(name, labels), undefined, undefined, undefined, undefined, 'application/merge-patch+json');

  beforeEach(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
    kube.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
  });
  afterEach(() => kube.close());

  it('finds objects by their current labels only, across namespaces, in key order', async () => {
    await api.create(cm('b', { app: 'web' }));
    await api.create(cm('a', { app: 'web' }, 'other'));
    await api.create(cm('c', { app: 'db' }));
    kube.seed({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default', labels: { app: 'web' } } });
    expect(await names('app=web')).toEqual(['default/b', 'other/a']);
    await relabel('b', { app: 'db', tier: 'x' });
    expect(await names('app=web')).toEqual(['other/a']);
    expect(await names('app in (db,web)')).toEqual(['default/b', 'default/c', 'other/a']);
    expect(await names('app=db,tier=x')).toEqual(['default/b']);
    await relabel('b', { app: null, tier: null });
    expect(await names('app=db')).toEqual(['default/c']);
    await api.delete(cm('c'));
    expect(await names('app=db')).toEqual([]);
    expect(await names('app!=web')).toEqual(['default/b']);
  });
});
