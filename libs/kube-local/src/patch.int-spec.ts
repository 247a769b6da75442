import { CoreV1Api, KubernetesObjectApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';
import { apiFailure } from './testing/api-failure.js';
import { obj } from './testing/test-object.js';

const ref = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } };

describe('PATCH through @kubernetes/client-node', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;

  beforeEach(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
    kube.seed({
      ...ref,
      metadata: { ...ref.metadata, labels: { keep: 'yes', drop: 'yes' }, finalizers: ['example.com/a'] },
      data: { x: '1' },
    });
  });
  afterEach(() => kube.close());

  it('merge patch merges maps, deletes null keys and bumps generation only for data changes', async () => {
    const patch = obj({ ...ref, metadata: { ...ref.metadata, labels: { drop: null, added: 'y' } }, data: { y: '2' } });
    const patched = obj(await api.patch(patch, undefined, undefined, undefined, undefined, PatchStrategy.MergePatch));
    expect(patched.metadata?.labels).toEqual({ keep: 'yes', added: 'y' });
    expect(patched.data).toEqual({ x: '1', y: '2' });
    expect(patched.metadata?.generation).toBe(2);
  });

  it('merge patch carrying a stale resourceVersion answers 409 Conflict', async () => {
    const stale = obj({ ...ref, metadata: { ...ref.metadata, resourceVersion: '1' }, data: { x: '9' } });
    expect(await apiFailure(api.patch(stale, undefined, undefined, undefined, undefined, PatchStrategy.MergePatch))).toMatchObject({
      code: 409,
      status: { reason: 'Conflict' },
    });
  });

  it('strategic merge patch (client-node default) merges finalizers as a set on built-in kinds', async () => {
    const patched = await api.patch(obj({ ...ref, metadata: { ...ref.metadata, finalizers: ['example.com/b'] } }));
    expect(patched.metadata?.finalizers).toEqual(['example.com/a', 'example.com/b']);
  });

  it('strategic merge patch on a CRD-like kind answers 415, as real servers do', async () => {
    const work = { apiVersion: 'work.open-cluster-management.io/v1', kind: 'ManifestWork', metadata: { name: 'w', namespace: 'default' } };
    kube.seed({ ...work, spec: {} });
    expect(await apiFailure(api.patch(obj({ ...work, spec: { x: 1 } })))).toMatchObject({
      code: 415,
      status: { reason: 'UnsupportedMediaType' },
    });
  });

  it('JSON patch applies operations in order and answers 422 when a test operation fails', async () => {
    const core = kube.kubeConfig().makeApiClient(CoreV1Api);
    const asJsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
    const patched = await core.patchNamespacedConfigMap(
      {
        name: 'a',
        namespace: 'default',
        body: [
          { op: 'test', path: '/metadata/finalizers/0', value: 'example.com/a' },
          { op: 'remove', path: '/metadata/finalizers/0' },
          { op: 'add', path: '/data/z', value: '3' },
        ],
      },
      asJsonPatch,
    );
    expect(patched.metadata?.finalizers ?? []).toEqual([]);
    expect(patched.data).toEqual({ x: '1', z: '3' });
    const failing = core.patchNamespacedConfigMap(
      { name: 'a', namespace: 'default', body: [{ op: 'test', path: '/data/x', value: 'no' }] },
      asJsonPatch,
    );
    expect(await apiFailure(failing)).toMatchObject({
      code: 422,
      status: { reason: 'Invalid', message: 'testing value /data/x failed: test failed' },
    });
  });

  it('apply patch creates a missing object and needs a fieldManager', async () => {
    const desired = obj({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: 'default' }, data: { k: 'v' } });
    expect(await apiFailure(api.patch(desired, undefined, undefined, undefined, undefined, PatchStrategy.ServerSideApply))).toMatchObject({
      code: 422,
    });
    const created = await api.patch(desired, undefined, undefined, 'decom', undefined, PatchStrategy.ServerSideApply);
    expect(created.metadata?.uid).toBeTruthy();
    expect(kube.requests.at(-1)).toMatchObject({ verb: 'patch', status: 201 });
  });
});
