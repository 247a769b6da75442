import { AppsV1Api, KubernetesObjectApi } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';
import { apiFailure } from './testing/api-failure.js';
import { obj, type TestObject, workloadSpec } from './testing/test-object.js';

const configMap = (name: string, extra: Record<string, unknown> = {}, namespace = 'default'): TestObject =>
  obj({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace },
    data: { a: '1' },
    ...extra,
  });

describe('create / get / replace through KubernetesObjectApi', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;

  beforeEach(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
  });
  afterEach(() => kube.close());

  it('create sets uid, resourceVersion, creationTimestamp and generation; get returns the same object', async () => {
    const created = await api.create(configMap('a'));
    const meta = created.metadata!;
    expect(meta.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    expect(meta.generation).toBe(1);
    expect(meta.creationTimestamp).toBeInstanceOf(Date);
    const read = await api.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
    expect(read.metadata).toEqual(meta);
    expect(kube.peek('v1', 'ConfigMap', 'default', 'a')).toMatchObject({ data: { a: '1' }, metadata: { uid: meta.uid } });
  });

  it('every write takes the next global resourceVersion', async () => {
    const a = Number((await api.create(configMap('a'))).metadata!.resourceVersion);
    const b = Number((await api.create(configMap('b'))).metadata!.resourceVersion);
    expect(b).toBeGreaterThan(a);
  });

  it('answers AlreadyExists, NotFound and missing-namespace errors as Status objects', async () => {
    await api.create(configMap('a'));
    expect(await apiFailure(api.create(configMap('a')))).toMatchObject({
      code: 409,
      status: {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'AlreadyExists',
        message: 'configmaps "a" already exists',
        details: { name: 'a', kind: 'configmaps' },
        code: 409,
      },
    });
    expect(
      await apiFailure(api.read({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x', namespace: 'default' } })),
    ).toMatchObject({
      code: 404,
      status: { reason: 'NotFound', message: 'deployments.apps "x" not found', details: { name: 'x', group: 'apps', kind: 'deployments' } },
    });
    expect(await apiFailure(api.create(configMap('a', {}, 'nope')))).toMatchObject({
      code: 404,
      status: { reason: 'NotFound', message: 'namespaces "nope" not found', details: { name: 'nope', kind: 'namespaces' } },
    });
  });

  it('refuses to create in a terminating namespace with 403 Forbidden (NamespaceTerminating)', async () => {
    await api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    await api.create(configMap('held', { metadata: { name: 'held', namespace: 'team', finalizers: ['example.com/hold'] } }, 'team'));
    await api.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    expect(await apiFailure(api.create(configMap('new', {}, 'team')))).toMatchObject({
      code: 403,
      status: {
        reason: 'Forbidden',
        message: 'configmaps "new" is forbidden: unable to create new content in namespace team because it is being terminated',
        details: { name: 'new', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', field: 'metadata.namespace' }] },
      },
    });
  });

  it('validates names (422 Invalid) and refuses a resourceVersion on create (500, as etcd3 storage does)', async () => {
    expect(await apiFailure(api.create(configMap('Not_Valid')))).toMatchObject({
      code: 422,
      status: {
        reason: 'Invalid',
        details: { name: 'Not_Valid', kind: 'ConfigMap', causes: [{ field: 'metadata.name', reason: 'FieldValueInvalid' }] },
      },
    });
    const withVersion = configMap('a', { metadata: { name: 'a', namespace: 'default', resourceVersion: '5' } });
    expect(await apiFailure(api.create(withVersion))).toMatchObject({
      code: 500,
      status: { reason: 'InternalError', message: 'Internal error occurred: resourceVersion should not be set on objects to be created' },
    });
  });

  it('fills a name from generateName', async () => {
    const created = await api.create(
      obj({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'job-', namespace: 'default' } }),
    );
    expect(created.metadata?.name).toMatch(/^job-[a-z0-9]{5}$/);
  });

  it('replace with a stale resourceVersion answers 409 Conflict; with the current one it writes', async () => {
    const created = await api.create(configMap('a'));
    const updated = await api.replace(obj({ ...created, data: { a: '2' } }));
    expect(Number(updated.metadata!.resourceVersion)).toBeGreaterThan(Number(created.metadata!.resourceVersion));
    expect(await apiFailure(api.replace(obj({ ...created, data: { a: '3' } })))).toMatchObject({
      code: 409,
      status: {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
        details: { name: 'a', kind: 'configmaps' },
      },
    });
    expect(kube.peek('v1', 'ConfigMap', 'default', 'a')).toMatchObject({ data: { a: '2' } });
  });

  it('replace without resourceVersion is unconditional; a different uid is a failed precondition', async () => {
    const created = await api.create(configMap('a'));
    const { resourceVersion: _rv, ...meta } = created.metadata!;
    await api.replace(obj({ ...created, metadata: meta, data: { a: 'x' } }));
    expect(kube.peek('v1', 'ConfigMap', 'default', 'a')).toMatchObject({ data: { a: 'x' } });
    const otherUid = obj({ ...created, metadata: { ...meta, uid: '00000000-0000-0000-0000-000000000000' } });
    expect(await apiFailure(api.replace(otherUid))).toMatchObject({
      code: 409,
      status: { reason: 'Conflict', message: expect.stringContaining('Precondition failed: UID in precondition') },
    });
    expect(await apiFailure(api.replace(configMap('missing')))).toMatchObject({ code: 404 });
  });

  it('bumps generation on spec changes only, and a no-op write keeps the resourceVersion', async () => {
    const created = await api.create(configMap('a'));
    const relabeled = await api.replace(obj({ ...created, metadata: { ...created.metadata, labels: { x: 'y' } } }));
    expect(relabeled.metadata?.generation).toBe(1);
    const changed = await api.replace(obj({ ...relabeled, data: { a: '2' } }));
    expect(changed.metadata?.generation).toBe(2);
    const same = await api.replace(obj(changed));
    expect(same.metadata?.resourceVersion).toBe(changed.metadata?.resourceVersion);
  });

  it('serves cluster-scoped kinds without a namespace', async () => {
    await api.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:reader' }, rules: [] });
    const read = await api.read({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:reader' } });
    expect(read.metadata?.namespace).toBeUndefined();
    // client-node percent-encodes (and lower-cases) the name; the log keeps the raw path and the decoded name.
    expect(kube.requests.at(-1)).toMatchObject({
      path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/system%3areader',
      name: 'system:reader',
      kind: 'ClusterRole',
    });
  });

  it('keeps status out of main-resource writes for kinds with a status subresource', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'default' },
      spec: workloadSpec('d'),
      status: { replicas: 9 },
    };
    const created = await api.create(obj(deployment));
    expect(created).not.toHaveProperty('status.replicas');
    kube.setStatus('apps/v1', 'Deployment', 'default', 'd', { replicas: 1, readyReplicas: 1 });
    const current = obj(await api.read(created));
    const replaced = await api.replace({ ...current, spec: { ...(current.spec as object), replicas: 2 }, status: { replicas: 0 } });
    expect(replaced).toMatchObject({ spec: { replicas: 2 }, status: { replicas: 1, readyReplicas: 1 }, metadata: { generation: 2 } });
    const apps = kube.kubeConfig().makeApiClient(AppsV1Api);
    const viaStatus = await apps.replaceNamespacedDeploymentStatus({
      name: 'd',
      namespace: 'default',
      body: { ...replaced, spec: { replicas: 7 } as never, status: { replicas: 2 } },
    });
    expect(viaStatus).toMatchObject({ spec: { replicas: 2 }, status: { replicas: 2 }, metadata: { generation: 2 } });
  });

  it('ManifestWork status is written only through the status subresource', async () => {
    const work = {
      apiVersion: 'work.open-cluster-management.io/v1',
      kind: 'ManifestWork',
      metadata: { name: 'w', namespace: 'default' },
      spec: { workload: { manifests: [] } },
    };
    await api.create(obj(work));
    kube.setStatus('work.open-cluster-management.io/v1', 'ManifestWork', 'default', 'w', {
      conditions: [{ type: 'Applied', status: 'True' }],
    });
    const read = obj(await api.read(obj(work)));
    expect(read.status).toEqual({ conditions: [{ type: 'Applied', status: 'True' }] });
  });
});
