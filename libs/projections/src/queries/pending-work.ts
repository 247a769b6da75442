/** Resources with work pending (the pending-deletion gauges), from the `resources` read model. */
import type { ResourceRow } from '../resource-view.schema.js';
import type { ReadModelQueries } from '../runner/index.js';
import { yieldToEventLoop } from '../yield-to-event-loop.js';

/** A resource whose `Reconciled` is False, or that is deleting: work may be pending for its adapters or its hard delete. */
export interface PendingWork {
  readonly id: string;
  readonly kind: string;
  readonly generation: number;
  readonly deleted_time?: string;
  /** RFC 3339 `last_updated_time` of its Reconciled condition. */
  readonly reconciled_updated_time: string;
}

/** Rows read per batch by `pendingWork`; the event loop runs other work between batches. */
const PENDING_WORK_BATCH = 500;

type PendingRow = Pick<ResourceRow, 'id' | 'kind' | 'generation' | 'deleted_time' | 'conditions'>;

/**
 * Every stored resource with `Reconciled=False` or being deleted (the pending-deletion gauges). Read by id
 * in batches, yielding to the event loop between them (`setImmediate`): a scrape over many resources never
 * stalls requests for long.
 */
export async function pendingWork(db: ReadModelQueries): Promise<PendingWork[]> {
  const out: PendingWork[] = [];
  for (let after = ''; ;) {
    const rows = await db.query<PendingRow>(
      `SELECT id, kind, generation, deleted_time, conditions FROM resources WHERE id > ? ORDER BY id LIMIT ?`,
      [after, PENDING_WORK_BATCH],
    );
    out.push(...pendingOf(rows));
    if (rows.length < PENDING_WORK_BATCH) return out;
    after = rows[rows.length - 1]!.id;
    await yieldToEventLoop();
  }
}

function pendingOf(rows: readonly PendingRow[]): PendingWork[] {
  return rows.flatMap((row) => {
    const reconciled = (JSON.parse(row.conditions) as { type: string; status: string; last_updated_time: string }[]).find(
      (c) => c.type === 'Reconciled',
    );
    // Deleting resources stay pending until hard-deleted, even when Reconciled (a pause may hold the gate).
    if (reconciled?.status === 'True' && !row.deleted_time) return [];
    return [
      {
        id: row.id,
        kind: row.kind,
        generation: Number(row.generation),
        ...(row.deleted_time ? { deleted_time: row.deleted_time } : {}),
        reconciled_updated_time: reconciled?.last_updated_time ?? '',
      },
    ];
  });
}
