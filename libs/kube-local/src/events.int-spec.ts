import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';

/**
 * Events the bundled server records for what its controllers and deletions do or wait for, so
 * `kubectl describe` / `kubectl events` tell an operator why an object or a namespace is still there.
 */
describe('events recorded by the bundled server', () => {
  let kube: LocalKube;
  beforeEach(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS, maxEvents: 5 });
  });
  afterEach(() => kube.close());

  const events = (namespace: string) =>
    fetch(`${kube.url}/api/v1/namespaces/${namespace}/events`)
      .then(
        (r) =>
          r.json() as Promise<{
            items: {
              reason: string;
              message: string;
              count: number;
              type: string;
              involvedObject: { kind: string; name: string };
              source: { component: string };
            }[];
          }>,
      )
      .then((list) => list.items);

  it('a namespace held by a finalizer: Warning NamespaceFinalizersRemaining on the Namespace, in default', async () => {
    kube.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'stuck' } });
    kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: 'stuck', finalizers: ['example.com/hold'] } });
    await fetch(`${kube.url}/api/v1/namespaces/stuck`, { method: 'DELETE' });
    await kube.settle();
    const found = (await events('default')).filter((e) => e.involvedObject.name === 'stuck');
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'Warning',
          reason: 'NamespaceFinalizersRemaining',
          message: expect.stringContaining('example.com/hold in 1 resource instances'),
          source: { component: 'namespace-controller' },
        }),
        expect.objectContaining({ type: 'Normal', reason: 'NamespaceContentRemaining' }),
      ]),
    );
  });

  it('garbage collection: GarbageCollected on a dependent whose owner is gone; WaitingForDependents on a foreground owner', async () => {
    const owner = kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } }) as { metadata: { uid: string } };
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid, blockOwnerDeletion: true };
    kube.seed({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'child', ownerReferences: [ref], finalizers: ['example.com/hold'] },
    });
    await fetch(`${kube.url}/api/v1/namespaces/default/configmaps/owner`, {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ propagationPolicy: 'Foreground' }),
    });
    await kube.settle();
    const found = await events('default');
    expect(found.find((e) => e.involvedObject.name === 'child' && e.reason === 'GarbageCollected')?.message).toBe(
      'Deleting with propagationPolicy Background: its owner ConfigMap/owner is being deleted in the foreground',
    );
    expect(found.find((e) => e.involvedObject.name === 'owner' && e.reason === 'WaitingForDependents')?.message).toBe(
      'Foreground deletion waits for 1 dependent(s) with blockOwnerDeletion: ConfigMap/child',
    );
    expect(found.find((e) => e.involvedObject.name === 'child' && e.reason === 'WaitingForFinalizers')?.source.component).toBe(
      'kube-apiserver',
    );
  });

  it('a repeated event bumps count; no more than maxEvents are kept, oldest dropped', async () => {
    for (let i = 0; i < 7; i++)
      kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `held-${i}`, finalizers: ['example.com/hold'] } });
    for (let i = 0; i < 7; i++) await fetch(`${kube.url}/api/v1/namespaces/default/configmaps/held-${i}`, { method: 'DELETE' });
    const found = await events('default');
    expect(found.map((e) => e.involvedObject.name).sort()).toEqual(['held-2', 'held-3', 'held-4', 'held-5', 'held-6']);
    // The same reason and message about the same object again: one event, count 2.
    kube.removeFinalizer('v1', 'ConfigMap', 'default', 'held-6');
    kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'again', finalizers: ['example.com/hold'] } });
    await fetch(`${kube.url}/api/v1/namespaces/default/configmaps/again`, { method: 'DELETE' });
    await fetch(`${kube.url}/api/v1/namespaces/default/configmaps/again`, {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ propagationPolicy: 'Orphan' }),
    });
    expect((await events('default')).filter((e) => e.involvedObject.name === 'again').map((e) => [e.reason, e.count])).toEqual([
      ['WaitingForFinalizers', 2],
    ]);
  });
});
