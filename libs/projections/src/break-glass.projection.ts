/**
 * The break-glass approval queue (two-person rule, libs/domain break-glass.ts): one `break_glass_requests`
 * row per request, with its stream (where approve/reject append), target, requested generation, who asked and
 * why, `expires_at`, and the decision once recorded. The status answered is the domain's `breakGlassStatus`
 * of the stored row at the caller's time (a Pending row past `expires_at` is Expired).
 */
import {
  breakGlassStatus,
  evolveBreakGlass,
  type BreakGlassEvent,
  type BreakGlassRequest,
  type BreakGlassStatus,
  type RequestedLeak,
} from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import type { Projection, ReadModelQueries, ReadModelTx } from './runner/index.js';

export const BREAK_GLASS_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS break_glass_requests (
    request_id TEXT PRIMARY KEY,
    stream TEXT NOT NULL,
    action TEXT NOT NULL,
    kind TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    generation INTEGER NOT NULL,
    reason TEXT NOT NULL,
    requested_by TEXT NOT NULL,
    requested_time TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    adapter TEXT,
    objects TEXT,
    decided_status TEXT,
    decision TEXT
  )`,
  `CREATE INDEX IF NOT EXISTS break_glass_requests_time ON break_glass_requests (requested_time)`,
];

/** One request as the API answers it (`status` at the time asked; `decision` once approved, rejected or voided). */
export interface BreakGlassRequestJson {
  readonly request_id: string;
  readonly action: BreakGlassRequest['action'];
  readonly target: { readonly kind: string; readonly id: string };
  readonly generation: number;
  readonly reason: string;
  readonly requested_by: string;
  readonly requested_time: string;
  readonly expires_at: string;
  readonly status: BreakGlassStatus;
  /** `abandon_adapter`: the adapter. */
  readonly adapter?: string;
  readonly objects?: readonly RequestedLeak[];
  readonly decision?: BreakGlassRequest['decision'];
  /** The stream holding the request (where an approval or rejection is appended). */
  readonly stream: string;
}

const TYPES: ReadonlySet<string> = new Set(['BreakGlassRequested', 'BreakGlassApproved', 'BreakGlassRejected', 'BreakGlassVoided']);

export class BreakGlassProjection implements Projection {
  readonly name = 'break_glass';
  readonly schema = BREAK_GLASS_SCHEMA;

  async apply(recorded: RecordedEvent, tx: ReadModelTx): Promise<void> {
    if (!TYPES.has(recorded.type)) return;
    const event = { type: recorded.type, data: recorded.data } as BreakGlassEvent;
    if (event.type === 'BreakGlassRequested') {
      const d = event.data;
      await tx.execute(
        `INSERT INTO break_glass_requests (request_id, stream, action, kind, resource_id, generation, reason, requested_by, requested_time, expires_at, adapter, objects)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (request_id) DO NOTHING`,
        [
          d.request_id,
          recorded.stream,
          d.action,
          d.kind,
          d.id,
          d.generation,
          d.reason,
          d.requested_by,
          d.requested_time,
          d.expires_at,
          d.adapter ?? null,
          d.objects ? JSON.stringify(d.objects) : null,
        ],
      );
      return;
    }
    // The decision as the domain folds it (break-glass-request.ts): its status as a column (filters), the rest as JSON.
    const rows = await tx.query<BreakGlassRow>(`SELECT * FROM break_glass_requests WHERE request_id = ?`, [event.data.request_id]);
    if (rows.length === 0) return;
    const decided = evolveBreakGlass(new Map([[event.data.request_id, toRequest(rows[0]!)]]), event).get(event.data.request_id)!;
    await tx.execute(`UPDATE break_glass_requests SET decided_status = ?, decision = ? WHERE request_id = ?`, [
      decided.decision?.status ?? null,
      JSON.stringify(decided.decision ?? null),
      event.data.request_id,
    ]);
  }
}

interface BreakGlassRow {
  readonly request_id: string;
  readonly stream: string;
  readonly action: BreakGlassRequest['action'];
  readonly kind: string;
  readonly resource_id: string;
  readonly generation: number | string;
  readonly reason: string;
  readonly requested_by: string;
  readonly requested_time: string;
  readonly expires_at: string;
  readonly adapter: string | null;
  readonly objects: string | null;
  readonly decided_status: string | null;
  readonly decision: string | null;
}

function toRequest(row: BreakGlassRow): BreakGlassRequest {
  const decision = row.decision ? (JSON.parse(row.decision) as BreakGlassRequest['decision'] | null) : null;
  return {
    request_id: row.request_id,
    action: row.action,
    id: row.resource_id,
    kind: row.kind,
    generation: Number(row.generation),
    reason: row.reason,
    requested_by: row.requested_by,
    requested_time: row.requested_time,
    expires_at: row.expires_at,
    ...(row.adapter && { adapter: row.adapter }),
    ...(row.objects && { objects: JSON.parse(row.objects) as RequestedLeak[] }),
    ...(decision && { decision }),
  };
}

function toJson(row: BreakGlassRow, now: Date): BreakGlassRequestJson {
  const request = toRequest(row);
  return {
    request_id: request.request_id,
    action: request.action,
    target: { kind: request.kind, id: request.id },
    generation: request.generation,
    reason: request.reason,
    requested_by: request.requested_by,
    requested_time: request.requested_time,
    expires_at: request.expires_at,
    status: breakGlassStatus(request, now),
    ...(request.adapter !== undefined && { adapter: request.adapter }),
    ...(request.objects && { objects: request.objects }),
    ...(request.decision && { decision: request.decision }),
    stream: row.stream,
  };
}

/**
 * Newest first, at most `limit` (1..1000). `status` filters on the status at `now`: `Pending`/`Expired` split
 * the undecided rows at their stored `expires_at` (RFC 3339 UTC with milliseconds, so text order is time order).
 */
export async function breakGlassRequests(
  db: ReadModelQueries,
  options: { status?: BreakGlassStatus; limit: number; now: Date },
): Promise<BreakGlassRequestJson[]> {
  const now = options.now.toISOString();
  const where =
    options.status === undefined
      ? { sql: '', params: [] as unknown[] }
      : options.status === 'Pending'
        ? { sql: 'WHERE decided_status IS NULL AND expires_at > ?', params: [now] }
        : options.status === 'Expired'
          ? { sql: 'WHERE decided_status IS NULL AND expires_at <= ?', params: [now] }
          : { sql: 'WHERE decided_status = ?', params: [options.status] };
  const rows = await db.query<BreakGlassRow>(
    `SELECT * FROM break_glass_requests ${where.sql} ORDER BY requested_time DESC, request_id DESC LIMIT ?`,
    [...where.params, options.limit],
  );
  return rows.map((row) => toJson(row, options.now));
}

/** One request, or undefined when none has this id. */
export async function breakGlassRequest(db: ReadModelQueries, requestId: string, now: Date): Promise<BreakGlassRequestJson | undefined> {
  const rows = await db.query<BreakGlassRow>(`SELECT * FROM break_glass_requests WHERE request_id = ?`, [requestId]);
  return rows[0] && toJson(rows[0], now);
}
