/**
 * ObjectWatch against the bundled local Kubernetes API server over HTTP: label-selected
 * changes, a dropped watch, a 410 Gone, a watch that never starts. Waits poll for a state, never a time.
 */
import { KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { startLocalKube, type LocalKube } from '@decom/kube-local';
import { ObjectWatch, type ObjectChange } from './object-watch.js';
import type { WatchScope } from './watch-scopes.js';

const SELECTOR = 'decom.io/managed-by in (validation)';
const CONFIGMAPS: WatchScope = { apiVersion: 'v1', kind: 'ConfigMap', adapters: ['validation'], labelSelector: SELECTOR };

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('ObjectWatch (informer over the Kubernetes watch API, label-selected by decom.io/managed-by)', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;
  let changes: ObjectChange[];
  let watch: ObjectWatch | undefined;
  beforeEach(async () => {
    kube = await startLocalKube();
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
    changes = [];
  });
  afterEach(async () => {
    await watch?.stop();
    watch = undefined;
    await kube.close();
  });
  const start = (scope: WatchScope = CONFIGMAPS, options = {}) => {
    watch = new ObjectWatch(kube.kubeConfig(), scope, (change) => changes.push(change), { baseMs: 20, capMs: 200, ...options });
    watch.start();
    return watch;
  };
  const configMap = (name: string, managed = true): KubernetesObject =>
    ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default', ...(managed && { labels: { 'decom.io/managed-by': 'validation' } }) },
      data: { a: '1' },
    }) as KubernetesObject;
  const seen = (type: ObjectChange['type'], name: string) => changes.some((c) => c.type === type && c.object.metadata.name === name);

  it('delivers ADDED, MODIFIED and DELETED of the selected objects only, each a whole object', async () => {
    const w = start();
    await until('running', () => w.status().state === 'running');
    await api.create(configMap('ours'));
    await api.create(configMap('theirs', false));
    await api.patch(
      { ...configMap('ours'), data: { a: '2' } } as KubernetesObject,
      undefined,
      undefined,
      undefined,
      undefined,
      'application/merge-patch+json' as never,
    );
    await api.delete(configMap('ours'));
    await until('DELETED ours', () => seen('DELETED', 'ours'));
    expect(changes.map((c) => [c.type, c.object.metadata.name])).toEqual([
      ['ADDED', 'ours'],
      ['MODIFIED', 'ours'],
      ['DELETED', 'ours'],
    ]);
    expect(changes[0]!.object).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'default', labels: { 'decom.io/managed-by': 'validation' } },
    });
    expect(w.status()).toMatchObject({
      name: 'v1 ConfigMap (all namespaces)',
      label_selector: SELECTOR,
      state: 'running',
      lists: 1,
      events: 3,
    });
  });

  it('a dropped watch reconnects with backoff, resumes from its resourceVersion, and reports what changed meanwhile and later', async () => {
    const states: string[] = [];
    const w = start(CONFIGMAPS, { onStateChange: (s: { state: string }) => states.push(s.state) });
    await until('running', () => w.status().state === 'running');
    await api.create(configMap('before'));
    await until('ADDED before', () => seen('ADDED', 'before'));
    await kube.stopListening();
    await until('retrying', () => w.status().state === 'retrying');
    expect(w.status().error).toBeDefined();
    kube.seed(configMap('while-down') as never);
    await kube.startListening();
    await until('running again', () => w.status().state === 'running');
    await api.delete(configMap('before'));
    await until('DELETED before', () => seen('DELETED', 'before'));
    await until('ADDED while-down', () => seen('ADDED', 'while-down'));
    expect(w.status().restarts).toBeGreaterThanOrEqual(1);
    // Resumed from the last resourceVersion: no second list.
    expect(w.status().lists).toBe(1);
    // One state change each way, however many tries it took (a caller logs once, not per try).
    expect(states.slice(0, 3)).toEqual(['running', 'retrying', 'running']);
  });

  it('a dropped stream (a proxy cuts it) is resumed from its resourceVersion without a relist', async () => {
    const w = start();
    await until('running', () => w.status().state === 'running');
    await api.create(configMap('a'));
    await until('ADDED a', () => seen('ADDED', 'a'));
    expect(kube.dropWatches()).toBeGreaterThanOrEqual(1);
    await api.create(configMap('b'));
    await until('ADDED b', () => seen('ADDED', 'b'));
    expect(w.status().lists).toBe(1);
  });

  it("a 410 Expired on resume (its resourceVersion left the server's window) relists; what vanished meanwhile is reported DELETED", async () => {
    await kube.close();
    kube = await startLocalKube({ watchWindow: 3 });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
    const w = start();
    await until('running', () => w.status().state === 'running');
    await api.create(configMap('one'));
    await api.create(configMap('two'));
    await until('ADDED two', () => seen('ADDED', 'two'));
    await kube.stopListening();
    await until('retrying', () => w.status().state === 'retrying');
    // More changes than the window keeps, while the watch is away.
    await kube.startListening();
    await kube.stopListening();
    for (let i = 0; i < 5; i++) kube.seed(configMap(`filler-${i}`, false) as never);
    await kube.startListening();
    await api.delete(configMap('one'));
    await until('relisted', () => w.status().lists >= 2);
    await until('DELETED one', () => seen('DELETED', 'one'));
    await api.delete(configMap('two'));
    await until('DELETED two', () => seen('DELETED', 'two'));
    expect(w.status().state).toBe('running');
  });

  it('a watch that never starts (kind not served, RBAC 403) keeps retrying, states its reason, and starts once it can', async () => {
    const widgets: WatchScope = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      namespace: 'default',
      adapters: ['validation'],
      labelSelector: SELECTOR,
    };
    const w = start(widgets);
    await until('retrying', () => w.status().state === 'retrying');
    expect(w.status().error).toContain('does not serve');
    kube.registerKind({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
    await until('running', () => w.status().state === 'running');
    await watch!.stop();

    const forbidden = kube.faults.add({ verb: 'watch', status: 403, reason: 'Forbidden', message: 'configmaps is forbidden' });
    const denied = start();
    await until('retrying 403', () => denied.status().state === 'retrying' && denied.status().error?.includes('403'));
    const tries = forbidden.hits;
    await until('more tries', () => forbidden.hits > tries);
    forbidden.remove();
    await until('running', () => denied.status().state === 'running');
  });
});
