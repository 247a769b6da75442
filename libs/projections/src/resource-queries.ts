/**
 * Read side: every GET reads projections only.
 */
import {
  ConditionType,
  Reason,
  finalizingBlockers,
  type AdapterStatus,
  type BlockerType,
  type DeadLetter,
  type IdleAdapter,
  type FinalizingBlocker,
  type KindRegistry,
  type PauseMark,
  type IndexedReference,
  type ResourceCondition,
  type Tenancy,
  tenancyContains,
  tenancyKey,
} from '@decom/domain';
import { presentResource, type ResourceJson } from './resource-presenter.js';
import { toAdapterStatus } from './adapter-status-row.js';
import type {
  AdapterStatusRow,
  DeletionInfo,
  FinalizingRow,
  ResourceIndexRow,
  ResourceRow,
} from './resource-view.schema.js';
import type { ReadModelQueries } from './runner/index.js';
import { RESOURCE_SEARCH, searchCondition, STATUS_SEARCH } from './search/index.js';
import { CountCache } from './count-cache.js';
import { PresentedJsonCache } from './presented-json-cache.js';
import { yieldToEventLoop } from './yield-to-event-loop.js';

export interface Page<T> {
  readonly page: number;
  readonly size: number;
  readonly total: number;
  readonly items: readonly T[];
}

/** Where a keyset walk over resources stands: the last item seen (ResourceJson has both fields). */
export interface KeysetCursor {
  readonly created_time: string;
  readonly id: string;
}

export interface ListOptions {
  /** Restrict to one kind; omitted for the kind-agnostic `GET /resources`. */
  readonly kind?: string;
  /** Restrict to children of this owner. */
  readonly ownerId?: string;
  /** 1-based. */
  readonly page: number;
  /** Items per page (1..100). */
  readonly size: number;
  /** Sort: `created_time desc` (default) etc.; fields limited to ORDERABLE_FIELDS. */
  readonly order?: readonly { field: string; direction: 'asc' | 'desc' }[];
  /** Only resources pending deletion (`true`) or only active ones (`false`). */
  readonly deleting?: boolean;
  /**
   * TSL search (HyperFleet's search syntax; fields: RESOURCE_SEARCH).
   * @throws SearchSyntaxError, SearchFieldError
   */
  readonly search?: string;
  /** Only resources whose `references` hold `{ type → [.. targetId ..] }` (HyperFleet `ref_type` + `ref_target_id`). */
  readonly reference?: { readonly type: string; readonly targetId: string };
  /** Only resources whose tenancy contains this one (as HyperFleet scopes it); null/absent = unscoped. */
  readonly tenant?: Tenancy | null;
}

/** `JSON.stringify` of a `Page` whose items are already JSON text. */
function pageJson(page: number, total: number, texts: readonly string[]): string {
  return `{"page":${JSON.stringify(page)},"size":${texts.length},"total":${total},"items":[${texts.join(',')}]}`;
}

/** Distinct list queries whose page ids `listJson` keeps (for one `writeVersion`). */
const MAX_KEPT_PAGES = 256;

export const ORDERABLE_FIELDS = ['created_time', 'updated_time', 'name', 'generation', 'deleted_time', 'id'] as const;

/** A resource in the stuck-deletion dashboard. Ages in seconds. */
export interface FinalizingJson {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly href: string;
  readonly generation: number;
  readonly deleted_time: string;
  readonly deleted_by: string;
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

export class ResourceQueries {
  /** List totals, kept until the next read-model write (COUNT(*) is O(matches) per request otherwise). */
  private readonly totals: CountCache;
  /** Presented JSON per resource (getJson, listJson). */
  private readonly texts = new PresentedJsonCache();
  /** Page ids per list query, kept for one `writeVersion` (listJson); the oldest is dropped first. */
  private readonly pages = new Map<string, { readonly version: number; readonly ids: readonly string[] }>();

  /**
   * @param kinds when given, resources pending deletion past their kind's `deletion_timeout_seconds` show
   *   `DeletionTimedOut=True` (evaluated at read time with `now`).
   */
  constructor(
    private readonly db: ReadModelQueries,
    private readonly kinds?: KindRegistry,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.totals = new CountCache(db);
  }

  /**
   * What the deletion budget of `kind` has used for the tenancy of resource `id` (deletion-budget.ts): top-level
   * deletions still Finalizing, and those requested since `since` (RFC 3339) with the oldest of them. Counted from
   * `deletion_requests` (every DELETE's target) joined with the stored resources.
   */
  async deletionBudgetUse(kind: string, id: string, since: string): Promise<{ in_flight: number; in_last_hour: number; oldest_in_last_hour?: string; tenant?: string }> {
    const tenant = (await this.db.query<{ tenant: string | null }>(`SELECT tenant FROM resources WHERE id = ?`, [id]))[0]?.tenant ?? '';
    const inFlight = await this.db.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM deletion_requests d JOIN resources r ON r.id = d.id WHERE d.kind = ? AND d.tenant = ? AND r.deleted_time IS NOT NULL`,
      [kind, tenant],
    );
    const recent = await this.db.query<{ n: number | string; oldest: string | null }>(
      `SELECT COUNT(*) AS n, MIN(deleted_time) AS oldest FROM deletion_requests WHERE kind = ? AND tenant = ? AND deleted_time > ?`,
      [kind, tenant, since],
    );
    const oldest = recent[0]?.oldest;
    return {
      in_flight: Number(inFlight[0]?.n ?? 0),
      in_last_hour: Number(recent[0]?.n ?? 0),
      ...(oldest ? { oldest_in_last_hour: oldest } : {}),
      ...(tenant ? { tenant } : {}),
    };
  }

  async get(id: string): Promise<ResourceJson | undefined> {
    const row = (await this.db.query<ResourceRow>(`SELECT * FROM resources WHERE id = ?`, [id]))[0];
    return row ? this.present(row) : undefined;
  }

  /**
   * `get(id)` as JSON text (exactly `JSON.stringify(await get(id))`) with the resource's kind, from the
   * presented-JSON cache when the row did not change; undefined when there is no such resource.
   */
  async getJson(id: string): Promise<{ readonly kind: string; readonly text: string } | undefined> {
    const version = this.db.writeVersion?.();
    const kept = this.texts.atVersion(id, version);
    if (kept) return kept;
    const row = (await this.db.query<ResourceRow>(`SELECT * FROM resources WHERE id = ?`, [id]))[0];
    return row ? { kind: row.kind, text: this.textOf(row, version) } : undefined;
  }

  /**
   * `getJson(id)` without a query or a promise, when its answer is kept and nothing was written since
   * (the hot GET answers from here); undefined otherwise (then use `getJson`, which also
   * answers for resources that do not exist).
   */
  keptJson(id: string): { readonly kind: string; readonly text: string } | undefined {
    return this.texts.atVersion(id, this.db.writeVersion?.());
  }

  /** The JSON text of `present(row)`, through the cache (not kept while it depends on the clock). */
  private textOf(row: ResourceRow, version: number | undefined): string {
    return this.texts.textOf(row, version, (r) => this.present(r), !this.dependsOnClock(row));
  }

  /** A deletion of a kind with `deletion_timeout_seconds` shows DeletionTimedOut once the time passed. */
  private dependsOnClock(row: ResourceRow): boolean {
    return row.deleted_time !== null && this.kinds?.find(row.kind)?.deletion_timeout_seconds !== undefined;
  }

  private present(row: ResourceRow): ResourceJson {
    const json = presentResource(row);
    const timeout = this.kinds?.find(row.kind)?.deletion_timeout_seconds;
    if (!row.deleted_time || timeout === undefined) return json;
    const deadline = Date.parse(row.deleted_time) + timeout * 1000;
    if (this.now().getTime() < deadline) return json;
    const reconciled = json.status.conditions.find((c) => c.type === ConditionType.Reconciled);
    const at = new Date(deadline).toISOString();
    return {
      ...json,
      status: {
        conditions: [
          ...json.status.conditions,
          {
            type: ConditionType.DeletionTimedOut,
            status: 'True',
            reason: Reason.DeletionTimeoutExceeded,
            message: `Finalizing for more than ${timeout}s; still waiting: ${reconciled?.message ?? ''}`,
            observed_generation: json.generation,
            created_time: at,
            last_updated_time: at,
            last_transition_time: at,
          },
        ],
      },
    };
  }

  async list(options: ListOptions): Promise<Page<ResourceJson>> {
    const { filter, params, order } = this.listSql(options);
    const total = await this.totals.count(`SELECT COUNT(*) AS n FROM resources WHERE ${filter}`, params);
    const rows = await this.pageRows(filter, params, order, options);
    return { page: options.page, size: rows.length, total, items: rows.map((row) => this.present(row)) };
  }

  /**
   * `list(options)` as JSON text (exactly `JSON.stringify(await list(options))`), items from the
   * presented-JSON cache. Where the store has a `writeVersion`, a repeated page with no
   * read-model write since reads only its total's cache and the kept items.
   * @throws SearchSyntaxError, SearchFieldError (as `list`)
   */
  async listJson(options: ListOptions): Promise<string> {
    const { filter, params, order } = this.listSql(options);
    const version = this.db.writeVersion?.();
    const total = await this.totals.count(`SELECT COUNT(*) AS n FROM resources WHERE ${filter}`, params);
    const key = version === undefined ? undefined : JSON.stringify([filter, params, order, options.page, options.size]);
    let texts = key === undefined ? undefined : this.keptTexts(key, version);
    if (!texts) {
      const rows = await this.pageRows(filter, params, order, options);
      texts = rows.map((row) => this.textOf(row, version));
      if (key !== undefined && version !== undefined) {
        this.pages.delete(key);
        this.pages.set(key, { version, ids: rows.map((row) => row.id) });
        if (this.pages.size > MAX_KEPT_PAGES) this.pages.delete(this.pages.keys().next().value!);
      }
    }
    return pageJson(options.page, total, texts);
  }

  /**
   * `listJson(options)` without a query or a promise, when its total, page and items are all kept and nothing
   * was written since (the hot list answers from here); undefined otherwise (then use `listJson`).
   * @throws SearchSyntaxError, SearchFieldError (as `list`)
   */
  keptListJson(options: ListOptions): string | undefined {
    const version = this.db.writeVersion?.();
    if (version === undefined) return undefined;
    const { filter, params, order } = this.listSql(options);
    const total = this.totals.kept(`SELECT COUNT(*) AS n FROM resources WHERE ${filter}`, params);
    if (total === undefined) return undefined;
    const texts = this.keptTexts(JSON.stringify([filter, params, order, options.page, options.size]), version);
    return texts && pageJson(options.page, total, texts);
  }

  /** The kept items' texts of a page (key: its query) when the page and each item are kept at `version`. */
  private keptTexts(key: string, version: number | undefined): string[] | undefined {
    const kept = this.pages.get(key);
    if (!kept || kept.version !== version) return undefined;
    const texts: string[] = [];
    for (const id of kept.ids) {
      const item = this.texts.atVersion(id, version);
      if (!item) return undefined;
      texts.push(item.text);
    }
    return texts;
  }

  /** The page's rows, in `order`. */
  private async pageRows(filter: string, params: readonly unknown[], order: string, options: ListOptions): Promise<ResourceRow[]> {
    // The page's ids first (an index-only scan where an index has the order), then their rows: skipping
    // `offset` index entries costs far less than skipping `offset` whole rows with their JSON columns.
    return this.db.query<ResourceRow>(
      `SELECT * FROM resources WHERE id IN (SELECT id FROM resources WHERE ${filter} ORDER BY ${order} LIMIT ? OFFSET ?) ORDER BY ${order}`,
      [...params, options.size, (options.page - 1) * options.size],
    );
  }

  /** The WHERE clause (with its parameters) and ORDER BY of a list. @throws SearchSyntaxError, SearchFieldError */
  private listSql(options: ListOptions): { filter: string; params: unknown[]; order: string } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.kind !== undefined) {
      where.push('kind = ?');
      params.push(options.kind);
    }
    if (options.ownerId !== undefined) {
      where.push('owner_id = ?');
      params.push(options.ownerId);
    }
    if (options.deleting !== undefined) where.push(options.deleting ? 'deleted_time IS NOT NULL' : 'deleted_time IS NULL');
    if (options.reference) {
      where.push('EXISTS (SELECT 1 FROM resource_references x WHERE x.referrer_id = resources.id AND x.ref_type = ? AND x.target_id = ?)');
      params.push(options.reference.type, options.reference.targetId);
    }
    const search = searchCondition(options.search, RESOURCE_SEARCH, this.db.dialect ?? 'sqlite');
    if (search) {
      where.push(search.sql);
      params.push(...search.params);
    }
    const scoped = this.tenantCondition(options.tenant);
    if (scoped) {
      where.push(scoped.sql);
      params.push(...scoped.params);
    }
    const order = (options.order?.length ? options.order : [{ field: 'created_time', direction: 'desc' as const }])
      .filter((o) => (ORDERABLE_FIELDS as readonly string[]).includes(o.field))
      .map((o) => `${o.field} ${o.direction === 'asc' ? 'ASC' : 'DESC'}`)
      .concat('id ASC')
      .join(', ');
    const filter = where.length > 0 ? where.join(' AND ') : '1 = 1';
    return { filter, params, order };
  }

  /**
   * Up to `size` resources of `kind` in (created_time, id) order, oldest first, strictly after `after`
   * (from the start when absent): a keyset page, O(size) at any depth (index resources_kind_created_id).
   * A walk that passes each page's last item as the next `after` sees every resource that exists for the
   * whole walk exactly once; one created meanwhile sorts after the cursor (a later created_time) and is
   * seen too, one hard-deleted meanwhile may or may not be.
   */
  async pageAfter(options: { readonly kind: string; readonly size: number; readonly after?: KeysetCursor }): Promise<ResourceJson[]> {
    const rows = options.after
      ? await this.db.query<ResourceRow>(
          `SELECT * FROM resources WHERE kind = ? AND (created_time > ? OR (created_time = ? AND id > ?)) ORDER BY created_time ASC, id ASC LIMIT ?`,
          [options.kind, options.after.created_time, options.after.created_time, options.after.id, options.size],
        )
      : await this.db.query<ResourceRow>(`SELECT * FROM resources WHERE kind = ? ORDER BY created_time ASC, id ASC LIMIT ?`, [options.kind, options.size]);
    return rows.map((row) => this.present(row));
  }

  /**
   * One resource's adapter statuses, by adapter name.
   * @param search TSL over STATUS_SEARCH fields. @throws SearchSyntaxError, SearchFieldError
   */
  async statuses(resourceId: string, page = 1, size = 100, search?: string): Promise<Page<AdapterStatus>> {
    const condition = searchCondition(search, STATUS_SEARCH, this.db.dialect ?? 'sqlite');
    const where = condition ? `resource_id = ? AND ${condition.sql}` : 'resource_id = ?';
    const params = [resourceId, ...(condition?.params ?? [])];
    const total = Number((await this.db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM adapter_statuses WHERE ${where}`, params))[0]?.n ?? 0);
    const rows = await this.db.query<AdapterStatusRow>(
      `SELECT * FROM adapter_statuses WHERE ${where} ORDER BY adapter ASC LIMIT ? OFFSET ?`,
      [...params, size, (page - 1) * size],
    );
    return { page, size: rows.length, total, items: rows.map(toAdapterStatus) };
  }

  /**
   * Every stored reference into `rootId`'s subtree and, breadth-first, into those referrers in
   * turn, for the delete guard (seed 004), the cascade guard and cycle detection. The index's facts only
   * (who references whom, and the referrer's kind to find its tree): whether a referrer is paused or
   * deleting is read from its own tree by the domain (`referenceEdgeFrom`). Bounded: at most
   * `maxResources` resources are expanded (a longer chain is cut; the guard on the subtree itself is always
   * complete).
   */
  async indexedReferences(rootId: string, maxResources = 200): Promise<IndexedReference[]> {
    const queue: string[] = [rootId];
    for (let i = 0; i < queue.length; i++) {
      const children = await this.db.query<{ id: string }>(`SELECT id FROM resources WHERE owner_id = ? ORDER BY id`, [queue[i]]);
      queue.push(...children.map((c) => c.id));
    }
    const expanded = new Set(queue);
    const out: IndexedReference[] = [];
    for (let i = 0; i < queue.length && i < Math.max(maxResources, expanded.size); i++) {
      const target = queue[i]!;
      const rows = await this.db.query<{ id: string; kind: string }>(
        `SELECT DISTINCT r.id AS id, r.kind AS kind
           FROM resource_references x
           JOIN resources r ON r.id = x.referrer_id
          WHERE x.target_id = ?
          ORDER BY r.id`,
        [target],
      );
      for (const r of rows) {
        out.push({ target_id: target, id: r.id, kind: r.kind });
        if (!expanded.has(r.id) && expanded.size < maxResources) {
          expanded.add(r.id);
          queue.push(r.id);
        }
      }
    }
    return out;
  }

  /**
   * SQL (on `resources.tenant` / `resource_index.tenant`) for "tenancy contains `scope`"; undefined when
   * unscoped. Dimension keys are identifiers (server-config.ts checks them), so the JSON path is safe.
   */
  private tenantCondition(scope: Tenancy | null | undefined): { sql: string; params: unknown[] } | undefined {
    const entries = Object.entries(scope ?? {});
    if (entries.length === 0) return undefined;
    const postgres = this.db.dialect === 'postgres';
    return {
      sql: entries.map(() => (postgres ? `(tenant::jsonb ->> CAST(? AS text)) = ?` : `json_extract(tenant, ?) = ?`)).join(' AND '),
      params: entries.flatMap(([key, value]) => [postgres ? key : `$."${key}"`, value]),
    };
  }

  /**
   * Is resource `id` (also after hard delete) visible to a caller of tenancy `scope` (null = unscoped)?
   * False for an id never created.
   */
  async visible(id: string, scope: Tenancy | null | undefined): Promise<boolean> {
    const row = await this.locate(id);
    return row !== undefined && tenancyContains(row.tenant ? (JSON.parse(row.tenant) as Tenancy) : null, scope);
  }

  /**
   * A stored resource of `kind` named `name` under `ownerId` (top level when undefined); top-level names
   * are unique per tenant, so with `tenant` only a resource of exactly that tenancy counts.
   */
  async findByName(kind: string, name: string, ownerId?: string, tenant?: Tenancy | null): Promise<ResourceJson | undefined> {
    const rows = await this.db.query<ResourceRow>(
      ownerId === undefined
        ? `SELECT * FROM resources WHERE kind = ? AND name = ? AND owner_id IS NULL`
        : `SELECT * FROM resources WHERE kind = ? AND name = ? AND owner_id = ?`,
      ownerId === undefined ? [kind, name] : [kind, name, ownerId],
    );
    const key = tenancyKey(tenant);
    const row = ownerId === undefined ? rows.find((r) => tenancyKey(r.tenant ? (JSON.parse(r.tenant) as Tenancy) : null) === key) : rows[0];
    return row ? this.present(row) : undefined;
  }

  /** Where a resource's events live, also after hard delete; undefined for an id never created. */
  async locate(id: string): Promise<ResourceIndexRow | undefined> {
    return (await this.db.query<ResourceIndexRow>(`SELECT * FROM resource_index WHERE id = ?`, [id]))[0];
  }

  /**
   * Resources pending deletion for at least `olderThanSeconds`, oldest first, each with its structured
   * `blockers` (evaluated at `now`: a timeout shows once it passed).
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
    const scoped = this.tenantCondition(filter.tenant);
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
      const blockers = resource ? this.blockersOf(row, resource, now, timeout, filter) : [];
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

  /**
   * The stored deletion status's blockers (the frozen adapters, InUse referrers with their own blockers,
   * cycle members and edges) plus what depends on this read: `now` (TimedOut) and the job queue (DeadLettered,
   * JobQueueUnavailable, the `no_worker` mark of an adapter whose queue nothing consumes).
   */
  private blockersOf(
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
}

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

/**
 * Every stored resource with `Reconciled=False` or being deleted (the pending-deletion gauges). Read by id
 * in batches, yielding to the event loop between them (`setImmediate`): a scrape over many resources never
 * stalls requests for long.
 */
export async function pendingWork(db: ReadModelQueries): Promise<PendingWork[]> {
  const out: PendingWork[] = [];
  for (let after = ''; ; ) {
    const rows = await db.query<Pick<ResourceRow, 'id' | 'kind' | 'generation' | 'deleted_time' | 'conditions'>>(
      `SELECT id, kind, generation, deleted_time, conditions FROM resources WHERE id > ? ORDER BY id LIMIT ?`,
      [after, PENDING_WORK_BATCH],
    );
    out.push(...pendingOf(rows));
    if (rows.length < PENDING_WORK_BATCH) return out;
    after = rows[rows.length - 1]!.id;
    await yieldToEventLoop();
  }
}

function pendingOf(rows: readonly Pick<ResourceRow, 'id' | 'kind' | 'generation' | 'deleted_time' | 'conditions'>[]): PendingWork[] {
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

/** `{ deletion_blocked }` from a resource's stored conditions while `DeletionBlocked=True`. */
function deletionBlocked(conditions: string | null): { deletion_blocked?: { reason: string; message: string } } {
  const blocked = (conditions ? (JSON.parse(conditions) as { type: string; status: string; reason?: string; message?: string }[]) : []).find(
    (c) => c.type === ConditionType.DeletionBlocked && c.status === 'True',
  );
  return blocked ? { deletion_blocked: { reason: blocked.reason ?? '', message: blocked.message ?? '' } } : {};
}
