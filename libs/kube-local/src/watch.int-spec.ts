import { CoreV1Api, KubernetesObjectApi, makeInformer, Watch, type KubernetesObject, type V1ConfigMap } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube, type LocalKubeOptions } from './index.js';
import { obj, jobSpec } from './testing/test-object.js';

const cm = (name: string, labels: Record<string, string> = {}, namespace = 'default') =>
  obj({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels } });

type WatchParams = Record<string, string | number | boolean | undefined>;

interface Seen {
  readonly type: string;
  readonly name: string;
  readonly resourceVersion: string;
  readonly object: Record<string, unknown>;
}

/** A client-node Watch that records what it gets and when it ends. */
class Recorder {
  readonly events: Seen[] = [];
  readonly done: Promise<unknown>;
  private finish!: (error: unknown) => void;
  controller?: AbortController;

  constructor() {
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  static async start(kube: LocalKube, path: string, params: WatchParams = {}): Promise<Recorder> {
    const recorder = new Recorder();
    recorder.controller = await new Watch(kube.kubeConfig()).watch(
      path,
      params,
      (type, object: KubernetesObject & Record<string, unknown>) =>
        recorder.events.push({
          type,
          name: object.metadata?.name ?? '',
          resourceVersion: object.metadata?.resourceVersion ?? '',
          object,
        }),
      (error) => recorder.finish(error ?? null),
    );
    return recorder;
  }

  /** `TYPE name` of every event but bookmarks. */
  get summary(): string[] {
    return this.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.name}`);
  }

  /** Resolves once `predicate` holds; fails the test with what was seen if it does not within 10 s. */
  async until(predicate: (events: Seen[]) => boolean): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if (predicate(this.events)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`condition not reached; events: ${JSON.stringify(this.summary)}`);
  }

  stop(): void {
    this.controller?.abort();
  }
}

async function eventually(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never true: ${what}`);
}

describe('watch through @kubernetes/client-node', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;
  let core: CoreV1Api;
  const recorders: Recorder[] = [];
  const watch = async (path: string, params: WatchParams = {}) => {
    const recorder = await Recorder.start(kube, path, params);
    recorders.push(recorder);
    return recorder;
  };
  const start = async (options: LocalKubeOptions = {}) => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS, ...options });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
    core = kube.kubeConfig().makeApiClient(CoreV1Api);
  };

  afterEach(async () => {
    for (const r of recorders.splice(0)) r.stop();
    await kube.close();
  });

  it('streams ADDED, MODIFIED and DELETED in order for a label selector, objects entering and leaving it included', async () => {
    await start();
    const listed = await core.listNamespacedConfigMap({ namespace: 'default' });
    const w = await watch('/api/v1/namespaces/default/configmaps', {
      labelSelector: 'app=web',
      resourceVersion: listed.metadata?.resourceVersion,
    });
    await api.create(cm('a', { app: 'web' }));
    await api.create(cm('b', { app: 'db' }));
    await api.patch(cm('a', { app: 'web', tier: 'front' }), undefined, undefined, undefined, undefined, 'application/merge-patch+json');
    await api.patch(cm('a', { app: 'db' }), undefined, undefined, undefined, undefined, 'application/merge-patch+json');
    await api.patch(cm('b', { app: 'web' }), undefined, undefined, undefined, undefined, 'application/merge-patch+json');
    await api.delete(cm('b'));
    await api.create(cm('elsewhere', { app: 'web' }, 'kube-public'));
    await w.until((e) => e.length >= 5);
    expect(w.summary).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a', 'ADDED b', 'DELETED b']);
    // Each event carries the full object as of that change, with apiVersion/kind, in resourceVersion order.
    const versions = w.events.map((e) => Number(e.resourceVersion));
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    expect(w.events[1]!.object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { labels: { app: 'web', tier: 'front' } } });
    // Leaving the selection: the previous state with the new resourceVersion.
    expect(w.events[2]!.object).toMatchObject({ metadata: { labels: { app: 'web', tier: 'front' } } });
    expect(w.events[2]!.resourceVersion).toBe((kube.peek('v1', 'ConfigMap', 'default', 'a') as V1ConfigMap).metadata?.resourceVersion);
    // A real delete: the last state with the delete's resourceVersion (the change log's DELETED entry).
    expect(w.events[4]!.resourceVersion).toBe(kube.changes.find((c) => c.type === 'DELETED' && c.name === 'b')?.resourceVersion);
    expect(w.events[4]!.object).toMatchObject({ metadata: { labels: { app: 'web' } } });
  });

  it('without a resourceVersion sends the current objects as ADDED, then changes; fieldSelector and all namespaces work', async () => {
    await start();
    kube.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    kube.seed(cm('one', {}, 'team'));
    kube.seed(cm('two'));
    const all = await watch('/api/v1/configmaps');
    const byName = await watch('/api/v1/configmaps', { fieldSelector: 'metadata.name=two' });
    const inTeam = await watch('/api/v1/configmaps', { fieldSelector: 'metadata.namespace=team', resourceVersion: '0' });
    await all.until((e) => e.length >= 2);
    await api.create(cm('three', {}, 'team'));
    await all.until((e) => e.length >= 3);
    await inTeam.until((e) => e.length >= 2);
    expect(all.summary).toEqual(['ADDED two', 'ADDED one', 'ADDED three']);
    expect(byName.summary).toEqual(['ADDED two']);
    expect(inTeam.summary).toEqual(['ADDED one', 'ADDED three']);
  });

  it('serves group kinds, cluster-scoped kinds and registered CRD-like kinds', async () => {
    await start();
    kube.registerKind({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
    const jobs = await watch('/apis/batch/v1/namespaces/default/jobs');
    const widgets = await watch('/apis/example.com/v1/widgets');
    const namespaces = await watch('/api/v1/namespaces', { labelSelector: 'team' });
    await api.create(obj({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'default' }, spec: jobSpec() }));
    await api.create(obj({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: {} }));
    await api.create(obj({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { team: 'x' } } }));
    await api.delete(obj({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } }));
    await namespaces.until((e) => e.some((x) => x.type === 'DELETED'));
    await jobs.until((e) => e.length >= 1);
    await widgets.until((e) => e.length >= 1);
    expect(jobs.events.map((e) => [e.type, e.object.kind, e.object.apiVersion])).toEqual([['ADDED', 'Job', 'batch/v1']]);
    expect(widgets.summary).toEqual(['ADDED w']);
    // Marked Terminating, then its `kubernetes` finalizer dropped by the namespace controller, which removes it.
    expect(namespaces.summary).toEqual(['ADDED n', 'MODIFIED n', 'MODIFIED n', 'DELETED n']);
    expect(namespaces.events[1]!.object).toMatchObject({ status: { phase: 'Terminating' } });
  });

  it('resumes from a resourceVersion with only the later changes', async () => {
    await start();
    await api.create(cm('before'));
    const mark = kube.changes.at(-1)!.resourceVersion;
    await api.create(cm('after-1'));
    await api.delete(cm('before'));
    await api.create(cm('after-2'));
    const w = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: mark });
    await w.until((e) => e.length >= 3);
    expect(w.summary).toEqual(['ADDED after-1', 'DELETED before', 'ADDED after-2']);
  });

  it('answers a resourceVersion older than the window with an in-stream 410 Expired and ends the stream', async () => {
    await start({ watchWindow: 3 });
    const old = (await core.listNamespacedConfigMap({ namespace: 'default' })).metadata!.resourceVersion!;
    for (const name of ['a', 'b', 'c', 'd']) await api.create(cm(name));
    const w = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: old });
    expect(await w.done).toBeNull();
    expect(w.events.map((e) => [e.type, e.object])).toEqual([
      [
        'ERROR',
        {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          reason: 'Expired',
          code: 410,
          message: `too old resource version: ${old} (${Number(old) + 1})`,
        },
      ],
    ]);
    // Still within the window: resumes.
    const recent = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: String(Number(old) + 1) });
    await recent.until((e) => e.length >= 3);
    expect(recent.summary).toEqual(['ADDED b', 'ADDED c', 'ADDED d']);
  });

  it('a resourceVersion the store has not reached waits for it, then fails with 504 ResourceVersionTooLarge', async () => {
    await start();
    const current = Number((await core.listNamespacedConfigMap({ namespace: 'default' })).metadata!.resourceVersion!);
    const reached = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: String(current + 1) });
    const never = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: String(current + 100) });
    await api.create(cm('first')); // current + 1: not after the requested version
    await api.create(cm('second'));
    await reached.until((e) => e.length >= 1);
    expect(reached.summary).toEqual(['ADDED second']);
    expect(await never.done).toBeNull();
    expect(never.events.map((e) => e.object)).toEqual([
      expect.objectContaining({
        kind: 'Status',
        code: 504,
        reason: 'Timeout',
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      }),
    ]);
  });

  it('sends BOOKMARK events with the current resourceVersion when asked to, and none otherwise', async () => {
    await start({ watchBookmarkIntervalMs: 50 });
    const plain = await watch('/api/v1/namespaces/default/configmaps', {});
    const w = await watch('/api/v1/namespaces/default/configmaps', { allowWatchBookmarks: true });
    await api.create(cm('a'));
    await w.until((e) => e.filter((x) => x.type === 'BOOKMARK').length >= 2 && e.some((x) => x.type === 'ADDED'));
    const bookmark = w.events.filter((e) => e.type === 'BOOKMARK').at(-1)!;
    expect(bookmark.object).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: kube.changes.at(-1)!.resourceVersion },
    });
    expect(plain.events.map((e) => e.type)).toEqual(['ADDED']);
  });

  it('ends the stream cleanly at timeoutSeconds', async () => {
    await start();
    const w = await watch('/api/v1/namespaces/default/configmaps', { timeoutSeconds: 1 });
    expect(await w.done).toBeNull();
  });

  it('ends every watch on stopListening and dropWatches; the client sees an error', async () => {
    await start();
    const dropped = await watch('/api/v1/namespaces/default/configmaps');
    await eventually(() => kube.requestsMatching({ verb: 'watch' }).length === 1, 'watch started');
    expect(kube.dropWatches()).toBe(1);
    expect(await dropped.done).toBeInstanceOf(Error);

    const stopped = await watch('/api/v1/namespaces/default/configmaps');
    await eventually(() => kube.requestsMatching({ verb: 'watch' }).length === 2, 'second watch started');
    await kube.stopListening();
    expect(await stopped.done).toBeInstanceOf(Error);
    await kube.startListening();
  });

  it('logs watches with verb watch; faults can refuse a watch or drop it once started', async () => {
    await start();
    kube.seed(cm('a'));
    kube.faults.add({ verb: 'watch', status: 500, times: 1 });
    const refused = await watch('/api/v1/namespaces/default/configmaps');
    expect(await refused.done).toMatchObject({ statusCode: 500 });
    kube.faults.add({ verb: 'watch', connection: 'reset', afterApply: true, times: 1 });
    const cut = await watch('/api/v1/namespaces/default/configmaps');
    expect(await cut.done).toBeInstanceOf(Error);
    expect(cut.summary).toEqual(['ADDED a']);
    expect(kube.requestsMatching({ verb: 'watch' }).map((r) => [r.kind, r.namespace, r.status, r.fault])).toEqual([
      ['ConfigMap', 'default', 500, 'status'],
      ['ConfigMap', 'default', 0, 'reset'],
    ]);
  });

  it('answers 400 for a bad selector or resourceVersion; discovery lists the watch verb', async () => {
    await start();
    const badSelector = await watch('/api/v1/namespaces/default/configmaps', { labelSelector: 'a in' });
    const badVersion = await watch('/api/v1/namespaces/default/configmaps', { resourceVersion: 'abc' });
    expect(await badSelector.done).toMatchObject({ statusCode: 400 });
    expect(await badVersion.done).toMatchObject({ statusCode: 400 });
    const resources = await core.getAPIResources();
    expect(resources.resources.find((r) => r.name === 'configmaps')?.verbs).toContain('watch');
  });

  it('makeInformer sees add, update and delete, and relists after a 410 Expired', async () => {
    // Short request timeouts make the informer re-watch; a small window makes its version expire meanwhile.
    await start({ minRequestTimeoutSeconds: 1, watchWindow: 2 });
    kube.seed(cm('existing'));
    const informer = makeInformer(kube.kubeConfig(), '/api/v1/namespaces/default/configmaps', () =>
      core.listNamespacedConfigMap({ namespace: 'default' }),
    );
    const seen: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      await eventually(() => kube.requestsMatching({ verb: 'watch' }).length === 1, 'informer watching');
      await api.create(cm('new'));
      await api.patch(cm('new', { x: 'y' }), undefined, undefined, undefined, undefined, 'application/merge-patch+json');
      await api.delete(cm('existing'));
      await eventually(() => seen.length >= 4, `informer events: ${JSON.stringify(seen)}`);
      expect(seen).toEqual(['add existing', 'add new', 'update new', 'delete existing']);

      // Changes the informer does not watch move the store past its version and out of the window.
      for (const name of ['x1', 'x2', 'x3']) kube.seed(cm(name, {}, 'kube-public'));
      await eventually(() => kube.requestsMatching({ verb: 'list', kind: 'ConfigMap' }).length === 2, 'informer relisted');
      await eventually(() => kube.requestsMatching({ verb: 'watch' }).length >= 3, 'informer watching again');
      await api.create(cm('later'));
      await eventually(() => seen.includes('add later'), `informer events: ${JSON.stringify(seen)}`);
      expect(
        informer
          .list()
          .map((o) => o.metadata?.name)
          .sort(),
      ).toEqual(['later', 'new']);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });
});
