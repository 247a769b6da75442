/**
 * The stuck-deletion dashboard (`GET /finalizing`, the `finalizing` GraphQL query, the pending-deletion
 * metrics) from the `finalizing` read model, each deletion with its structured blockers.
 */
import {
  ConditionType,
  finalizingBlockers,
  type BlockerType,
  type DeadLetter,
  type FinalizingBlocker,
  type IdleAdapter,
  type KindRegistry,
  type ResourceCondition,
  type Tenancy,
} from '@decom/domain';
import type { DeletionInfo, FinalizingRow, ResourceRow } from '../resource-view.schema.js';
import type { ReadModelQueries } from '../runner/index.js';
import { RESOURCE_SEARCH, searchCondition } from '../search/index.js';
import { tenantCondition } from './tenant-condition.js';

/** A resource in the stuck-deletion dashboard (its row's identity and deletion fields as stored). Ages in seconds. */
export interface FinalizingJson extends Pick<
  FinalizingRow,
  'id' | 'kind' | 'name' | 'href' | 'generation' | 'deleted_time' | 'deleted_by'
> {
  readonly finalizing_seconds: number;
  readonly waiting_on_adapters: readonly string[];
  readonly unhealthy_adapters: readonly { adapter: string; reason: string; message: string }[];
  readonly children_remaining: number;
  readonly reconciled: { readonly reason: string; readonly message: string };
  /** The resource's `DeletionBlocked` condition while True (DependentsExist, InUse, DependencyCycle). */
  readonly deletion_blocked?: { readonly reason: string; readonly message: string };
  /** Why it is still pending, root causes first (the stored `deletionStatus` and `finalizingBlockers` in the domain). Empty = hard delete due. */
  readonly blockers: readonly FinalizingBlocker[];
  /** The kind's `deletion_timeout_seconds`, when it has one. */
  readonly deletion_timeout_seconds?: number;
}

export interface FinalizingFilter {
  /** Only deletions with at least one blocker of these types. */
  readonly blockerTypes?: readonly BlockerType[];
  /** The job queue's dead-letter set; a job whose id names the resource becomes a `DeadLettered` blocker. */
  readonly deadLetters?: readonly DeadLetter[];
  /** Set while the job queue cannot be read: every deletion gets a `JobQueueUnavailable` blocker. */
  readonly jobQueueUnavailable?: { readonly reason: string; readonly since: string };
  /** Adapters whose job queue no process consumes: their `AdapterNotFinalized` blockers get `no_worker`. */
  readonly idleAdapters?: readonly IdleAdapter[];
  /**
   * TSL search over the resources' fields (HyperFleet's search syntax, RESOURCE_SEARCH).
   * @throws SearchSyntaxError, SearchFieldError
   */
  readonly search?: string;
  /** Only resources whose tenancy contains this one; null/absent = unscoped. */
  readonly tenant?: Tenancy | null;
}

export class FinalizingQueries {
  /** @param kinds the kinds' `deletion_timeout_seconds` (a `TimedOut` blocker once passed); none without. */
  constructor(
    private readonly db: ReadModelQueries,
    private readonly kinds?: KindRegistry,
  ) {}

  /**
   * Resources pending deletion for at least `olderThanSeconds`, oldest first, each with its structured
   * `blockers` (evaluated at `now`: a timeout shows once it passed).
   * @throws SearchSyntaxError, SearchFieldError (`filter.search`)
   */
  async finalizing(now: Date, olderThanSeconds = 0, kind?: string, filter: FinalizingFilter = {}): Promise<FinalizingJson[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (kind) {
      where.push('kind = ?');
      params.push(kind);
    }
    // TSL over the resource's own fields (the same RESOURCE_SEARCH as the lists), applied to its resources row.
    const search = searchCondition(filter.search, RESOURCE_SEARCH, this.db.dialect ?? 'sqlite');
    if (search) {
      where.push(`id IN (SELECT id FROM resources WHERE ${search.sql})`);
      params.push(...search.params);
    }
    const scoped = tenantCondition(filter.tenant, this.db.dialect);
    if (scoped) {
      where.push(`id IN (SELECT id FROM resources WHERE ${scoped.sql})`);
      params.push(...scoped.params);
    }
    const rows = await this.db.query<FinalizingRow>(
      `SELECT * FROM finalizing ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY deleted_time ASC, id ASC`,
      params,
    );
    const out: FinalizingJson[] = [];
    for (const row of rows) {
      const finalizing_seconds = Math.max(0, Math.floor((now.getTime() - Date.parse(row.deleted_time)) / 1000));
      if (finalizing_seconds < olderThanSeconds) continue;
      const timeout = this.kinds?.find(row.kind)?.deletion_timeout_seconds;
      const resource = (await this.db.query<ResourceRow>(`SELECT * FROM resources WHERE id = ?`, [row.id]))[0];
      const blockers = resource ? blockersOf(row, resource, now, timeout, filter) : [];
      if (filter.blockerTypes?.length && !blockers.some((b) => filter.blockerTypes!.includes(b.type))) continue;
      out.push({
        id: row.id,
        kind: row.kind,
        name: row.name,
        href: row.href,
        generation: Number(row.generation),
        deleted_time: row.deleted_time,
        deleted_by: row.deleted_by,
        finalizing_seconds,
        waiting_on_adapters: JSON.parse(row.waiting_on) as string[],
        unhealthy_adapters: JSON.parse(row.unhealthy) as FinalizingJson['unhealthy_adapters'],
        children_remaining: Number(row.children_remaining),
        reconciled: { reason: row.reconciled_reason, message: row.reconciled_message },
        ...deletionBlocked(resource?.conditions ?? null),
        blockers,
        ...(timeout !== undefined ? { deletion_timeout_seconds: timeout } : {}),
      });
    }
    return out;
  }
}

/**
 * The stored deletion status's blockers (the frozen adapters, InUse referrers with their own blockers,
 * cycle members and edges) plus what depends on this read: `now` (TimedOut) and the job queue (DeadLettered,
 * JobQueueUnavailable, the `no_worker` mark of an adapter whose queue nothing consumes).
 */
function blockersOf(
  row: FinalizingRow,
  resource: ResourceRow,
  now: Date,
  timeout: number | undefined,
  { deadLetters = [], jobQueueUnavailable, idleAdapters }: Pick<FinalizingFilter, 'deadLetters' | 'jobQueueUnavailable' | 'idleAdapters'>,
): FinalizingBlocker[] {
  const info = resource.deletion_info ? (JSON.parse(resource.deletion_info) as Partial<DeletionInfo>) : {};
  return finalizingBlockers({
    deleted_time: row.deleted_time,
    now: now.toISOString(),
    status_blockers: info.deletion_status?.blockers ?? [],
    conditions: JSON.parse(resource.conditions) as ResourceCondition[],
    ...(timeout !== undefined ? { deletion_timeout_seconds: timeout } : {}),
    // Job ids embed `<kind>-<id>`, so a resource's dead letters are found by its id.
    dead_letters: deadLetters.filter((d) => d.id.includes(row.id)),
    ...(jobQueueUnavailable && { job_queue_unavailable: jobQueueUnavailable }),
    ...(idleAdapters?.length ? { idle_adapters: idleAdapters } : {}),
  });
}

/** `{ deletion_blocked }` from a resource's stored conditions while `DeletionBlocked=True`. */
function deletionBlocked(conditions: string | null): { deletion_blocked?: { reason: string; message: string } } {
  const blocked = (
    conditions ? (JSON.parse(conditions) as { type: string; status: string; reason?: string; message?: string }[]) : []
  ).find((c) => c.type === ConditionType.DeletionBlocked && c.status === 'True');
  return blocked ? { deletion_blocked: { reason: blocked.reason ?? '', message: blocked.message ?? '' } } : {};
}
