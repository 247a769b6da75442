/**
 * Read-model tables of the resource view. Portable SQL (SQLite and PostgreSQL); JSON lives in TEXT columns.
 * - `resources`: one row per stored resource (active or Finalizing); gone on hard delete.
 * - `resource_labels`: its labels, one row each (search by label through an index).
 * - `adapter_statuses`: one row per (resource, adapter), the last accepted report.
 * - `resource_index`: every resource ever created, never deleted: id → stream, for routing commands and
 *   for history after hard delete.
 * - `finalizing`: the stuck-deletion dashboard: resources with `deleted_time`, what they wait on.
 * - `deletion_requests`: every top-level deletion (a DELETE's target, not its cascade), never deleted: what the
 *   deletion budget counts (in flight: still in `resources` with `deleted_time`; per hour: by `deleted_time`).
 */
import type { DeletionStatus, RecordedLeftovers } from '@decom/domain';

export const RESOURCE_VIEW_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS resources (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    href TEXT NOT NULL,
    stream TEXT NOT NULL,
    owner_id TEXT,
    owner_kind TEXT,
    owner_href TEXT,
    spec TEXT NOT NULL,
    labels TEXT NOT NULL,
    generation INTEGER NOT NULL,
    created_time TEXT NOT NULL,
    updated_time TEXT NOT NULL,
    created_by TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    deleted_time TEXT,
    deleted_by TEXT,
    conditions TEXT NOT NULL,
    deletion_policy TEXT,
    effective_policy TEXT,
    refs TEXT,
    paused TEXT,
    ever_paused INTEGER NOT NULL DEFAULT 0,
    deletion_started INTEGER NOT NULL DEFAULT 0,
    force_orphan TEXT,
    -- deletion_info: JSON DeletionInfo; once deleting it holds the domain's deletion_status (a changed shape replays the log)
    deletion_info TEXT,
    tenant TEXT,
    -- deletion_protection: JSON {caller, reason, time} while set (DeletionProtectionChanged), else NULL
    deletion_protection TEXT
  )`,
  // Keyset walks in (created_time, id) order (the sweeper), and lists' default order, `created_time desc`
  // with the `id asc` tie-break, read straight from an index (no sort, and a page's rows found by a
  // covering index scan at any offset).
  `CREATE INDEX IF NOT EXISTS resources_kind_created_id ON resources (kind, created_time, id)`,
  `CREATE INDEX IF NOT EXISTS resources_kind_created_desc ON resources (kind, created_time DESC, id)`,
  `CREATE INDEX IF NOT EXISTS resources_owner ON resources (owner_id)`,
  // The create's name check: kind + name under one parent (top level: owner_id IS NULL), whatever the
  // number of same-named children elsewhere.
  `CREATE INDEX IF NOT EXISTS resources_kind_owner_name ON resources (kind, owner_id, name)`,
  // Search (TSL) on the plain columns HyperFleet clients filter by most, `order=name`; labels have their
  // own table (resource_labels); other JSON fields (spec, conditions) are scanned within the kind.
  // created_time and id make it covering for a name search in the default order (`name like 'prod-%'`:
  // the matches are sorted from the index alone, no row read per match).
  `CREATE INDEX IF NOT EXISTS resources_kind_name ON resources (kind, name, created_time, id)`,
  `CREATE INDEX IF NOT EXISTS resources_kind_deleted ON resources (kind, deleted_time)`,
  `CREATE INDEX IF NOT EXISTS resources_kind_updated ON resources (kind, updated_time)`,
  // One row per label of a stored resource (the `labels` JSON, mirrored): TSL `labels.<key>` predicates.
  `CREATE TABLE IF NOT EXISTS resource_labels (
    resource_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (resource_id, key)
  )`,
  `CREATE INDEX IF NOT EXISTS resource_labels_key_value ON resource_labels (key, value, resource_id)`,
  `CREATE TABLE IF NOT EXISTS adapter_statuses (
    resource_id TEXT NOT NULL,
    adapter TEXT NOT NULL,
    observed_generation INTEGER NOT NULL,
    conditions TEXT NOT NULL,
    metadata TEXT,
    data TEXT,
    created_time TEXT NOT NULL,
    last_report_time TEXT NOT NULL,
    PRIMARY KEY (resource_id, adapter)
  )`,
  `CREATE TABLE IF NOT EXISTS resource_index (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    stream TEXT NOT NULL,
    owner_id TEXT,
    created_time TEXT NOT NULL,
    hard_deleted_time TEXT,
    hard_delete_cause TEXT,
    tenant TEXT
  )`,
  `CREATE TABLE IF NOT EXISTS resource_references (
    referrer_id TEXT NOT NULL,
    ref_type TEXT NOT NULL,
    target_id TEXT NOT NULL,
    target_kind TEXT NOT NULL,
    PRIMARY KEY (referrer_id, ref_type, target_id)
  )`,
  `CREATE INDEX IF NOT EXISTS resource_references_target ON resource_references (target_id)`,
  `CREATE INDEX IF NOT EXISTS resource_references_type_target ON resource_references (ref_type, target_id)`,
  `CREATE TABLE IF NOT EXISTS finalizing (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    href TEXT NOT NULL,
    generation INTEGER NOT NULL,
    deleted_time TEXT NOT NULL,
    deleted_by TEXT NOT NULL,
    waiting_on TEXT NOT NULL,
    unhealthy TEXT NOT NULL,
    children_remaining INTEGER NOT NULL,
    reconciled_reason TEXT NOT NULL,
    reconciled_message TEXT NOT NULL
  )`,
  // tenant: the deleted resource's tenancy JSON, '' when untenanted (compared with =).
  `CREATE TABLE IF NOT EXISTS deletion_requests (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    tenant TEXT NOT NULL,
    deleted_time TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS deletion_requests_budget ON deletion_requests (kind, tenant, deleted_time)`,
];

export const RESOURCE_VIEW_TABLES = [
  'resources',
  'resource_labels',
  'adapter_statuses',
  'resource_index',
  'resource_references',
  'finalizing',
  'deletion_requests',
] as const;

/** A `resources` row as stored. */
export interface ResourceRow {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly href: string;
  readonly stream: string;
  readonly owner_id: string | null;
  readonly owner_kind: string | null;
  readonly owner_href: string | null;
  readonly spec: string;
  readonly labels: string;
  readonly generation: number;
  readonly created_time: string;
  readonly updated_time: string;
  readonly created_by: string;
  readonly updated_by: string;
  readonly deleted_time: string | null;
  readonly deleted_by: string | null;
  readonly conditions: string;
  /** Declared policy (seed 003); null = inherit / Delete. */
  readonly deletion_policy: string | null;
  /** The policy the deletion runs with, once deleting. */
  readonly effective_policy: string | null;
  /** JSON `references` (HyperFleet field; `references` is an SQL keyword). */
  readonly refs: string | null;
  /** JSON {caller, reason, time} while paused. */
  readonly paused: string | null;
  readonly ever_paused: number;
  readonly deletion_started: number;
  readonly force_orphan: string | null;
  /** JSON `DeletionInfo` (effective policy and source; once deleting, propagation, frozen adapters and the deletion status). */
  readonly deletion_info: string | null;
  /** JSON tenancy (HyperFleet §8.1 dimension key → value); null = untenanted. */
  readonly tenant: string | null;
  /** JSON {caller, reason, time} while `deletion_protection` is set, as the last `DeletionProtectionChanged` recorded it. */
  readonly deletion_protection: string | null;
}

/** The `deletion_info` column. */
export interface DeletionInfo {
  readonly effective_deletion_policy: { readonly policy: 'Delete' | 'Orphan'; readonly source: string };
  /** Once deleting. */
  readonly deletion_propagation?: 'Foreground' | 'Background';
  /** Once deleting: the required adapters frozen at DeletionRequested (absent for older histories). */
  readonly deletion_required_adapters?: readonly string[];
  /** Once deleting: the source recorded on DeletionRequested. */
  readonly recorded_source?: string;
  /** What the last cleanup verification found, as `LeftoverObjectsFound` recorded it (verify before hard delete). */
  readonly leftovers?: RecordedLeftovers;
  /**
   * Once deleting: the domain's `deletionStatus` at the last refresh (phase, blockers root causes first,
   * effective policy, frozen adapters, dispatch). `/finalizing`, dispatch and the conditions read it.
   */
  readonly deletion_status?: DeletionStatus;
}

export interface AdapterStatusRow {
  readonly resource_id: string;
  readonly adapter: string;
  readonly observed_generation: number;
  readonly conditions: string;
  readonly metadata: string | null;
  readonly data: string | null;
  readonly created_time: string;
  readonly last_report_time: string;
}

export interface FinalizingRow {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly href: string;
  readonly generation: number;
  readonly deleted_time: string;
  readonly deleted_by: string;
  readonly waiting_on: string;
  readonly unhealthy: string;
  readonly children_remaining: number;
  readonly reconciled_reason: string;
  readonly reconciled_message: string;
}

export interface ResourceIndexRow {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly stream: string;
  readonly owner_id: string | null;
  readonly created_time: string;
  readonly hard_deleted_time: string | null;
  readonly hard_delete_cause: string | null;
  /** JSON tenancy, as on `resources`. */
  readonly tenant: string | null;
}
