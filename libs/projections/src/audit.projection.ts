/**
 * The fleet-wide audit trail of break-glass operations (seed 001 "Audit Logging Approach"):
 * one `audit_log` row per `ForceDeleted` / `ForceOrphaned` event, with caller, reason, the removed
 * subresources and the adapter statuses recorded at that moment. Rows are never updated or deleted, so
 * the trail outlives the resources (hard delete only removes `resources` rows).
 */
import type { RecordedEvent } from '@decom/event-store';
import type { Projection, ReadModelQueries, ReadModelTx } from './runner/index.js';

export const AUDIT_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS audit_log (
    position INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT,
    caller TEXT NOT NULL,
    reason TEXT NOT NULL,
    time TEXT NOT NULL,
    subresources TEXT NOT NULL,
    adapter_statuses TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS audit_log_time ON audit_log (time)`,
];

export const AUDIT_TYPES = ['ForceDeleted', 'ForceOrphaned'] as const;
export type AuditType = (typeof AUDIT_TYPES)[number];

/** One audit entry as the API answers it. `time` is RFC 3339; `position` is the event's `$all` position. */
export interface AuditEntry {
  readonly position: number;
  readonly type: AuditType;
  readonly id: string;
  readonly kind: string;
  readonly name?: string;
  readonly caller: string;
  readonly reason: string;
  readonly time: string;
  readonly subresources: readonly { id: string; kind: string; name: string }[];
  /** Resource id → adapter statuses at that moment (ForceDeleted only; `{}` for ForceOrphaned). */
  readonly adapter_statuses: Readonly<Record<string, readonly unknown[]>>;
}

export class AuditProjection implements Projection {
  readonly name = 'audit';
  readonly schema = AUDIT_SCHEMA;

  async apply(event: RecordedEvent, tx: ReadModelTx): Promise<void> {
    if (event.type === 'ForceDeleted') {
      const d = event.data as {
        id: string;
        kind: string;
        name: string;
        caller: string;
        reason: string;
        force_deleted_time: string;
        subresources: unknown[];
        adapter_statuses: object;
      };
      await insert(
        tx,
        event.position,
        'ForceDeleted',
        d.id,
        d.kind,
        d.name,
        d.caller,
        d.reason,
        d.force_deleted_time,
        d.subresources ?? [],
        d.adapter_statuses ?? {},
      );
    } else if (event.type === 'ForceOrphaned') {
      const d = event.data as { id: string; kind: string; caller: string; reason: string; force_orphaned_time: string };
      await insert(tx, event.position, 'ForceOrphaned', d.id, d.kind, null, d.caller, d.reason, d.force_orphaned_time, [], {});
    }
  }
}

async function insert(
  tx: ReadModelTx,
  ...values: [number, AuditType, string, string, string | null, string, string, string, unknown[], object]
): Promise<void> {
  const [position, type, id, kind, name, caller, reason, time, subresources, statuses] = values;
  await tx.execute(
    `INSERT INTO audit_log (position, type, resource_id, kind, name, caller, reason, time, subresources, adapter_statuses)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (position) DO NOTHING`,
    [position, type, id, kind, name, caller, reason, time, JSON.stringify(subresources), JSON.stringify(statuses)],
  );
}

interface AuditRow {
  readonly position: number | string;
  readonly type: AuditType;
  readonly resource_id: string;
  readonly kind: string;
  readonly name: string | null;
  readonly caller: string;
  readonly reason: string;
  readonly time: string;
  readonly subresources: string;
  readonly adapter_statuses: string;
}

/** Newest first; `types` restricts to some audit types, `limit` caps the rows (1..1000). */
export async function auditEntries(db: ReadModelQueries, options: { types?: readonly AuditType[]; limit: number }): Promise<AuditEntry[]> {
  const types = options.types?.length ? options.types : AUDIT_TYPES;
  const rows = await db.query<AuditRow>(
    `SELECT * FROM audit_log WHERE type IN (${types.map(() => '?').join(', ')}) ORDER BY position DESC LIMIT ?`,
    [...types, options.limit],
  );
  return rows.map((r) => ({
    position: Number(r.position),
    type: r.type,
    id: r.resource_id,
    kind: r.kind,
    ...(r.name !== null ? { name: r.name } : {}),
    caller: r.caller,
    reason: r.reason,
    time: r.time,
    subresources: JSON.parse(r.subresources),
    adapter_statuses: JSON.parse(r.adapter_statuses),
  }));
}
