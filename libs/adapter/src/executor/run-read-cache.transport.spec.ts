import type { PropagationPolicy } from '../config/task-config.types.js';
import type { DeleteOutcome, DiscoveryQuery, KubeObject, ObjectRef, ResourceTransport } from '../transport/resource-transport.port.js';
import { RunReadCacheTransport } from './run-read-cache.transport.js';

/**
 * A run's cluster reads are remembered until its first write (RunReadCacheTransport). The
 * cluster here is an in-memory map that counts the reads it answers (a real, minimal transport).
 */
class MapCluster implements ResourceTransport {
  readonly objects = new Map<string, KubeObject>();
  reads = 0;
  failNextRead = false;
  private key(ref: { kind: string; namespace?: string; name: string }) {
    return `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
  }
  put(object: KubeObject) {
    this.objects.set(
      this.key({
        kind: object.kind,
        name: object.metadata.name,
        ...(object.metadata.namespace && { namespace: object.metadata.namespace }),
      }),
      object,
    );
  }
  async get(ref: ObjectRef) {
    this.reads += 1;
    if (this.failNextRead) {
      this.failNextRead = false;
      throw new Error('connection refused');
    }
    return this.objects.get(this.key(ref));
  }
  async discover(query: DiscoveryQuery) {
    return this.get({
      apiVersion: query.apiVersion,
      kind: query.kind,
      name: query.byName!,
      ...(query.namespace && { namespace: query.namespace }),
    });
  }
  async discoverAll(query: DiscoveryQuery) {
    this.reads += 1;
    return [...this.objects.values()].filter(
      (o) => o.kind === query.kind && Object.entries(query.labelSelector ?? {}).every(([k, v]) => o.metadata.labels?.[k] === v),
    );
  }
  async create(object: KubeObject) {
    this.put(object);
    return object;
  }
  async replace(object: KubeObject) {
    this.put(object);
    return object;
  }
  async delete(ref: ObjectRef, _policy: PropagationPolicy): Promise<DeleteOutcome> {
    return this.objects.delete(this.key(ref)) ? 'deleted' : 'not-found';
  }
}

const cm = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', labels },
});
const ref = (kind: string, name: string): ObjectRef => ({ apiVersion: kind === 'Job' ? 'batch/v1' : 'v1', kind, name, namespace: 'ns' });

describe('RunReadCacheTransport: a run reads each object once until it writes', () => {
  let cluster: MapCluster;
  let cache: RunReadCacheTransport;
  beforeEach(() => {
    cluster = new MapCluster();
    cluster.put(cm('a', { app: 'x' }));
    cache = new RunReadCacheTransport(cluster);
  });

  it('before any write, get and discover by name of one object share one read (absent included); lists are remembered by query', async () => {
    expect(await cache.get(ref('ConfigMap', 'a'))).toMatchObject({ metadata: { name: 'a' } });
    expect(await cache.discover({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', byName: 'a' })).toMatchObject({
      metadata: { name: 'a' },
    });
    expect(await cache.discoverAll!({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', byName: 'a' })).toHaveLength(1);
    expect(await cache.get(ref('Job', 'j'))).toBeUndefined();
    expect(await cache.get(ref('Job', 'j'))).toBeUndefined();
    expect(await cache.discoverAll!({ apiVersion: 'v1', kind: 'ConfigMap', labelSelector: { app: 'x' } })).toHaveLength(1);
    expect(await cache.discoverAll!({ apiVersion: 'v1', kind: 'ConfigMap', labelSelector: { app: 'x' } })).toHaveLength(1);
    expect(cluster.reads).toBe(3);
  });

  it('answers are copies: a caller changing one does not change what the next caller gets', async () => {
    const first = (await cache.get(ref('ConfigMap', 'a')))!;
    first.metadata.name = 'changed';
    expect((await cache.get(ref('ConfigMap', 'a')))!.metadata.name).toBe('a');
  });

  it('a failed read is not remembered', async () => {
    cluster.failNextRead = true;
    await expect(cache.get(ref('ConfigMap', 'a'))).rejects.toThrow('connection refused');
    expect(await cache.get(ref('ConfigMap', 'a'))).toBeDefined();
    expect(cluster.reads).toBe(2);
  });

  it('after a delete: its kind and every "present" answer are read again, each time (a recreate wait polls the cluster); "absent" of other kinds stays', async () => {
    await cache.get(ref('ConfigMap', 'a'));
    await cache.get(ref('Job', 'j'));
    await cache.delete(ref('ConfigMap', 'a'), 'Background');
    cluster.reads = 0;
    expect(await cache.get(ref('ConfigMap', 'a'))).toBeUndefined();
    cluster.put(cm('a'));
    expect(await cache.get(ref('ConfigMap', 'a'))).toBeDefined();
    expect(cluster.reads).toBe(2);
    expect(await cache.get(ref('Job', 'j'))).toBeUndefined();
    expect(cluster.reads).toBe(2);
  });

  it('a delete forgets "present" answers of other kinds too (a Namespace takes its contents with it)', async () => {
    cluster.put({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'ns' } });
    await cache.get(ref('Job', 'j'));
    await cache.delete({ apiVersion: 'v1', kind: 'Namespace', name: 'ns' }, 'Background');
    cluster.objects.clear();
    expect(await cache.get(ref('Job', 'j'))).toBeUndefined();
  });

  it('prefetch reads several by-name discoveries at once; the discoveries then come from memory, a failed one is read again', async () => {
    const query = (kind: string, name: string) => ({ apiVersion: kind === 'Job' ? 'batch/v1' : 'v1', kind, namespace: 'ns', byName: name });
    cluster.failNextRead = true;
    await cache.prefetch([
      query('ConfigMap', 'a'),
      query('Job', 'j'),
      { apiVersion: 'v1', kind: 'ConfigMap', labelSelector: { app: 'x' } },
    ]);
    expect(cluster.reads).toBe(2);
    await cache.discover(query('ConfigMap', 'a'));
    await cache.discover(query('Job', 'j'));
    expect(cluster.reads).toBe(3);
    await cache.delete(ref('ConfigMap', 'a'), 'Background');
    await cache.prefetch([query('ConfigMap', 'b')]);
    expect(cluster.reads).toBe(3);
  });

  it('a create or replace forgets everything, and nothing is remembered after it', async () => {
    await cache.get(ref('Job', 'j'));
    await cache.create(cm('b'));
    cluster.put({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'ns' } });
    expect(await cache.get(ref('Job', 'j'))).toBeDefined();
    cluster.reads = 0;
    await cache.get(ref('ConfigMap', 'b'));
    await cache.get(ref('ConfigMap', 'b'));
    expect(cluster.reads).toBe(2);
  });
});
