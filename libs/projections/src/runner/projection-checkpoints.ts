import type { ReadModelQueries, ReadModelTx } from './read-model-store.port.js';

/**
 * The `projection_checkpoints` table, next to the read models so a checkpoint commits with the rows it
 * covers: `name` is the projection's, `position` the last `$all` position applied to it.
 */
export const CREATE_CHECKPOINTS_TABLE =
  'CREATE TABLE IF NOT EXISTS projection_checkpoints (name TEXT PRIMARY KEY, position BIGINT NOT NULL)';

/** Adds a row at position 0 for every projection that has none. */
export async function insertMissingCheckpoints(tx: ReadModelTx, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await tx.execute('INSERT INTO projection_checkpoints (name, position) VALUES (?, 0) ON CONFLICT (name) DO NOTHING', [name]);
  }
}

/** Sets the projections' checkpoints to 0 (rows created when missing). */
export async function resetCheckpoints(tx: ReadModelTx, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await tx.execute('INSERT INTO projection_checkpoints (name, position) VALUES (?, 0) ON CONFLICT (name) DO UPDATE SET position = 0', [
      name,
    ]);
  }
}

/** Checkpoint per projection name; a projection without a row is at 0. */
export async function readCheckpoints(db: ReadModelQueries, names: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ name: string; position: number }>('SELECT name, position FROM projection_checkpoints');
  const stored = new Map(rows.map((row) => [row.name, Number(row.position)]));
  return new Map(names.map((name) => [name, stored.get(name) ?? 0]));
}

/**
 * Moves a checkpoint from `from` to `to`, only if it still is at `from`. False means another runner moved it
 * first. In PostgreSQL the UPDATE also locks the row until commit, so two runners never apply the same batch.
 */
export async function advanceCheckpoint(tx: ReadModelTx, name: string, from: number, to: number): Promise<boolean> {
  const { changes } = await tx.execute('UPDATE projection_checkpoints SET position = ? WHERE name = ? AND position = ?', [to, name, from]);
  return changes === 1;
}
