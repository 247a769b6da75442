import type { RecordedEvent } from '@decom/event-store';
import type { ReadModelTx } from './read-model-store.port.js';

/**
 * A read model fed from `$all` by the `ProjectionRunner`.
 * - `name`: unique within a runner; keys the projection's checkpoint row.
 * - `schema`: idempotent DDL, one statement per entry, valid in SQLite and PostgreSQL
 *   (`CREATE TABLE IF NOT EXISTS ...`, `CREATE INDEX IF NOT EXISTS ...`). The tables its `CREATE TABLE`
 *   statements name belong to the projection: `rebuild()` drops them.
 * - `apply`: the row changes for one event, through `tx` only (the runner commits them with the checkpoint).
 *   It must ignore event types it does not know; throwing stops the runner.
 * - `applyBatch` (optional): the row changes for several events (ascending positions) at once, leaving the
 *   rows `apply` of each in turn would. The runner calls it when present, once per transaction, so a
 *   projection can read what the batch touches once and write its rows back in a few statements.
 */
export interface Projection {
  readonly name: string;
  readonly schema: readonly string[];
  apply(event: RecordedEvent, tx: ReadModelTx): Promise<void>;
  applyBatch?(events: readonly RecordedEvent[], tx: ReadModelTx): Promise<void>;
}
