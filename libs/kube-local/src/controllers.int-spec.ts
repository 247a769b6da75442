import { CoreV1Api, KubernetesObjectApi } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';
import { obj, jobSpec } from './testing/test-object.js';

/** The change-driven controllers: cases a pass that only looks at what changed could miss. */
describe('garbage collector and namespace controller work from changes', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;
  const cm = (name: string, metadata: Record<string, unknown> = {}, namespace = 'default') =>
    obj({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ...metadata } });
  const exists = (name: string, namespace = 'default') => kube.peek('v1', 'ConfigMap', namespace, name) !== undefined;

  beforeEach(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
  });
  afterEach(() => kube.close());

  it('collects a dependent created after its owner was already gone', async () => {
    const owner = await api.create(cm('owner'));
    await api.delete(cm('owner'));
    await kube.settle();
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid!, controller: true };
    await api.create(cm('late', { ownerReferences: [ref] }));
    await kube.settle();
    expect(exists('late')).toBe(false);
  });

  it('keeps a dependent whose owner kind is not served, and collects it once the kind is registered and the owner is missing', async () => {
    await api.create(cm('child', { ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'uid-w' }] }));
    await kube.settle();
    expect(exists('child')).toBe(true);
    kube.registerKind({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
    await kube.settle();
    expect(exists('child')).toBe(false);
  });

  it('a dependent re-pointed at a live owner survives its old owner', async () => {
    const first = await api.create(cm('first'));
    const second = await api.create(cm('second'));
    const refTo = (o: typeof first) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata!.name!, uid: o.metadata!.uid! });
    await api.create(cm('moved', { ownerReferences: [refTo(first)] }));
    await api.patch(
      cm('moved', { ownerReferences: [refTo(second)] }),
      undefined,
      undefined,
      undefined,
      undefined,
      'application/merge-patch+json',
    );
    await api.delete(cm('first'));
    await kube.settle();
    expect(exists('moved')).toBe(true);
    await api.delete(cm('second'));
    await kube.settle();
    expect(exists('moved')).toBe(false);
  });

  it('a Foreground owner goes once its last blocking dependent stops blocking', async () => {
    const owner = await api.create(cm('owner'));
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid!, blockOwnerDeletion: true };
    await api.create(cm('held', { ownerReferences: [ref], finalizers: ['example.com/hold'] }));
    await api.delete(cm('owner'), undefined, undefined, undefined, undefined, 'Foreground');
    await kube.settle();
    expect(exists('owner')).toBe(true);
    // The dependent stays (finalizer) but drops its reference: the owner may go.
    await api.patch(cm('held', { ownerReferences: null }), undefined, undefined, undefined, undefined, 'application/merge-patch+json');
    await kube.settle();
    expect(exists('owner')).toBe(false);
    expect(exists('held')).toBe(true);
  });

  it('deletes many namespaces with their content and leaves the others alone', async () => {
    const core = kube.kubeConfig().makeApiClient(CoreV1Api);
    for (let i = 0; i < 40; i++) {
      kube.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${i}` } });
      kube.seed(cm('a', {}, `ns-${i}`));
      kube.seed({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: `ns-${i}` }, spec: jobSpec() });
    }
    kube.seed(cm('kept'));
    for (let i = 0; i < 40; i += 2) await core.deleteNamespace({ name: `ns-${i}` });
    await kube.settle();
    const names = (await core.listNamespace()).items.map((n) => n.metadata!.name!).filter((n) => n.startsWith('ns-'));
    expect(names.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `ns-${2 * i + 1}`).sort());
    expect(exists('a', 'ns-0')).toBe(false);
    expect(exists('a', 'ns-1')).toBe(true);
    expect(exists('kept')).toBe(true);
  });

  it('with a jittered delay the namespace controller acts passes later: Terminating first, content gone after', async () => {
    const core = kube.kubeConfig().makeApiClient(CoreV1Api);
    kube.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'slow' } });
    kube.seed(cm('a', {}, 'slow'));
    await core.deleteNamespace({ name: 'slow' });
    await kube.settle();
    const at = (type: string, kind: string, name: string) =>
      Date.parse(kube.changes.find((c) => c.type === type && c.kind === kind && c.name === name)!.time);
    // The DELETE marks the namespace; its content goes in a controller pass at least the minimum delay later.
    const marked = kube.changes.find((c) => c.kind === 'Namespace' && c.name === 'slow' && c.type === 'MODIFIED')!;
    expect(at('DELETED', 'ConfigMap', 'a') - Date.parse(marked.time)).toBeGreaterThanOrEqual(REALISTIC_CONTROLLER_DELAY_MS.min);
    expect(at('DELETED', 'Namespace', 'slow')).toBeGreaterThanOrEqual(at('DELETED', 'ConfigMap', 'a'));
  });

  it('hands out copies: changing what seed or peek returned does not change the stored object', async () => {
    const seeded = kube.seed(cm('x', { labels: { a: '1' } })) as { metadata: { labels: Record<string, string> } };
    seeded.metadata.labels.a = 'changed';
    const peeked = kube.peek('v1', 'ConfigMap', 'default', 'x') as { metadata: { labels: Record<string, string> } };
    expect(peeked.metadata.labels.a).toBe('1');
    peeked.metadata.labels.a = 'changed';
    expect((await api.read(cm('x'))).metadata?.labels).toEqual({ a: '1' });
  });
});
