import { createHash } from 'node:crypto';
import type { ReadModelQueries, ReadModelTx } from './read-model-store.port.js';

/**
 * The `projection_schemas` table: per projection, the digest of the schema its tables were created with.
 * Read models are derived from the event log, so a projection whose schema changed (a new column, a new
 * index, a new table) is dropped and replayed from the log on the next start instead of failing on its
 * first write against old tables: upgrading needs no `decom projections rebuild` by hand.
 */
export const CREATE_SCHEMAS_TABLE = 'CREATE TABLE IF NOT EXISTS projection_schemas (name TEXT PRIMARY KEY, digest TEXT NOT NULL)';

/** SHA-256 (hex) of a projection's DDL statements, in order. */
export function schemaDigest(schema: readonly string[]): string {
  return createHash('sha256').update(schema.join('\n;\n')).digest('hex');
}

/** Stored digest per projection name; none when the table does not exist yet. */
export async function readSchemaDigests(db: ReadModelQueries): Promise<Map<string, string>> {
  try {
    const rows = await db.query<{ name: string; digest: string }>('SELECT name, digest FROM projection_schemas');
    return new Map(rows.map((row) => [row.name, row.digest]));
  } catch {
    return new Map();
  }
}

/** Records the digest a projection's tables now have. */
export async function writeSchemaDigest(tx: ReadModelTx, name: string, digest: string): Promise<void> {
  await tx.execute('INSERT INTO projection_schemas (name, digest) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET digest = ?', [
    name,
    digest,
    digest,
  ]);
}
