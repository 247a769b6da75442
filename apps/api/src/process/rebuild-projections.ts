/**
 * Rebuilds read models from the event log (`decom projections rebuild [name]`): drops the projection's
 * tables, replays `$all` from the start in batches, and leaves the checkpoint at the head, all on the
 * storage the configuration names (SQLite, PostgreSQL, or EventStoreDB + PostgreSQL).
 */
import type { AppConfig } from '@decom/config';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry } from '@decom/domain';
import { AuditProjection, BreakGlassProjection, ProjectionRunner, ResourceViewProjection, type Projection } from '@decom/projections';
import { openStorage } from './storage.js';

/** Every projection the engine runs, in order (the same list as the API process's ProjectionRunner, read-side.ts). */
export function createProjections(kinds: KindRegistry): Projection[] {
  return [new ResourceViewProjection(kinds), new AuditProjection(), new BreakGlassProjection()];
}

/** An unknown name was given to `projections rebuild`. */
export class UnknownProjection extends Error {
  override readonly name = 'UnknownProjection';
  constructor(
    readonly projection: string,
    readonly known: readonly string[],
  ) {
    super(`unknown projection "${projection}"; known: ${known.join(', ')}`);
  }
}

export interface RebuildOptions {
  /** Only this projection (default: all of them). */
  readonly name?: string;
  /** Events per read-model transaction. Default 500. */
  readonly batchSize?: number;
  /** `(done, total)` in `$all` positions (dense on SQLite/PostgreSQL: event counts). */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface RebuildReport {
  readonly projections: readonly string[];
  /** The checkpoint reached: the log's head when the replay ended. */
  readonly position: number;
  readonly durationMs: number;
}

/**
 * @throws UnknownProjection for a name no projection has (nothing is touched).
 * @throws whatever the storage or a projection throws; the transaction that failed is rolled back and the
 *   checkpoint says where a new rebuild or `decom start` resumes.
 * Run it with the engine stopped: a running engine's runner would apply live events meanwhile.
 */
export async function rebuildProjections(config: AppConfig, options: RebuildOptions = {}): Promise<RebuildReport> {
  const kinds = new KindRegistry(await loadEntitiesConfig(config.entitiesFile));
  const all = createProjections(kinds);
  const selected = options.name === undefined ? all : all.filter((projection) => projection.name === options.name);
  if (selected.length === 0)
    throw new UnknownProjection(
      options.name!,
      all.map((projection) => projection.name),
    );
  const startedAt = Date.now();
  const storage = await openStorage(config);
  try {
    const runner = new ProjectionRunner(storage.store, storage.readModels, selected, { batchSize: options.batchSize ?? 500 });
    await runner.rebuild(options.onProgress);
    return {
      projections: selected.map((projection) => projection.name),
      position: await runner.checkpoint(),
      durationMs: Date.now() - startedAt,
    };
  } finally {
    await storage.close();
  }
}
