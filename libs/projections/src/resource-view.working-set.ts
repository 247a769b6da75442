/**
 * The resource-view rows one batch of events reads and writes, held in memory for the batch: loaded from the
 * read-model transaction once (a few `IN (...)` reads for the whole batch, more only on a miss), changed in
 * memory, written back by `flush()` in a few multi-row statements in the same transaction. What a query of
 * the tables would answer mid-batch is answered from memory, with the same rows in the same order, so a batch
 * leaves exactly the rows its events applied one per transaction would.
 * Completeness: a resource's row, its adapter statuses, its outgoing references, its children and its
 * referrers are each loaded whole (or known absent) before they are read or changed; a set loaded from the
 * database is merged with what the batch already changed (memory wins for every row it holds).
 */
import type { AdapterStatus } from '@decom/domain';
import { toAdapterStatus } from './adapter-status-row.js';
import type { AdapterStatusRow, DeletionInfo, FinalizingRow, ResourceIndexRow, ResourceRow } from './resource-view.schema.js';
import type { ReadModelTx } from './runner/index.js';
import type { DeletionGraphSource } from './deletion-graph.loader.js';

/** A `resource_references` row. */
export interface ReferenceRow {
  readonly referrer_id: string;
  readonly ref_type: string;
  readonly target_id: string;
  readonly target_kind: string;
}

const RESOURCE_COLUMNS = [
  'id',
  'kind',
  'name',
  'href',
  'stream',
  'owner_id',
  'owner_kind',
  'owner_href',
  'spec',
  'labels',
  'generation',
  'created_time',
  'updated_time',
  'created_by',
  'updated_by',
  'deleted_time',
  'deleted_by',
  'conditions',
  'deletion_policy',
  'effective_policy',
  'refs',
  'paused',
  'ever_paused',
  'deletion_started',
  'force_orphan',
  'deletion_info',
  'tenant',
  'deletion_protection',
] as const satisfies readonly (keyof ResourceRow)[];
const STATUS_COLUMNS = [
  'resource_id',
  'adapter',
  'observed_generation',
  'conditions',
  'metadata',
  'data',
  'created_time',
  'last_report_time',
] as const satisfies readonly (keyof AdapterStatusRow)[];
const REFERENCE_COLUMNS = ['referrer_id', 'ref_type', 'target_id', 'target_kind'] as const satisfies readonly (keyof ReferenceRow)[];
const INDEX_COLUMNS = [
  'id',
  'kind',
  'name',
  'stream',
  'owner_id',
  'created_time',
  'tenant',
] as const satisfies readonly (keyof ResourceIndexRow)[];
const FINALIZING_COLUMNS = [
  'id',
  'kind',
  'name',
  'href',
  'generation',
  'deleted_time',
  'deleted_by',
  'waiting_on',
  'unhealthy',
  'children_remaining',
  'reconciled_reason',
  'reconciled_message',
] as const satisfies readonly (keyof FinalizingRow)[];
/** What a `finalizing` upsert changes on a row that is already there (the rest keeps its first values). */
const FINALIZING_UPDATED = [
  'generation',
  'waiting_on',
  'unhealthy',
  'children_remaining',
  'reconciled_reason',
  'reconciled_message',
] as const;

/** Bound parameters per statement stay below SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMS = 30_000;

export type NewResourceRow = Omit<
  ResourceRow,
  'effective_policy' | 'paused' | 'ever_paused' | 'deletion_started' | 'force_orphan' | 'deletion_info' | 'deletion_protection'
>;

/** A row of `deletion_requests`: a DELETE's own target (what the deletion budget counts). */
export interface DeletionRequestRow {
  readonly id: string;
  readonly kind: string;
  /** The resource's tenancy as stored (JSON), `''` when it has none. */
  readonly tenant: string;
  readonly deleted_time: string;
}

export class ResourceViewWorkingSet implements DeletionGraphSource {
  /** Row per id; `null` = known absent (never stored, or deleted in this batch). */
  private readonly rows = new Map<string, ResourceRow | null>();
  /** Ids of present rows held in `rows`, by owner: the batch's side of a children query. */
  private readonly heldByOwner = new Map<string, Set<string>>();
  /** Complete child id sets of the owners loaded so far. */
  private readonly children = new Map<string, Set<string>>();
  /** Complete adapter statuses per resource loaded so far, by adapter. */
  private readonly statuses = new Map<string, Map<string, AdapterStatusRow>>();
  /** Complete outgoing references per referrer loaded (or replaced) so far. */
  private readonly references = new Map<string, ReferenceRow[]>();
  /** Referrers held in `references`, by target: the batch's side of a referrers query. */
  private readonly heldByTarget = new Map<string, Set<string>>();
  /** Complete referrer id sets of the targets loaded so far. */
  private readonly referrers = new Map<string, Set<string>>();

  private readonly dirtyRows = new Set<string>();
  private readonly dirtyStatuses = new Set<string>();
  private readonly dirtyReferences = new Set<string>();
  private readonly labels = new Map<string, Readonly<Record<string, string>> | undefined>();
  private readonly indexInserts = new Map<string, ResourceIndexRow>();
  private readonly deletionRequests = new Map<string, DeletionRequestRow>();
  private readonly hardDeletes = new Map<string, { readonly time: string; readonly cause: string }>();
  /** Per id: delete the stored row first (a removal in this batch), then upsert `row` when set. */
  private readonly finalizing = new Map<string, { deleteFirst: boolean; row?: FinalizingRow }>();
  /** JSON columns parsed once per row version (a change makes a new row object); callers must not mutate them. */
  private readonly parsedStatuses = new WeakMap<AdapterStatusRow, AdapterStatus>();
  private readonly parsedInfo = new WeakMap<ResourceRow, Partial<DeletionInfo>>();

  constructor(private readonly tx: ReadModelTx) {}

  /** Loads rows, statuses, children, references and referrers of `ids` in a few reads (what a batch will touch). */
  async prefetch(ids: Iterable<string>): Promise<void> {
    const wanted = [...new Set(ids)];
    await this.loadRows(wanted.filter((id) => !this.rows.has(id)));
    await this.loadStatuses(wanted.filter((id) => !this.statuses.has(id)));
    await this.loadChildren(wanted.filter((id) => !this.children.has(id)));
    await this.loadReferences(wanted.filter((id) => !this.references.has(id)));
    await this.loadReferrers(wanted.filter((id) => !this.referrers.has(id)));
  }

  // --- reads (what `SELECT ... FROM <table>` would answer now) ---

  async row(id: string): Promise<ResourceRow | undefined> {
    if (!this.rows.has(id)) await this.loadRows([id]);
    return this.rows.get(id) ?? undefined;
  }

  /** Adapter statuses of `id`, by adapter name. */
  async statusesOf(ids: readonly string[]): Promise<AdapterStatusRow[]> {
    await this.loadStatuses(ids.filter((id) => !this.statuses.has(id)));
    return [...new Set(ids)].flatMap((id) => [...this.statuses.get(id)!.values()].sort((a, b) => compare(a.adapter, b.adapter)));
  }

  /** Ids of `id`'s children, ascending. */
  async childIds(id: string): Promise<string[]> {
    if (!this.children.has(id)) await this.loadChildren([id]);
    return [...this.children.get(id)!].sort(compare);
  }

  /** Rows whose owner is one of `ids`, by id. */
  async childrenOf(ids: readonly string[]): Promise<ResourceRow[]> {
    await this.loadChildren(ids.filter((id) => !this.children.has(id)));
    return this.present([...new Set(ids)].flatMap((id) => [...this.children.get(id)!]));
  }

  /** Ids `id` references (distinct), ascending. */
  async referencedBy(id: string): Promise<string[]> {
    if (!this.references.has(id)) await this.loadReferences([id]);
    return [...new Set(this.references.get(id)!.map((r) => r.target_id))].sort(compare);
  }

  /** Stored rows referencing one of `ids`, by id. */
  async referrersOf(ids: readonly string[]): Promise<ResourceRow[]> {
    await this.loadReferrers(ids.filter((id) => !this.referrers.has(id)));
    return this.present([...new Set(ids)].flatMap((id) => [...this.referrers.get(id)!]));
  }

  /** `row` as the domain's `AdapterStatus` (shared: read it, do not change it). */
  adapterStatus(row: AdapterStatusRow): AdapterStatus {
    let status = this.parsedStatuses.get(row);
    if (!status) this.parsedStatuses.set(row, (status = toAdapterStatus(row)));
    return status;
  }

  /** The row's `deletion_info` column parsed (`{}` when NULL; shared: read it, do not change it). */
  deletionInfo(row: ResourceRow): Partial<DeletionInfo> {
    let info = this.parsedInfo.get(row);
    if (!info) this.parsedInfo.set(row, (info = row.deletion_info ? (JSON.parse(row.deletion_info) as Partial<DeletionInfo>) : {}));
    return info;
  }

  // --- writes (applied in memory now, to the tables by `flush`) ---

  /** `INSERT INTO resources`: the new row with the schema's defaults. @throws Error when the id is stored already (a primary-key violation). */
  async insertRow(row: NewResourceRow): Promise<void> {
    if (await this.row(row.id)) throw new Error(`resources: a row with id ${row.id} exists already`);
    this.hold({
      ...row,
      effective_policy: null,
      paused: null,
      ever_paused: 0,
      deletion_started: 0,
      force_orphan: null,
      deletion_info: null,
      deletion_protection: null,
    });
  }

  /** `UPDATE resources SET ... WHERE id = ?`: nothing when the row is not there. */
  async updateRow(id: string, changes: Partial<Omit<ResourceRow, 'id' | 'owner_id'>>): Promise<void> {
    const row = await this.row(id);
    if (row) this.hold({ ...row, ...changes });
  }

  async deleteRow(id: string): Promise<void> {
    const row = await this.row(id);
    if (!row) return;
    this.rows.set(id, null);
    this.dirtyRows.add(id);
    if (row.owner_id) {
      this.heldByOwner.get(row.owner_id)?.delete(id);
      this.children.get(row.owner_id)?.delete(id);
    }
  }

  /** Upserts the (resource, adapter) status. */
  async putStatus(row: AdapterStatusRow): Promise<void> {
    await this.statusesOf([row.resource_id]);
    this.statuses.get(row.resource_id)!.set(row.adapter, row);
    this.dirtyStatuses.add(row.resource_id);
  }

  deleteStatuses(id: string): void {
    this.statuses.set(id, new Map());
    this.dirtyStatuses.add(id);
  }

  /** Replaces `referrer`'s outgoing references (duplicates of one (ref_type, target) kept once). */
  async setReferences(referrer: string, rows: readonly ReferenceRow[]): Promise<void> {
    if (!this.references.has(referrer)) await this.loadReferences([referrer]);
    const unique = new Map(rows.map((r) => [`${r.ref_type}\u0000${r.target_id}`, r]));
    for (const old of this.references.get(referrer)!) {
      this.heldByTarget.get(old.target_id)?.delete(referrer);
      this.referrers.get(old.target_id)?.delete(referrer);
    }
    // `ON CONFLICT DO NOTHING`: the first row of a key stays.
    const kept = [...unique.keys()].map((key) => rows.find((r) => `${r.ref_type}\u0000${r.target_id}` === key)!);
    this.references.set(referrer, kept);
    this.dirtyReferences.add(referrer);
    for (const r of kept) {
      setOf(this.heldByTarget, r.target_id).add(referrer);
      this.referrers.get(r.target_id)?.add(referrer);
    }
  }

  /** Replaces `id`'s `resource_labels` rows. */
  setLabels(id: string, labels: Readonly<Record<string, string>> | undefined): void {
    this.labels.set(id, labels);
  }

  /** `INSERT INTO resource_index ... ON CONFLICT (id) DO NOTHING`. */
  insertIndex(row: ResourceIndexRow): void {
    if (!this.indexInserts.has(row.id)) this.indexInserts.set(row.id, row);
  }

  markIndexHardDeleted(id: string, time: string, cause: string): void {
    this.hardDeletes.set(id, { time, cause });
  }

  /** `INSERT INTO finalizing ... ON CONFLICT (id) DO UPDATE` of the verdict columns. */
  /** `INSERT INTO deletion_requests ... ON CONFLICT DO NOTHING`: the first request of an id stays. */
  insertDeletionRequest(row: DeletionRequestRow): void {
    if (!this.deletionRequests.has(row.id)) this.deletionRequests.set(row.id, row);
  }

  putFinalizing(row: FinalizingRow): void {
    const pending = this.finalizing.get(row.id);
    if (!pending) return void this.finalizing.set(row.id, { deleteFirst: false, row });
    const kept = pending.row;
    pending.row = kept ? { ...kept, ...Object.fromEntries(FINALIZING_UPDATED.map((c) => [c, row[c]])) } : row;
  }

  deleteFinalizing(id: string): void {
    this.finalizing.set(id, { deleteFirst: true });
  }

  /** Writes every change of the batch to the tables (same transaction); the set can go on being used after it. */
  async flush(): Promise<void> {
    const removed = [...this.dirtyRows].filter((id) => this.rows.get(id) === null);
    const kept = [...this.dirtyRows].flatMap((id) => this.rows.get(id) ?? []);
    await this.deleteWhereIn('resources', 'id', removed);
    await this.insert('resources', RESOURCE_COLUMNS, kept, `ON CONFLICT (id) DO UPDATE SET ${excludedSet(RESOURCE_COLUMNS.slice(1))}`);
    const statusOwners = [...this.dirtyStatuses];
    await this.deleteWhereIn('adapter_statuses', 'resource_id', statusOwners);
    await this.insert(
      'adapter_statuses',
      STATUS_COLUMNS,
      statusOwners.flatMap((id) => [...this.statuses.get(id)!.values()]),
    );
    const referrers = [...this.dirtyReferences];
    await this.deleteWhereIn('resource_references', 'referrer_id', referrers);
    await this.insert(
      'resource_references',
      REFERENCE_COLUMNS,
      referrers.flatMap((id) => this.references.get(id)!),
    );
    const labelled = [...this.labels.keys()];
    await this.deleteWhereIn('resource_labels', 'resource_id', labelled);
    const labelRows = labelled.flatMap((id) =>
      Object.entries(this.labels.get(id) ?? {}).map(([key, value]) => ({ resource_id: id, key, value })),
    );
    await this.insert('resource_labels', ['resource_id', 'key', 'value'], labelRows);
    await this.insert('resource_index', INDEX_COLUMNS, [...this.indexInserts.values()], 'ON CONFLICT (id) DO NOTHING');
    await this.insert(
      'deletion_requests',
      ['id', 'kind', 'tenant', 'deleted_time'],
      [...this.deletionRequests.values()],
      'ON CONFLICT (id) DO NOTHING',
    );
    await this.updateHardDeleted();
    const finalizing = [...this.finalizing.entries()];
    await this.deleteWhereIn(
      'finalizing',
      'id',
      finalizing.filter(([, f]) => f.deleteFirst).map(([id]) => id),
    );
    await this.insert(
      'finalizing',
      FINALIZING_COLUMNS,
      finalizing.flatMap(([, f]) => f.row ?? []),
      `ON CONFLICT (id) DO UPDATE SET ${excludedSet(FINALIZING_UPDATED)}`,
    );
    for (const set of [this.dirtyRows, this.dirtyStatuses, this.dirtyReferences]) set.clear();
    for (const map of [this.labels, this.indexInserts, this.deletionRequests, this.hardDeletes, this.finalizing]) map.clear();
  }

  // --- loading ---

  private hold(row: ResourceRow): void {
    this.rows.set(row.id, row);
    this.dirtyRows.add(row.id);
    if (row.owner_id) {
      setOf(this.heldByOwner, row.owner_id).add(row.id);
      this.children.get(row.owner_id)?.add(row.id);
    }
  }

  /** Present rows of `ids` (each once), ascending by id. */
  private present(ids: readonly string[]): ResourceRow[] {
    return [...new Set(ids)].sort(compare).flatMap((id) => this.rows.get(id) ?? []);
  }

  private async loadRows(ids: readonly string[]): Promise<void> {
    for (const chunk of chunks(ids)) {
      const found = new Map(
        (await this.tx.query<ResourceRow>(`SELECT * FROM resources WHERE id IN (${marks(padded(chunk))})`, padded(chunk))).map((r) => [
          r.id,
          r,
        ]),
      );
      for (const id of chunk) {
        const row = found.get(id);
        if (row) this.remember(row);
        else this.rows.set(id, null);
      }
    }
  }

  /** A row read from the table, for an id the batch did not hold yet. */
  private remember(row: ResourceRow): void {
    this.rows.set(row.id, row);
    if (row.owner_id) setOf(this.heldByOwner, row.owner_id).add(row.id);
  }

  private async loadStatuses(ids: readonly string[]): Promise<void> {
    for (const chunk of chunks(ids)) {
      for (const id of chunk) this.statuses.set(id, new Map());
      for (const row of await this.tx.query<AdapterStatusRow>(
        `SELECT * FROM adapter_statuses WHERE resource_id IN (${marks(padded(chunk))})`,
        padded(chunk),
      )) {
        this.statuses.get(row.resource_id)!.set(row.adapter, row);
      }
    }
  }

  private async loadChildren(owners: readonly string[]): Promise<void> {
    for (const chunk of chunks(owners)) {
      const stored = await this.tx.query<ResourceRow>(`SELECT * FROM resources WHERE owner_id IN (${marks(padded(chunk))})`, padded(chunk));
      for (const row of stored) if (!this.rows.has(row.id)) this.remember(row);
      for (const owner of chunk) this.children.set(owner, new Set());
      // The table's children that the batch did not remove, and the batch's own (created, or loaded before).
      for (const row of stored) if (this.rows.get(row.id)) this.children.get(row.owner_id!)!.add(row.id);
      for (const owner of chunk)
        for (const id of this.heldByOwner.get(owner) ?? []) if (this.rows.get(id)) this.children.get(owner)!.add(id);
    }
  }

  private async loadReferences(referrers: readonly string[]): Promise<void> {
    for (const chunk of chunks(referrers)) {
      for (const id of chunk) this.references.set(id, []);
      for (const row of await this.tx.query<ReferenceRow>(
        `SELECT * FROM resource_references WHERE referrer_id IN (${marks(padded(chunk))})`,
        padded(chunk),
      )) {
        this.references.get(row.referrer_id)!.push(row);
        setOf(this.heldByTarget, row.target_id).add(row.referrer_id);
        this.referrers.get(row.target_id)?.add(row.referrer_id);
      }
    }
  }

  private async loadReferrers(targets: readonly string[]): Promise<void> {
    for (const chunk of chunks(targets)) {
      const stored = await this.tx.query<ReferenceRow>(
        `SELECT * FROM resource_references WHERE target_id IN (${marks(padded(chunk))})`,
        padded(chunk),
      );
      for (const target of chunk) this.referrers.set(target, new Set());
      // A referrer whose references the batch holds answers from memory; the others from the table.
      for (const row of stored) if (!this.references.has(row.referrer_id)) this.referrers.get(row.target_id)!.add(row.referrer_id);
      for (const target of chunk) for (const referrer of this.heldByTarget.get(target) ?? []) this.referrers.get(target)!.add(referrer);
      const unknown = [...new Set(chunk.flatMap((target) => [...this.referrers.get(target)!]))].filter((id) => !this.rows.has(id));
      await this.loadRows(unknown);
    }
  }

  // --- writing ---

  private async deleteWhereIn(table: string, column: string, values: readonly string[]): Promise<void> {
    for (const chunk of chunks(values))
      await this.tx.execute(`DELETE FROM ${table} WHERE ${column} IN (${marks(padded(chunk))})`, padded(chunk));
  }

  private async insert<R, C extends keyof R & string>(
    table: string,
    columns: readonly C[],
    rows: readonly R[],
    onConflict = '',
  ): Promise<void> {
    const row = `(${marks(columns)})`;
    for (const chunk of this.pieces(rows, Math.floor(MAX_PARAMS / columns.length))) {
      await this.tx.execute(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => row).join(', ')} ${onConflict}`,
        chunk.flatMap((r) => columns.map((c) => r[c])),
      );
    }
  }

  /**
   * Rows per statement: one in SQLite (a prepared single-row statement is its fastest path); in PostgreSQL
   * multi-row statements of power-of-two sizes up to `max`, so a few texts cover every count and each is
   * prepared once per connection.
   */
  private pieces<R>(rows: readonly R[], max: number): R[][] {
    if (this.tx.dialect !== 'postgres') return rows.map((row) => [row]);
    const out: R[][] = [];
    for (let start = 0; start < rows.length;) {
      const size = floorPowerOfTwo(Math.min(rows.length - start, max));
      out.push(rows.slice(start, start + size));
      start += size;
    }
    return out;
  }

  private async updateHardDeleted(): Promise<void> {
    const rows = [...this.hardDeletes.entries()].map(([id, { time, cause }]) => [id, time, cause]);
    for (const chunk of this.pieces(rows, 1000)) {
      await this.tx.execute(
        `UPDATE resource_index SET hard_deleted_time = v.column2, hard_delete_cause = v.column3
         FROM (VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}) AS v WHERE resource_index.id = v.column1`,
        chunk.flat(),
      );
    }
  }
}

/** Byte order of ASCII ids (UUIDs): what `ORDER BY id` gives for them in SQLite and PostgreSQL alike. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

function marks(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

function excludedSet(columns: readonly string[]): string {
  return columns.map((c) => `${c} = excluded.${c}`).join(', ');
}

/** `values` repeated at the end up to the next power of two: `IN (...)` texts come in a few sizes (prepared once each). */
function padded<T>(values: readonly T[]): T[] {
  let size = 1;
  while (size < values.length) size *= 2;
  return [...values, ...Array<T>(size - values.length).fill(values[values.length - 1]!)];
}

function floorPowerOfTwo(n: number): number {
  let size = 1;
  while (size * 2 <= n) size *= 2;
  return size;
}

/** Up to 512 keys per `IN (...)` read. */
function chunks<T>(values: readonly T[], size = 512): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}
