import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry, decideCreate, decidePatch, treeStreamName, type TreeState } from '@decom/domain';
import { SqliteEventStore, type EventStore, type ReadStreamOptions } from '@decom/event-store';
import { ResourceTreeRepository } from './resource-tree.repository.js';
import { TreeCache } from './tree-cache.js';

/**
 * Folded trees kept between commands, on a real SQLite event store: a command reads only the
 * events after the revision it knows, still sees what another process appended, and decides on the same
 * state a full fold gives.
 */
const metadata = () => ({ now: new Date().toISOString(), caller: 'alice@example.com' });
const plain = (state: TreeState) => JSON.stringify([...state.resources.entries()]);

describe('TreeCache with ResourceTreeRepository', () => {
  let dir: string;
  let file: string;
  let kinds: KindRegistry;
  const stores: SqliteEventStore[] = [];
  const open = () => {
    const store = new SqliteEventStore(file);
    stores.push(store);
    return store;
  };
  /** The store, with the options of every `readStream` it was asked. */
  const spied = (store: EventStore) => {
    const reads: ReadStreamOptions[] = [];
    const spy = Object.create(store) as EventStore;
    spy.readStream = (stream, options) => {
      reads.push(options ?? {});
      return store.readStream(stream, options);
    };
    return { spy, reads };
  };

  beforeAll(async () => {
    kinds = new KindRegistry(await loadEntitiesConfig(resolve('config/entities.yaml')));
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'decom-tree-cache-'));
    file = join(dir, 'events.db');
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
  });

  const create = (repository: ResourceTreeRepository, id: string, name: string) =>
    repository.decideAndAppend(
      treeStreamName('Cluster', id),
      (state) =>
        decideCreate({ type: 'CreateResource', id, kind: 'Cluster', name, spec: {}, labels: {}, metadata: metadata() }, state, kinds),
      { caller: 'alice' },
    );
  const patch = (repository: ResourceTreeRepository, id: string, labels: Record<string, string>) =>
    repository.decideAndAppend(
      treeStreamName('Cluster', id),
      (state) => decidePatch({ type: 'PatchResource', id, kind: 'Cluster', labels, metadata: metadata() }, state),
      { caller: 'alice' },
    );

  it('reads only the events after the kept revision, and folds to the same state as the whole stream', async () => {
    const { spy, reads } = spied(open());
    const cached = new ResourceTreeRepository(spy);
    const id = '01a23450-0000-7000-8000-000000000001';
    await create(cached, id, 'kept-one');
    for (let i = 0; i < 5; i++) await patch(cached, id, { step: String(i) });
    // After its own appends the repository knows the head: each decision asked only for what came after it.
    expect(reads.slice(1).every((r) => r.fromRevision !== undefined && r.fromRevision > 0)).toBe(true);
    const viaCache = await cached.load(treeStreamName('Cluster', id));
    const full = await new ResourceTreeRepository(open(), undefined, new TreeCache(0)).load(treeStreamName('Cluster', id));
    expect(viaCache.revision).toBe(5);
    expect(full.revision).toBe(5);
    expect(plain(viaCache.state)).toBe(plain(full.state));
    expect(viaCache.state.resources.get(id)?.labels).toEqual({ step: '4' });
  });

  it('sees what another process appended since (the store, not the cache, is the truth)', async () => {
    const mine = new ResourceTreeRepository(open());
    const theirs = new ResourceTreeRepository(open());
    const id = '01a23450-0000-7000-8000-000000000002';
    await create(mine, id, 'shared-one');
    await mine.load(treeStreamName('Cluster', id));
    await patch(theirs, id, { by: 'other-process' });
    const seen = await mine.load(treeStreamName('Cluster', id));
    expect(seen.revision).toBe(1);
    expect(seen.state.resources.get(id)?.labels).toEqual({ by: 'other-process' });
    // And a decision on the stale-looking cache still appends at the right revision (no conflict loop).
    const next = await patch(mine, id, { by: 'me' });
    expect(next.events).toHaveLength(1);
    expect((await theirs.load(treeStreamName('Cluster', id))).state.resources.get(id)?.labels).toEqual({ by: 'me' });
  });

  it('keeps at most its capacity, least recently used out', () => {
    const cache = new TreeCache(2);
    const tree = (n: number) => ({ state: { resources: new Map([[`r${n}`, {} as never]]) }, revision: n });
    cache.put('a', tree(1));
    cache.put('b', tree(2));
    cache.get('a');
    cache.put('c', tree(3));
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.revision).toBe(1);
    // A slower load of an older revision does not replace a newer one; a tree with no resources is dropped.
    cache.put('a', tree(0));
    expect(cache.get('a')?.revision).toBe(1);
    cache.put('a', { state: { resources: new Map() }, revision: 7 });
    expect(cache.get('a')).toBeUndefined();
  });
});
