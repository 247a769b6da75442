/**
 * Seeds a store with many clusters fast (P4-P6 need 20k), while no engine holds the data
 * folder: the create decision and append the API's POST makes (`decideCreate` through
 * `ResourceTreeRepository.decideAndAppend`, name reservation included), straight into
 * `<dataDir>/decom.sqlite` without HTTP. The engine started on the folder afterwards projects the events
 * into its read models like any it finds in its log, so the store is the one 20k POSTs would have left.
 */
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry, decideCreate, treeStreamName } from '@decom/domain';
import { SqliteEventStore, type EventStore } from '@decom/event-store';
import { ResourceTreeRepository } from '../../../libs/application/src/resource-tree.repository.js';

export interface SeedCluster {
  readonly name: string;
  readonly spec: Record<string, unknown>;
  readonly labels: Record<string, string>;
}

/** Appends one `ResourceCreated` per cluster; returns the seconds it took. @throws whatever the decision or append throws (a taken name). */
export async function seedClusters(
  dataDir: string,
  entitiesFile: string,
  count: number,
  cluster: (i: number) => SeedCluster,
): Promise<number> {
  const kinds = new KindRegistry(await loadEntitiesConfig(entitiesFile));
  const store = new SqliteEventStore(join(dataDir, 'decom.sqlite'));
  try {
    return await seedClustersInto(store, kinds, count, cluster);
  } finally {
    await store.close();
  }
}

/** The same into any event store (a PostgreSQL schema no engine uses yet); the caller closes it. Returns the seconds it took. */
export async function seedClustersInto(
  store: EventStore,
  kinds: KindRegistry,
  count: number,
  cluster: (i: number) => SeedCluster,
): Promise<number> {
  const repository = new ResourceTreeRepository(store);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const id = uuidv7();
    const { name, spec, labels } = cluster(i);
    const command = {
      type: 'CreateResource' as const,
      id,
      kind: 'Cluster',
      name,
      spec,
      labels,
      metadata: { now: new Date().toISOString(), caller: 'bench@example.com' },
    };
    await repository.decideAndAppend(treeStreamName('Cluster', id), (state) => decideCreate(command, state, kinds), {
      caller: 'bench@example.com',
    });
  }
  return (performance.now() - started) / 1000;
}
