/**
 * Recorded histories (test/fixtures/histories/*.json): real event streams and what today's code made of
 * them when they were recorded. `replayHistory` folds a stream with the domain (after upcasting) and
 * projects it into a fresh SQLite read model, and summarises both in a form that only changes when the
 * meaning of the events changes (ids, phases, generations, conditions' verdicts, hard-delete causes).
 */
import Database from 'better-sqlite3';
import { type KindRegistry, fold, isResourceEvent, phaseOf, upcastResourceEvent, type KindDescriptor } from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import { ResourceViewProjection, SqliteReadModelStore } from '@decom/projections';

export interface HistoryFixture {
  readonly description: string;
  /** How the stream was obtained (flow, Decom commit, schema version). */
  readonly recorded: { readonly with: string; readonly at: string; readonly schema_version: number };
  readonly kinds: readonly KindDescriptor[];
  readonly stream: string;
  readonly events: readonly RecordedEvent[];
  readonly expected: HistorySummary;
}

export interface HistorySummary {
  /**
   * After each event: `#revision Type | <id prefix> g<generation> <phase> <Reconciled verdict> ...` for every
   * projected resource, then `tree=<n>` (resources the fold still holds). Catches a change anywhere in the
   * history, not only in its final state.
   */
  readonly trace: readonly string[];
  /** The folded tree: resources still recorded, sorted by id. */
  readonly tree: ReadonlyArray<{
    id: string;
    kind: string;
    name: string;
    generation: number;
    phase: string;
    adapters: Record<string, number>;
  }>;
  /** Projected rows, each table sorted by id. */
  readonly rows: {
    readonly resources: ReadonlyArray<{ id: string; generation: number; deleted: boolean; conditions: string[] }>;
    readonly adapter_statuses: ReadonlyArray<{ resource_id: string; adapter: string; observed_generation: number }>;
    readonly resource_index: ReadonlyArray<{ id: string; kind: string; hard_delete_cause: string | null }>;
    readonly finalizing: ReadonlyArray<{ id: string; waiting_on: string[]; children_remaining: number; reconciled_reason: string }>;
  };
}

/** Replays `events` through today's `fold` and `ResourceViewProjection` and summarises the outcome. */
export async function replayHistory(events: readonly RecordedEvent[], kinds: KindRegistry): Promise<HistorySummary> {
  const domainEvents = events.filter((event) => isResourceEvent(event)).map(upcastResourceEvent);
  const tree = [...fold(domainEvents).resources.values()]
    .map((resource) => ({
      id: resource.id,
      kind: resource.kind,
      name: resource.name,
      generation: resource.generation,
      phase: phaseOf(resource),
      adapters: Object.fromEntries(Object.values(resource.adapter_statuses).map((status) => [status.adapter, status.observed_generation])),
    }))
    .sort(byId);

  const database = new Database(':memory:');
  try {
    const readModels = new SqliteReadModelStore(database);
    const projection = new ResourceViewProjection(kinds);
    await readModels.transaction(async (tx) => {
      for (const statement of projection.schema) await tx.execute(statement);
    });
    const trace: string[] = [];
    for (const [index, event] of events.entries()) {
      await readModels.transaction((tx) => projection.apply(event, tx));
      const rows = await readModels.query<{ id: string; generation: number; deleted_time: string | null; conditions: string }>(
        'SELECT id, generation, deleted_time, conditions FROM resources ORDER BY id',
      );
      const folded = fold(domainEvents.slice(0, domainEventCount(events, index))).resources.size;
      const described = rows.map((row) => {
        const reconciled = (JSON.parse(row.conditions) as Array<{ type: string; status: string; reason?: string }>).find(
          (c) => c.type === 'Reconciled',
        );
        return `${row.id.slice(-6)} g${Number(row.generation)} ${row.deleted_time ? 'Finalizing' : 'Active'} Reconciled=${reconciled?.status}/${reconciled?.reason}`;
      });
      trace.push(`#${event.revision} ${event.type} | ${described.join(' ; ')} | tree=${folded}`);
    }
    const query = <R>(sql: string) => readModels.query<R>(sql);
    const resources = await query<{ id: string; generation: number; deleted_time: string | null; conditions: string }>(
      'SELECT * FROM resources ORDER BY id',
    );
    const statuses = await query<{ resource_id: string; adapter: string; observed_generation: number }>(
      'SELECT resource_id, adapter, observed_generation FROM adapter_statuses ORDER BY resource_id, adapter',
    );
    const index = await query<{ id: string; kind: string; hard_delete_cause: string | null }>(
      'SELECT id, kind, hard_delete_cause FROM resource_index ORDER BY id',
    );
    const finalizing = await query<{ id: string; waiting_on: string; children_remaining: number; reconciled_reason: string }>(
      'SELECT id, waiting_on, children_remaining, reconciled_reason FROM finalizing ORDER BY id',
    );
    return {
      trace,
      tree,
      rows: {
        resources: resources.map((row) => ({
          id: row.id,
          generation: Number(row.generation),
          deleted: row.deleted_time !== null,
          // The verdicts, not their times: `type=status/reason`.
          conditions: (JSON.parse(row.conditions) as Array<{ type: string; status: string; reason?: string }>).map(
            (c) => `${c.type}=${c.status}/${c.reason ?? ''}`,
          ),
        })),
        adapter_statuses: statuses.map((row) => ({ ...row, observed_generation: Number(row.observed_generation) })),
        resource_index: index,
        finalizing: finalizing.map((row) => ({
          id: row.id,
          waiting_on: JSON.parse(row.waiting_on) as string[],
          children_remaining: Number(row.children_remaining),
          reconciled_reason: row.reconciled_reason,
        })),
      },
    };
  } finally {
    database.close();
  }
}

/** How many resource events are among `events[0..index]`. */
function domainEventCount(events: readonly RecordedEvent[], index: number): number {
  return events.slice(0, index + 1).filter((event) => isResourceEvent(event)).length;
}

function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
