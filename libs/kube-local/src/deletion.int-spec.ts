import { CoreV1Api, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';
import { apiFailure } from './testing/api-failure.js';
import { obj, type TestObject, podSpec, workloadSpec, jobSpec } from './testing/test-object.js';

const cm = (name: string, metadata: Record<string, unknown> = {}, namespace = 'default'): TestObject =>
  obj({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, ...metadata },
  });
const ownedBy = (owner: KubernetesObject, blockOwnerDeletion = true) => ({
  apiVersion: owner.apiVersion!,
  kind: owner.kind!,
  name: owner.metadata!.name!,
  uid: owner.metadata!.uid!,
  controller: true,
  blockOwnerDeletion,
});

describe('deletion semantics through KubernetesObjectApi', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;
  const exists = (kind: string, name: string, namespace: string | undefined = 'default', apiVersion = 'v1') =>
    kube.peek(apiVersion, kind, namespace, name) !== undefined;
  const deletedOrder = () => kube.changes.filter((c) => c.type === 'DELETED').map((c) => c.name);

  beforeEach(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
  });
  afterEach(() => kube.close());

  describe('finalizers', () => {
    it('an object with finalizers is only marked, and goes when an update empties them', async () => {
      const created = await api.create(cm('held', { finalizers: ['example.com/cleanup'] }));
      // client-node deserializes every DELETE answer as V1Status, so the marked object is read back.
      await api.delete(cm('held'));
      const read = await api.read(cm('held'));
      expect(read.metadata).toMatchObject({ deletionGracePeriodSeconds: 0, generation: 2, finalizers: ['example.com/cleanup'] });
      expect(read.metadata?.deletionTimestamp).toBeInstanceOf(Date);
      expect(read.metadata?.uid).toBe(created.metadata?.uid);

      expect(
        await apiFailure(
          api.replace(obj({ ...read, metadata: { ...read.metadata, finalizers: ['example.com/cleanup', 'example.com/new'] } })),
        ),
      ).toMatchObject({
        code: 422,
        status: { reason: 'Invalid', message: expect.stringContaining('no new finalizers can be added if the object is being deleted') },
      });

      await api.replace(obj({ ...read, metadata: { ...read.metadata, finalizers: [] } }));
      expect(await apiFailure(api.read(cm('held')))).toMatchObject({ code: 404 });
      expect(kube.changes.filter((c) => c.name === 'held').map((c) => c.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED']);
    });

    it('a second DELETE of a marked object changes nothing', async () => {
      await api.create(cm('held', { finalizers: ['example.com/cleanup'] }));
      await api.delete(cm('held'));
      const first = await api.read(cm('held'));
      await api.delete(cm('held'));
      expect((await api.read(cm('held'))).metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
    });

    it('removeFinalizer acts like the owning controller', async () => {
      await api.create(cm('held', { finalizers: ['example.com/a', 'example.com/b'] }));
      await api.delete(cm('held'));
      kube.removeFinalizer('v1', 'ConfigMap', 'default', 'held', 'example.com/a');
      expect(kube.peek('v1', 'ConfigMap', 'default', 'held')).toMatchObject({ metadata: { finalizers: ['example.com/b'] } });
      kube.removeFinalizer('v1', 'ConfigMap', 'default', 'held');
      expect(exists('ConfigMap', 'held')).toBe(false);
    });

    it('an object without finalizers goes at once with a success Status (Pods answer with the object)', async () => {
      const created = await api.create(cm('plain'));
      expect(await api.delete(cm('plain'))).toMatchObject({
        kind: 'Status',
        status: 'Success',
        details: { name: 'plain', kind: 'configmaps', uid: created.metadata?.uid },
      });
      await api.create(obj({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: podSpec() }));
      expect(await api.delete({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } })).toMatchObject({
        kind: 'Pod',
      });
    });

    it('answers 404 for a missing object, 409 for failed preconditions, 422 for an unknown policy', async () => {
      expect(await apiFailure(api.delete(cm('missing')))).toMatchObject({ code: 404, status: { reason: 'NotFound' } });
      await api.create(cm('a'));
      const wrongUid = api.delete(cm('a'), undefined, undefined, undefined, undefined, undefined, { preconditions: { uid: 'other' } });
      expect(await apiFailure(wrongUid)).toMatchObject({
        code: 409,
        status: { reason: 'Conflict', message: expect.stringContaining('Precondition failed: UID in precondition: other') },
      });
      expect(await apiFailure(api.delete(cm('a'), undefined, undefined, undefined, undefined, 'Sideways'))).toMatchObject({ code: 422 });
      expect(exists('ConfigMap', 'a')).toBe(true);
    });
  });

  describe('ownerReferences garbage collection', () => {
    /** owner ConfigMap → child ConfigMap → grandchild ConfigMap, plus a second child. */
    async function family(childFinalizers: string[] = []) {
      const owner = await api.create(cm('owner'));
      const child = await api.create(cm('child', { ownerReferences: [ownedBy(owner)], finalizers: childFinalizers }));
      await api.create(cm('grandchild', { ownerReferences: [ownedBy(child)] }));
      await api.create(cm('sibling', { ownerReferences: [ownedBy(owner, false)] }));
      return owner;
    }

    it('Background: the owner goes at once, dependents right after, asynchronously', async () => {
      await family();
      kube.pauseControllers();
      const answer = await api.delete(cm('owner'), undefined, undefined, undefined, undefined, 'Background');
      expect(answer).toMatchObject({ kind: 'Status', status: 'Success' });
      expect(exists('ConfigMap', 'owner')).toBe(false);
      expect(exists('ConfigMap', 'child')).toBe(true);
      kube.resumeControllers();
      await kube.settle();
      expect(['child', 'grandchild', 'sibling'].filter((n) => exists('ConfigMap', n))).toEqual([]);
      expect(deletedOrder().indexOf('owner')).toBeLessThan(deletedOrder().indexOf('child'));
      expect(deletedOrder().indexOf('child')).toBeLessThan(deletedOrder().indexOf('grandchild'));
    });

    it('Background is the default, and a dependent with another live owner survives without the dead reference', async () => {
      const owner = await api.create(cm('owner'));
      const other = await api.create(cm('other'));
      await api.create(cm('shared', { ownerReferences: [ownedBy(owner), { ...ownedBy(other), controller: false }] }));
      await api.delete(cm('owner'));
      await kube.settle();
      const shared = kube.peek('v1', 'ConfigMap', 'default', 'shared') as { metadata: { ownerReferences: { name: string }[] } };
      expect(shared.metadata.ownerReferences.map((r) => r.name)).toEqual(['other']);
    });

    it('Foreground: the owner is marked with foregroundDeletion and goes only after its blocking dependents', async () => {
      await family(['example.com/hold']);
      kube.pauseControllers();
      await api.delete(cm('owner'), undefined, undefined, undefined, undefined, 'Foreground');
      const marked = await api.read(cm('owner'));
      expect(marked.metadata?.finalizers).toEqual(['foregroundDeletion']);
      expect(marked.metadata?.deletionTimestamp).toBeInstanceOf(Date);
      kube.resumeControllers();
      await kube.settle();
      // The child is held by its own finalizer, so the owner waits; the child's dependents went first.
      expect(exists('ConfigMap', 'owner')).toBe(true);
      expect(exists('ConfigMap', 'child')).toBe(true);
      expect(exists('ConfigMap', 'grandchild')).toBe(false);
      expect(exists('ConfigMap', 'sibling')).toBe(false);
      // The child was deleted in the foreground too; with its own dependents gone only its hold is left.
      expect(kube.peek('v1', 'ConfigMap', 'default', 'child')).toMatchObject({
        metadata: { finalizers: ['example.com/hold'], deletionTimestamp: expect.any(String) },
      });

      kube.removeFinalizer('v1', 'ConfigMap', 'default', 'child', 'example.com/hold');
      await kube.settle();
      expect(exists('ConfigMap', 'child')).toBe(false);
      expect(exists('ConfigMap', 'owner')).toBe(false);
      expect(deletedOrder().slice(-2)).toEqual(['child', 'owner']);
    });

    it('Foreground given in the DeleteOptions body works like the query parameter', async () => {
      await family();
      await api.delete(cm('owner'), undefined, undefined, undefined, undefined, undefined, { propagationPolicy: 'Foreground' });
      await kube.settle();
      expect(deletedOrder()).toEqual(['grandchild', 'sibling', 'child', 'owner']);
    });

    it('Orphan: the owner goes and dependents stay with the reference stripped', async () => {
      const owner = await api.create(cm('owner'));
      const other = await api.create(cm('other'));
      await api.create(cm('kept', { ownerReferences: [ownedBy(owner), { ...ownedBy(other), controller: false }] }));
      await api.create(cm('alone', { ownerReferences: [ownedBy(owner)] }));
      kube.pauseControllers();
      await api.delete(cm('owner'), undefined, undefined, undefined, undefined, 'Orphan');
      expect((await api.read(cm('owner'))).metadata?.finalizers).toEqual(['orphan']);
      kube.resumeControllers();
      await kube.settle();
      expect(exists('ConfigMap', 'owner')).toBe(false);
      expect(kube.peek('v1', 'ConfigMap', 'default', 'alone')).not.toHaveProperty('metadata.ownerReferences');
      const kept = kube.peek('v1', 'ConfigMap', 'default', 'kept') as { metadata: { ownerReferences: { name: string }[] } };
      expect(kept.metadata.ownerReferences.map((r) => r.name)).toEqual(['other']);
    });

    it('batch/v1 Jobs default to Orphan, as real clusters keep them', async () => {
      const job = await api.create(
        obj({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'default' }, spec: jobSpec() }),
      );
      await api.create(
        obj({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'j-pod', namespace: 'default', ownerReferences: [ownedBy(job)] },
          spec: podSpec('Never'),
        }),
      );
      await api.delete({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'default' } });
      await kube.settle();
      expect(exists('Job', 'j', 'default', 'batch/v1')).toBe(false);
      expect(exists('Pod', 'j-pod')).toBe(true);
    });

    it('cascades across kinds: Deployment → ReplicaSet → Pod', async () => {
      const deployment = await api.create(
        obj({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default' }, spec: workloadSpec('d') }),
      );
      const rs = await api.create(
        obj({
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: 'd-1', namespace: 'default', ownerReferences: [ownedBy(deployment)] },
          spec: workloadSpec('d'),
        }),
      );
      await api.create(
        obj({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'd-1-x', namespace: 'default', ownerReferences: [ownedBy(rs)] },
          spec: podSpec(),
        }),
      );
      await api.delete(
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default' } },
        undefined,
        undefined,
        undefined,
        undefined,
        'Foreground',
      );
      await kube.settle();
      expect(kube.changes.filter((c) => c.type === 'DELETED').map((c) => c.kind)).toEqual(['Pod', 'ReplicaSet', 'Deployment']);
    });
  });

  describe('namespace deletion', () => {
    it('goes Terminating, deletes its content, then disappears', async () => {
      await api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
      await api.create(cm('a', {}, 'team'));
      await api.create(cm('held', { finalizers: ['example.com/hold'] }, 'team'));
      await api.create(
        obj({
          apiVersion: 'work.open-cluster-management.io/v1',
          kind: 'ManifestWork',
          metadata: { name: 'w', namespace: 'team' },
          spec: {},
        }),
      );
      await api.create(cm('elsewhere'));

      kube.pauseControllers();
      await api.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
      expect(await api.read({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } })).toMatchObject({
        status: { phase: 'Terminating' },
        spec: { finalizers: ['kubernetes'] },
      });
      expect(exists('ConfigMap', 'a', 'team')).toBe(true);
      kube.resumeControllers();
      await kube.settle();

      expect(exists('ConfigMap', 'a', 'team')).toBe(false);
      expect(exists('ManifestWork', 'w', 'team', 'work.open-cluster-management.io/v1')).toBe(false);
      expect(exists('ConfigMap', 'elsewhere')).toBe(true);
      const terminating = obj(await api.read({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }));
      expect(terminating).toMatchObject({
        status: {
          phase: 'Terminating',
          conditions: [
            {
              type: 'NamespaceContentRemaining',
              status: 'True',
              message: 'Some resources are remaining: configmaps. has 1 resource instances',
            },
            {
              type: 'NamespaceFinalizersRemaining',
              status: 'True',
              message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
            },
          ],
        },
      });
      expect(await apiFailure(api.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }))).toMatchObject({
        code: 409,
        status: { reason: 'Conflict' },
      });

      kube.removeFinalizer('v1', 'ConfigMap', 'team', 'held');
      await kube.settle();
      expect(exists('Namespace', 'team', undefined)).toBe(false);
      expect(deletedOrder().at(-1)).toBe('team');
    });

    it('an empty namespace goes in the same pass; the finalize subresource edits spec.finalizers', async () => {
      const core = kube.kubeConfig().makeApiClient(CoreV1Api);
      await core.createNamespace({ body: { metadata: { name: 'empty' } } });
      const finalized = await core.replaceNamespaceFinalize({
        name: 'empty',
        body: { metadata: { name: 'empty' }, spec: { finalizers: ['example.com/ns'] } },
      });
      expect(finalized.spec?.finalizers).toEqual(['example.com/ns']);
      await core.deleteNamespace({ name: 'empty' });
      await kube.settle();
      // The controller only removes its own `kubernetes` entry; ours still holds the namespace.
      expect(kube.peek('v1', 'Namespace', undefined, 'empty')).toMatchObject({
        spec: { finalizers: ['example.com/ns'] },
        status: { phase: 'Terminating' },
      });
      await core.replaceNamespaceFinalize({ name: 'empty', body: { metadata: { name: 'empty' }, spec: { finalizers: [] } } });
      expect(kube.peek('v1', 'Namespace', undefined, 'empty')).toBeUndefined();
    });

    it('refuses to delete the default namespace', async () => {
      expect(await apiFailure(api.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }))).toMatchObject({
        code: 403,
        status: { reason: 'Forbidden', message: 'namespaces "default" is forbidden: this namespace may not be deleted' },
      });
    });
  });
});
