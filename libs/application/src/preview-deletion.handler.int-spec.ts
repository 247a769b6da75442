import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry, ResourceNotFound, decideCreate, treeStreamName } from '@decom/domain';
import { SqliteEventStore } from '@decom/event-store';
import { PreviewDeletionHandler, PreviewDeletionQuery } from './preview-deletion.handler.js';
import { ResourceTreeRepository } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

/** The preview handler on a real SQLite event store: the DELETE's plan from the stored tree, and the stream unchanged. */
describe('PreviewDeletionHandler', () => {
  let dir: string;
  let store: SqliteEventStore;
  let kinds: KindRegistry;
  const metadata = () => ({ now: new Date().toISOString(), caller: 'alice@example.com' });
  const clusterId = '01a23450-0000-7000-8000-0000000000c1';
  const poolId = '01a23450-0000-7000-8000-0000000000n1';

  beforeAll(async () => {
    kinds = new KindRegistry(await loadEntitiesConfig(resolve('config/entities.yaml')));
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'decom-preview-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('previews a cluster and its nodepool in hard-delete order and appends nothing', async () => {
    const repository = new ResourceTreeRepository(store);
    const stream = treeStreamName('Cluster', clusterId);
    await repository.decideAndAppend(
      stream,
      (s) =>
        decideCreate(
          { type: 'CreateResource', id: clusterId, kind: 'Cluster', name: 'prod', spec: {}, labels: {}, metadata: metadata() },
          s,
          kinds,
        ),
      { caller: 'alice' },
    );
    await repository.decideAndAppend(
      stream,
      (s) =>
        decideCreate(
          {
            type: 'CreateResource',
            id: poolId,
            kind: 'NodePool',
            name: 'pool',
            spec: {},
            labels: {},
            owner: { id: clusterId, kind: 'Cluster' },
            metadata: metadata(),
          },
          s,
          kinds,
        ),
      { caller: 'alice' },
    );
    const before = (await store.readStream(stream)).map((e) => e.id);
    // Only a top-level kind is located here, so the locator never asks the read side.
    const handler = new PreviewDeletionHandler(repository, new StreamLocator(kinds, { locate: () => Promise.resolve(undefined) }), kinds);

    const preview = await handler.execute(
      new PreviewDeletionQuery({ type: 'RequestDeletion', id: clusterId, kind: 'Cluster', metadata: metadata() }),
    );

    expect(preview.outcome).toBe('WouldDelete');
    expect(preview.resources.map((r) => [r.kind, r.id, r.generation])).toEqual([
      ['NodePool', poolId, 2],
      ['Cluster', clusterId, 2],
    ]);
    expect((await store.readStream(stream)).map((e) => e.id)).toEqual(before);
    await expect(
      handler.execute(
        new PreviewDeletionQuery({
          type: 'RequestDeletion',
          id: '01a23450-0000-7000-8000-0000000000ff',
          kind: 'Cluster',
          metadata: metadata(),
        }),
      ),
    ).rejects.toBeInstanceOf(ResourceNotFound);
  });
});
