/**
 * Loads, from the resource view, the snapshot the domain's `deletionStatus` reads around one resource: the
 * resource, its ancestors, its stored subtree, and (once deleting) what it waits for through wait edges, in
 * turn (referrers and child records of each deleting resource reached), so a cycle through it is seen.
 * Loading only: which of these rows block what is decided in `libs/domain` (deletion-status.ts).
 */
import type {
  AdapterStatus,
  DeletionGraph,
  DeletionNode,
  DeletionPolicy,
  EffectiveDeletionPolicy,
  KindRegistry,
  OperatorMark,
  PropagationPolicy,
} from '@decom/domain';
import type { AdapterStatusRow, DeletionInfo, ResourceRow } from './resource-view.schema.js';

/**
 * The reads a snapshot needs, as the resource view's tables answer them: rows by id, rows owned by or
 * referencing some ids (ascending by id), adapter statuses of some ids (by resource, then adapter): the
 * projection's `ResourceViewWorkingSet` answers them from a batch's rows in memory.
 */
export interface DeletionGraphSource {
  row(id: string): Promise<ResourceRow | undefined>;
  childrenOf(ids: readonly string[]): Promise<ResourceRow[]>;
  referrersOf(ids: readonly string[]): Promise<ResourceRow[]>;
  statusesOf(ids: readonly string[]): Promise<AdapterStatusRow[]>;
  /** A status row as the domain's `AdapterStatus`. */
  adapterStatus(row: AdapterStatusRow): AdapterStatus;
}

/** Resources a snapshot holds at most beyond the resource's own subtree (the wait-graph walk is cut there). */
export const MAX_SNAPSHOT_RESOURCES = 200;

/**
 * The snapshot around `id`; empty when `id` is not stored. The resource's subtree is always complete (its
 * dependents and pauses below it); the walk through wait edges stops after `maxResources` resources, so a
 * cycle longer than that is not seen (as the delete guard's walk). Adapter statuses are loaded for `id`
 * and its direct referrers only: theirs are the statuses `deletionStatus(graph, id)` reads.
 */
export async function loadDeletionGraph(
  source: DeletionGraphSource,
  kinds: KindRegistry,
  id: string,
  maxResources = MAX_SNAPSHOT_RESOURCES,
): Promise<DeletionGraph> {
  const rows = new Map<string, ResourceRow>();
  const requiredAdaptersOf = (kind: string) => kinds.find(kind)?.required_adapters ?? [];
  const root = await source.row(id);
  if (!root) return { nodes: new Map(), requiredAdaptersOf };
  rows.set(root.id, root);
  const add = (found: readonly ResourceRow[], capped: boolean): ResourceRow[] => {
    const added: ResourceRow[] = [];
    for (const row of found) {
      if (rows.has(row.id) || (capped && rows.size >= maxResources)) continue;
      rows.set(row.id, row);
      added.push(row);
    }
    return added;
  };
  let referrersOfRoot: string[] = [];
  if (root.deleted_time) {
    // The whole subtree: dependents and a paused descendant count at any depth.
    for (let level = [root]; level.length > 0;) level = add(await source.childrenOf(level.map((r) => r.id)), false);
    // What waits for what, outwards from the resource: a deleting resource waits for its referrers and its child records.
    const referrers = await source.referrersOf([root.id]);
    add(referrers, false);
    referrersOfRoot = referrers.map((r) => r.id).filter((r) => r !== root.id);
    for (let frontier = [...rows.values()]; frontier.length > 0 && rows.size < maxResources;) {
      const deleting = frontier.filter((r) => r.deleted_time).map((r) => r.id);
      if (deleting.length === 0) break;
      frontier = add([...(await source.referrersOf(deleting)), ...(await source.childrenOf(deleting))], true);
    }
  }
  // Lineages: the resource's (its pause and policy) and its referrers' (theirs, shown on its InUse blocker).
  for (const start of [root.id, ...referrersOfRoot]) {
    for (let owner = rows.get(start)?.owner_id; owner;) {
      const row = rows.get(owner) ?? (await source.row(owner));
      if (!row) break;
      rows.set(row.id, row);
      owner = row.owner_id;
    }
  }
  const statusOwners = [root.id, ...referrersOfRoot];
  const statuses = await source.statusesOf(statusOwners);
  const statusesOf = new Map<string, Record<string, AdapterStatus>>();
  for (const s of statuses) statusesOf.set(s.resource_id, { ...statusesOf.get(s.resource_id), [s.adapter]: source.adapterStatus(s) });
  return {
    nodes: new Map([...rows.values()].map((row) => [row.id, deletionNodeOf(row, statusesOf.get(row.id) ?? {})])),
    requiredAdaptersOf,
  };
}

/** A stored row as the domain's `DeletionNode`. */
export function deletionNodeOf(row: ResourceRow, adapterStatuses: Readonly<Record<string, AdapterStatus>>): DeletionNode {
  const info = (row.deletion_info ? JSON.parse(row.deletion_info) : {}) as Partial<DeletionInfo>;
  const refs = row.refs ? (JSON.parse(row.refs) as Record<string, { id: string }[]>) : {};
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    ...(row.owner_id ? { owner_id: row.owner_id } : {}),
    generation: Number(row.generation),
    adapter_statuses: adapterStatuses,
    references: Object.values(refs).flatMap((targets) => targets.map((t) => t.id)),
    ...(row.paused ? { paused: JSON.parse(row.paused) as OperatorMark } : {}),
    ...(row.deletion_policy ? { deletion_policy: row.deletion_policy as DeletionPolicy } : {}),
    ...(row.force_orphan ? { force_orphan: true } : {}),
    ...(row.deleted_time
      ? {
          deleted_time: row.deleted_time,
          ...(info.deletion_propagation ? { deletion_propagation: info.deletion_propagation as PropagationPolicy } : {}),
          ...(info.deletion_required_adapters ? { deletion_required_adapters: info.deletion_required_adapters } : {}),
          ...(info.leftovers ? { leftovers: info.leftovers } : {}),
          // Histories before the source was recorded say so instead of naming a source they never had.
          recorded_policy: {
            policy: (row.effective_policy ?? 'Delete') as DeletionPolicy,
            source: (info.recorded_source ?? 'recorded at DeletionRequested') as EffectiveDeletionPolicy['source'],
          },
        }
      : {}),
  };
}
