import { ApisApi, AppsV1Api, CoreApi, KubernetesObjectApi, VersionApi } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';
import { obj } from './testing/test-object.js';

/** Exposes client-node's protected discovery lookup, which every KubernetesObjectApi call goes through. */
class ResourceLookup extends KubernetesObjectApi {
  public override resource(apiVersion: string, kind: string) {
    return super.resource(apiVersion, kind);
  }
}

describe('discovery through @kubernetes/client-node', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;
  let lookup: ResourceLookup;

  beforeEach(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
    lookup = kube.kubeConfig().makeApiClient(ResourceLookup);
  });
  afterEach(() => kube.close());

  it.each([
    ['v1', 'Namespace', 'namespaces', false],
    ['v1', 'ConfigMap', 'configmaps', true],
    ['v1', 'Secret', 'secrets', true],
    ['v1', 'ServiceAccount', 'serviceaccounts', true],
    ['v1', 'Service', 'services', true],
    ['v1', 'Pod', 'pods', true],
    ['apps/v1', 'Deployment', 'deployments', true],
    ['apps/v1', 'ReplicaSet', 'replicasets', true],
    ['batch/v1', 'Job', 'jobs', true],
    ['rbac.authorization.k8s.io/v1', 'Role', 'roles', true],
    ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'rolebindings', true],
    ['rbac.authorization.k8s.io/v1', 'ClusterRole', 'clusterroles', false],
    ['work.open-cluster-management.io/v1', 'ManifestWork', 'manifestworks', true],
  ])('KubernetesObjectApi resolves %s %s to %s (namespaced: %s)', async (apiVersion, kind, plural, namespaced) => {
    const resource = await lookup.resource(apiVersion, kind);
    expect(resource).toMatchObject({ name: plural, kind, namespaced });
    expect(resource?.verbs).toEqual(expect.arrayContaining(['create', 'delete', 'get', 'list', 'patch', 'update']));
  });

  it('serves /api, /apis, group resource lists with subresources after their resources, and /version', async () => {
    const kc = kube.kubeConfig();
    expect((await kc.makeApiClient(CoreApi).getAPIVersions()).versions).toEqual(['v1']);
    const groups = (await kc.makeApiClient(ApisApi).getAPIVersions()).groups.map((g) => g.preferredVersion?.groupVersion);
    expect(groups).toEqual([
      'apps/v1',
      'batch/v1',
      'rbac.authorization.k8s.io/v1',
      'events.k8s.io/v1',
      'work.open-cluster-management.io/v1',
    ]);
    const names = (await kc.makeApiClient(AppsV1Api).getAPIResources()).resources.map((r) => r.name);
    expect(names).toEqual(['deployments', 'replicasets', 'deployments/status', 'replicasets/status']);
    expect((await kc.makeApiClient(VersionApi).getCode()).gitVersion).toMatch(/^v1\.\d+\.\d+/);
  });

  it('serves a kind registered at runtime, CRD-like, and rejects unknown ones', async () => {
    await expect(api.list('example.com/v1', 'Widget', 'default')).rejects.toThrow(/Failed to fetch resource metadata.*404/s);
    kube.registerKind({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
    await api.create(
      obj({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, spec: { size: 3 } }),
    );
    const list = await api.list('example.com/v1', 'Widget', 'default');
    expect(list.items.map((w) => [w.kind, w.metadata?.name])).toEqual([['Widget', 'w1']]);
    expect(kube.peek('example.com/v1', 'Widget', 'default', 'w1')).toMatchObject({ spec: { size: 3 } });
    await expect(lookup.resource('example.com/v1', 'Gadget')).resolves.toBeUndefined();
  });

  it('hands out a kubeconfig file that client-node loads', async () => {
    const yaml = kube.kubeconfigYaml();
    expect(yaml).toContain(kube.url);
    expect(yaml).toContain('insecure-skip-tls-verify: true');
    const { KubeConfig } = await import('@kubernetes/client-node');
    const kc = new KubeConfig();
    kc.loadFromString(yaml);
    const fromFile = KubernetesObjectApi.makeApiClient(kc);
    const namespaces = await fromFile.list('v1', 'Namespace');
    expect(namespaces.items.map((n) => n.metadata?.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  });
});
