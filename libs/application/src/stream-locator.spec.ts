import { resolve } from 'node:path';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry, ResourceNotFound, treeStreamName } from '@decom/domain';
import { StreamLocator, type ResourceIndex } from './stream-locator.js';

/** An index that knows `rows` once `caughtUp` is set (a read model applying a backlog), and counts its catch-ups. */
function laggingIndex(rows: Record<string, { kind: string; stream: string }>) {
  let caughtUp = false;
  let catchUps = 0;
  const index: ResourceIndex = { locate: async (id) => (caughtUp ? rows[id] : undefined) };
  return {
    index,
    catchUp: async () => {
      catchUps += 1;
      caughtUp = true;
    },
    catchUps: () => catchUps,
  };
}

describe('StreamLocator', () => {
  let kinds: KindRegistry;
  beforeAll(async () => {
    kinds = new KindRegistry(await loadEntitiesConfig(resolve('config/entities.yaml')));
  });

  it('looks a child the index does not know up again once the index has caught up', async () => {
    const stream = treeStreamName('Cluster', 'c1');
    const lagging = laggingIndex({ np1: { kind: 'NodePool', stream } });
    const locator = new StreamLocator(kinds, lagging.index, lagging.catchUp);
    await expect(locator.forExisting('NodePool', 'np1')).resolves.toBe(stream);
    expect(lagging.catchUps()).toBe(1);
  });

  it('answers ResourceNotFound when the caught-up index does not know the child either', async () => {
    const lagging = laggingIndex({});
    const locator = new StreamLocator(kinds, lagging.index, lagging.catchUp);
    await expect(locator.forExisting('NodePool', 'missing')).rejects.toBeInstanceOf(ResourceNotFound);
    expect(lagging.catchUps()).toBe(1);
  });

  it('does not wait for the index for a top-level resource (its stream is its own)', async () => {
    const lagging = laggingIndex({});
    const locator = new StreamLocator(kinds, lagging.index, lagging.catchUp);
    await expect(locator.forExisting('Cluster', 'c1')).resolves.toBe(treeStreamName('Cluster', 'c1'));
    expect(lagging.catchUps()).toBe(0);
  });

  it('passes on a catch-up that cannot finish now (the caller answers 503)', async () => {
    const timeout = Object.assign(new Error('projections behind'), { isTransient: true });
    const locator = new StreamLocator(kinds, { locate: async () => undefined }, () => Promise.reject(timeout));
    await expect(locator.forExisting('NodePool', 'np1')).rejects.toBe(timeout);
  });
});
