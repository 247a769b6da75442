/**
 * Projects resource-tree events into the resource view (resources, adapter statuses, index) and the
 * Finalizing dashboard. Conditions are recomputed with the domain's pure functions after every change
 * to a resource, its adapter statuses or its children (seed 000 §Reconciled; contract §1.4). A deleting
 * resource's `deletionStatus` (libs/domain) is stored in `deletion_info.deletion_status`; its conditions,
 * `/finalizing` and dispatch read it.
 */
import {
  ConditionType,
  DEFAULT_PROPAGATION_POLICY,
  computeReconciled,
  computeResourceConditions,
  conditionBlockersOf,
  deletionStatus,
  effectivePolicyOf,
  initialResourceConditions,
  isResourceEvent,
  pauseOf,
  upcastResourceEvent,
  type DeletionStatus,
  type KindRegistry,
  type PauseMark,
  type ResourceCondition,
  type ResourceConditionsInput,
} from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import { Logger } from '@nestjs/common';
import { toAdapterStatus } from './adapter-status-row.js';
export { toAdapterStatus } from './adapter-status-row.js';
import { mapConditions } from './condition-mapping.js';
import { loadDeletionGraph } from './deletion-graph.loader.js';
import { presentResource } from './resource-presenter.js';
import { resourceHref } from './resource-href.js';
import {
  RESOURCE_VIEW_SCHEMA,
  RESOURCE_VIEW_TABLES,
  type AdapterStatusRow,
  type DeletionInfo,
  type ResourceRow,
} from './resource-view.schema.js';
import type { Projection, ReadModelTx } from './runner/index.js';

export class ResourceViewProjection implements Projection {
  readonly name = 'resource-view';
  readonly schema = RESOURCE_VIEW_SCHEMA;
  readonly tables = RESOURCE_VIEW_TABLES;

  constructor(private readonly kinds: KindRegistry) {}

  /** The event being applied: Decom's own conditions take their times from it, so a rebuild yields the same rows. */
  private currentEvent?: RecordedEvent;

  async apply(recorded: RecordedEvent, tx: ReadModelTx): Promise<void> {
    if (!isResourceEvent({ type: recorded.type })) return;
    this.currentEvent = recorded;
    const event = upcastResourceEvent(recorded);
    switch (event.type) {
      case 'ResourceCreated': {
        const d = event.data;
        const owner = d.owner_references ? await this.row(tx, d.owner_references.id) : undefined;
        const href = resourceHref(this.kinds, d.kind, d.id, owner?.href);
        const required = this.kinds.find(d.kind)?.required_adapters ?? [];
        await tx.execute(
          `INSERT INTO resources (id, kind, name, href, stream, owner_id, owner_kind, owner_href, spec, labels, generation,
             created_time, updated_time, created_by, updated_by, deleted_time, deleted_by, conditions, deletion_policy, refs, tenant)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?)`,
          [
            d.id, d.kind, d.name, href, recorded.stream, d.owner_references?.id ?? null, d.owner_references?.kind ?? null,
            owner?.href ?? null, JSON.stringify(d.spec), JSON.stringify(d.labels), d.generation, d.created_time,
            d.created_time, d.created_by, d.created_by, JSON.stringify(initialResourceConditions(d.created_time, required)),
            d.deletion_policy ?? null, d.references ? JSON.stringify(d.references) : null, d.tenant ? JSON.stringify(d.tenant) : null,
          ],
        );
        await this.indexReferences(tx, d.id, d.references);
        await this.indexLabels(tx, d.id, d.labels);
        // The effective deletion policy and its source, visible from the start.
        const graph = await loadDeletionGraph(tx, this.kinds, d.id);
        await tx.execute(`UPDATE resources SET deletion_info = ? WHERE id = ?`, [JSON.stringify({ effective_deletion_policy: effectivePolicyOf(graph, d.id) }), d.id]);
        await tx.execute(
          `INSERT INTO resource_index (id, kind, name, stream, owner_id, created_time, tenant) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO NOTHING`,
          [d.id, d.kind, d.name, recorded.stream, d.owner_references?.id ?? null, d.created_time, d.tenant ? JSON.stringify(d.tenant) : null],
        );
        // A deleting resource it references now waits for it (InUse).
        for (const target of await this.referencedBy(tx, d.id)) await this.refresh(tx, target);
        return;
      }
      case 'SpecChanged': {
        const d = event.data;
        await tx.execute(
          `UPDATE resources SET spec = ?, labels = ?, generation = ?, updated_time = ?, updated_by = ?, deletion_policy = ?, refs = ? WHERE id = ?`,
          [
            JSON.stringify(d.spec), JSON.stringify(d.labels), d.generation, d.updated_time, d.updated_by,
            d.deletion_policy ?? null, d.references ? JSON.stringify(d.references) : null, d.id,
          ],
        );
        const oldTargets = await this.referencedBy(tx, d.id);
        await this.indexReferences(tx, d.id, d.references);
        await this.indexLabels(tx, d.id, d.labels);
        // Children inherit the effective deletion policy; targets no longer referenced may stop being InUse,
        // newly referenced ones start.
        await this.refreshSubtree(tx, d.id);
        for (const target of new Set([...oldTargets, ...(await this.referencedBy(tx, d.id))])) await this.refresh(tx, target);
        return;
      }
      case 'DeletionRequested': {
        const d = event.data;
        await tx.execute(
          `UPDATE resources SET generation = ?, deleted_time = ?, deleted_by = ?, updated_time = ?, updated_by = ?, effective_policy = ? WHERE id = ?`,
          [d.generation, d.deleted_time, d.deleted_by, d.deleted_time, d.deleted_by, d.deletion_policy ?? 'Delete', d.id],
        );
        const info: Partial<DeletionInfo> = {
          deletion_propagation: d.deletion_propagation ?? DEFAULT_PROPAGATION_POLICY,
          ...(d.required_adapters ? { deletion_required_adapters: d.required_adapters } : {}),
          ...(d.deletion_policy_source ? { recorded_source: d.deletion_policy_source } : {}),
        };
        await tx.execute(`UPDATE resources SET deletion_info = ? WHERE id = ?`, [JSON.stringify(info), d.id]);
        // A DELETE's own target (not a cascaded member): what the deletion budget counts.
        if (!d.cascaded_from) {
          await tx.execute(
            `INSERT INTO deletion_requests (id, kind, tenant, deleted_time) SELECT id, kind, COALESCE(tenant, ''), ? FROM resources WHERE id = ? ON CONFLICT (id) DO NOTHING`,
            [d.deleted_time, d.id],
          );
        }
        await this.refreshWithOwner(tx, d.id);
        // A new deleting resource may close a wait cycle: every member shows it.
        for (const member of cycleMembers(await this.storedStatus(tx, d.id))) if (member !== d.id) await this.refresh(tx, member);
        return;
      }
      case 'AdapterStatusReported': {
        const { id, status } = event.data;
        await tx.execute(
          `INSERT INTO adapter_statuses (resource_id, adapter, observed_generation, conditions, metadata, data, created_time, last_report_time)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (resource_id, adapter) DO UPDATE SET observed_generation = excluded.observed_generation,
             conditions = excluded.conditions, metadata = excluded.metadata, data = excluded.data,
             created_time = excluded.created_time, last_report_time = excluded.last_report_time`,
          [
            id, status.adapter, status.observed_generation, JSON.stringify(status.conditions),
            status.metadata === undefined ? null : JSON.stringify(status.metadata),
            status.data === undefined ? null : JSON.stringify(status.data),
            status.created_time, status.last_report_time,
          ],
        );
        await this.refresh(tx, id, true);
        return;
      }
      case 'HardDeleted': {
        const d = event.data;
        const targets = await this.referencedBy(tx, d.id);
        const ancestors = await this.ancestors(tx, d.id);
        // A cycle it was part of is broken: its other members stop showing it.
        const members = cycleMembers(await this.storedStatus(tx, d.id));
        await tx.execute(`DELETE FROM adapter_statuses WHERE resource_id = ?`, [d.id]);
        await tx.execute(`DELETE FROM resources WHERE id = ?`, [d.id]);
        await tx.execute(`DELETE FROM finalizing WHERE id = ?`, [d.id]);
        await tx.execute(`DELETE FROM resource_references WHERE referrer_id = ?`, [d.id]);
        await tx.execute(`DELETE FROM resource_labels WHERE resource_id = ?`, [d.id]);
        await tx.execute(`UPDATE resource_index SET hard_deleted_time = ?, hard_delete_cause = ? WHERE id = ?`, [
          d.hard_deleted_time, d.cause, d.id,
        ]);
        // The owner's Reconciled depends on its remaining child records; every ancestor's dependents and
        // every target's referrers shrank.
        if (d.owner_references && !ancestors.includes(d.owner_references.id)) ancestors.unshift(d.owner_references.id);
        for (const id of new Set([...ancestors, ...targets, ...members])) if (id !== d.id) await this.refresh(tx, id);
        return;
      }
      case 'DeletionStarted':
        await tx.execute(`UPDATE resources SET deletion_started = 1 WHERE id = ?`, [event.data.id]);
        await this.refresh(tx, event.data.id);
        return;
      case 'ResourcePaused': {
        const d = event.data;
        await tx.execute(`UPDATE resources SET paused = ?, ever_paused = 1 WHERE id = ?`, [
          JSON.stringify({ caller: d.caller, reason: d.reason, time: d.paused_time }), d.id,
        ]);
        await this.refreshSubtree(tx, d.id);
        for (const ancestor of await this.ancestors(tx, d.id)) await this.refresh(tx, ancestor);
        return;
      }
      case 'ResourceUnpaused':
        await tx.execute(`UPDATE resources SET paused = NULL WHERE id = ?`, [event.data.id]);
        await this.refreshSubtree(tx, event.data.id);
        for (const ancestor of await this.ancestors(tx, event.data.id)) await this.refresh(tx, ancestor);
        return;
      case 'ForceOrphaned': {
        const d = event.data;
        await tx.execute(`UPDATE resources SET force_orphan = ? WHERE id = ?`, [
          JSON.stringify({ caller: d.caller, reason: d.reason, time: d.force_orphaned_time }), d.id,
        ]);
        // The break-glass reaches every subresource (docs/policies.md): each refresh stores the domain's
        // effective policy, which the force-orphan of an ancestor turns to Orphan.
        for (const id of await this.subtree(tx, d.id)) await this.refresh(tx, id);
        return;
      }
      case 'DeletionProtectionChanged': {
        const d = event.data;
        const mark = d.deletion_protection ? JSON.stringify({ caller: d.caller, reason: d.reason ?? '', time: d.changed_time }) : null;
        await tx.execute(`UPDATE resources SET deletion_protection = ? WHERE id = ?`, [mark, d.id]);
        return;
      }
      case 'AdapterFinalized':
      case 'AdapterStatusDiscarded':
      case 'Orphaned':
      case 'ForceDeleted':
        // Audit facts; history queries read them from the event store.
        return;
    }
  }

  private async row(tx: ReadModelTx, id: string): Promise<ResourceRow | undefined> {
    return (await tx.query<ResourceRow>(`SELECT * FROM resources WHERE id = ?`, [id]))[0];
  }

  private async indexReferences(tx: ReadModelTx, id: string, references: Readonly<Record<string, readonly { id: string; kind: string }[]>> | undefined): Promise<void> {
    await tx.execute(`DELETE FROM resource_references WHERE referrer_id = ?`, [id]);
    for (const [refType, targets] of Object.entries(references ?? {})) {
      for (const target of targets) {
        await tx.execute(
          `INSERT INTO resource_references (referrer_id, ref_type, target_id, target_kind) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
          [id, refType, target.id, target.kind],
        );
      }
    }
  }

  /** Mirrors a resource's labels into `resource_labels` (replacing what was there). */
  private async indexLabels(tx: ReadModelTx, id: string, labels: Readonly<Record<string, string>> | undefined): Promise<void> {
    await tx.execute(`DELETE FROM resource_labels WHERE resource_id = ?`, [id]);
    for (const [key, value] of Object.entries(labels ?? {})) {
      await tx.execute(`INSERT INTO resource_labels (resource_id, key, value) VALUES (?, ?, ?)`, [id, key, value]);
    }
  }

  /** Ids of the stored resources `id` references. */
  private async referencedBy(tx: ReadModelTx, id: string): Promise<string[]> {
    const rows = await tx.query<{ target_id: string }>(`SELECT DISTINCT target_id FROM resource_references WHERE referrer_id = ? ORDER BY target_id`, [id]);
    return rows.map((r) => r.target_id);
  }

  /** The deletion status stored on the row by its last refresh (deleting resources only). */
  private async storedStatus(tx: ReadModelTx, id: string): Promise<DeletionStatus | undefined> {
    const row = await this.row(tx, id);
    return row ? parseInfo(row).deletion_status : undefined;
  }

  /** `id` and all its stored descendants, parents before children. */
  private async subtree(tx: ReadModelTx, id: string): Promise<string[]> {
    const out = [id];
    for (let i = 0; i < out.length; i++) {
      const children = await tx.query<{ id: string }>(`SELECT id FROM resources WHERE owner_id = ? ORDER BY id`, [out[i]]);
      out.push(...children.map((c) => c.id));
    }
    return out;
  }

  private async refreshSubtree(tx: ReadModelTx, id: string): Promise<void> {
    for (const member of await this.subtree(tx, id)) await this.refresh(tx, member);
  }

  /** `id`'s stored ancestors, nearest first. */
  private async ancestors(tx: ReadModelTx, id: string): Promise<string[]> {
    const out: string[] = [];
    let current = await this.row(tx, id);
    while (current?.owner_id) {
      out.push(current.owner_id);
      current = await this.row(tx, current.owner_id);
    }
    return out;
  }

  private async refreshWithOwner(tx: ReadModelTx, id: string): Promise<void> {
    const row = await this.refresh(tx, id);
    if (row?.owner_id) await this.refresh(tx, row.owner_id);
  }

  /**
   * Recomputes one resource's deletion status, `status.conditions` and Finalizing row from its stored rows;
   * then, while stored statuses change, those of the resources they reference: a target's `InUse` blocker
   * shows each referrer's own blockers. Bounded by `MAX_PROPAGATED_REFRESHES`.
   */
  private async refresh(tx: ReadModelTx, id: string, statusReport = false): Promise<ResourceRow | undefined> {
    const first = await this.refreshOne(tx, id, statusReport);
    const queue = first?.changed ? await this.referencedBy(tx, id) : [];
    for (let i = 0; i < queue.length && i < MAX_PROPAGATED_REFRESHES; i++) {
      const target = queue[i]!;
      const refreshed = await this.refreshOne(tx, target, false);
      if (!refreshed?.changed) continue;
      for (const next of await this.referencedBy(tx, target)) if (next !== id && !queue.slice(i + 1).includes(next)) queue.push(next);
    }
    return first?.row;
  }

  /** One resource's refresh; `changed` when its stored deletion status differs from before. */
  private async refreshOne(tx: ReadModelTx, id: string, statusReport: boolean): Promise<{ row: ResourceRow; changed: boolean } | undefined> {
    const row = await this.row(tx, id);
    if (!row) return undefined;
    const statuses = await tx.query<AdapterStatusRow>(`SELECT * FROM adapter_statuses WHERE resource_id = ?`, [id]);
    const children = await tx.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM resources WHERE owner_id = ?`, [id]);
    const info = parseInfo(row);
    const graph = await loadDeletionGraph(tx, this.kinds, id);
    // The one deletion truth (libs/domain deletion-status.ts): stored as is, and every input below comes from it.
    const status = deletionStatus(graph, id);
    const pause = status ? pauseBlockerOf(status) : pauseOf(graph, id);
    const { deletion_status: before, ...kept } = info;
    const effective = status?.effective_policy ?? effectivePolicyOf(graph, id);
    const stored: Partial<DeletionInfo> = { ...kept, effective_deletion_policy: effective, ...(status ? { deletion_status: status } : {}) };
    await tx.execute(`UPDATE resources SET deletion_info = ? WHERE id = ?`, [JSON.stringify(stored), id]);
    // Once deleting, the policy column (the API's `deletion_policy`) holds the domain's answer too.
    const policy = row.deleted_time ? effective.policy : row.effective_policy;
    if (row.deleted_time && policy !== row.effective_policy) await tx.execute(`UPDATE resources SET effective_policy = ? WHERE id = ?`, [policy, id]);
    const input = {
      generation: Number(row.generation),
      ...(row.deleted_time ? { deleted_time: row.deleted_time } : {}),
      // During a deletion, the adapter set frozen at DeletionRequested.
      required_adapters: status?.required_adapters ?? this.kinds.find(row.kind)?.required_adapters ?? [],
      adapter_statuses: Object.fromEntries(statuses.map((s) => [s.adapter, toAdapterStatus(s)])),
      child_record_count: Number(children[0]?.n ?? 0),
    };
    const previous = JSON.parse(row.conditions) as ResourceCondition[];
    const base = computeResourceConditions({
      blockers: status ? conditionBlockersOf(status) : [],
      ...input,
      created_time: row.created_time,
      updated_time: row.updated_time,
      previous,
      ...(pause ? { paused_by: pausedByOf(pause) } : {}),
      ever_paused: Number(row.ever_paused) === 1,
      deletion_started: Number(row.deletion_started) === 1,
      ...(policy ? { deletion_policy: policy } : {}),
      now: recordedTime(this.currentEvent),
    });
    const conditions = [...base, ...this.mappedConditions(row, statuses, base, previous, statusReport)];
    await tx.execute(`UPDATE resources SET conditions = ? WHERE id = ?`, [JSON.stringify(conditions), id]);
    if (row.deleted_time) {
      const verdict = computeReconciled(input);
      const unhealthy = Object.values(input.adapter_statuses)
        .map((s) => ({ adapter: s.adapter, health: s.conditions.find((c) => c.type === ConditionType.Health) }))
        .filter((h) => h.health?.status === 'False')
        .map((h) => ({ adapter: h.adapter, reason: h.health?.reason ?? '', message: h.health?.message ?? '' }));
      await tx.execute(
        `INSERT INTO finalizing (id, kind, name, href, generation, deleted_time, deleted_by, waiting_on, unhealthy,
           children_remaining, reconciled_reason, reconciled_message)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET generation = excluded.generation, waiting_on = excluded.waiting_on,
           unhealthy = excluded.unhealthy, children_remaining = excluded.children_remaining,
           reconciled_reason = excluded.reconciled_reason, reconciled_message = excluded.reconciled_message`,
        [
          row.id, row.kind, row.name, row.href, Number(row.generation), row.deleted_time, row.deleted_by ?? '',
          JSON.stringify(verdict.missing_adapters), JSON.stringify(unhealthy), input.child_record_count,
          verdict.reason, verdict.message,
        ],
      );
    }
    return { row, changed: JSON.stringify(before) !== JSON.stringify(status) };
  }

  /**
   * HyperFleet condition mapping (contract §8.3): evaluated on each status report only, after the
   * aggregated conditions; any other refresh keeps the mapped conditions as they were.
   */
  private mappedConditions(
    row: ResourceRow,
    statuses: readonly AdapterStatusRow[],
    base: readonly ResourceCondition[],
    previous: readonly ResourceCondition[],
    statusReport: boolean,
  ): ResourceCondition[] {
    const rules = this.kinds.find(row.kind)?.conditions ?? [];
    if (rules.length === 0) return [];
    if (!statusReport) {
      const types = new Set(rules.map((r) => r.type));
      return previous.filter((c) => types.has(c.type));
    }
    const result = mapConditions({
      rules,
      statuses: statuses.map(toAdapterStatus),
      resource: presentResource({ ...row, conditions: JSON.stringify(base) }) as unknown as Record<string, unknown>,
      generation: Number(row.generation),
      previous,
      now: recordedTime(this.currentEvent),
    });
    for (const s of result.skipped) conditionMappingLog.warn(`${row.kind} ${row.id}: condition ${s.type} skipped for this report: ${s.reason}`);
    for (const t of result.truncated) conditionMappingLog.log(`${row.kind} ${row.id}: condition ${t} message truncated to 2048 characters`);
    return result.conditions;
  }
}

const conditionMappingLog = new Logger('ConditionMapping');

function parseInfo(row: ResourceRow): Partial<DeletionInfo> {
  return row.deletion_info ? (JSON.parse(row.deletion_info) as Partial<DeletionInfo>) : {};
}

/** Refreshes set off by one change, beyond the changed resource itself (a long reference chain is cut there). */
const MAX_PROPAGATED_REFRESHES = 200;

/** The members of the stored status's `DependencyCycle`, first repeated last; none without one. */
function cycleMembers(status: DeletionStatus | undefined): string[] {
  const cycle = status?.blockers.find((b) => b.type === 'DependencyCycle');
  return cycle?.type === 'DependencyCycle' ? cycle.members.map((m) => m.id) : [];
}

/** The stored status's `Paused` blocker, as the pause mark it carries. */
function pauseBlockerOf(status: DeletionStatus): PauseMark | undefined {
  const paused = status.blockers.find((b) => b.type === 'Paused');
  if (paused?.type !== 'Paused') return undefined;
  const { type: _type, message: _message, ...mark } = paused;
  return mark;
}

/** A pause mark as the conditions' `paused_by` input. */
function pausedByOf(pause: PauseMark): NonNullable<ResourceConditionsInput['paused_by']> {
  return { id: pause.resource.id, kind: pause.resource.kind, reason: pause.reason, self: pause.source === 'self', ...(pause.source === 'dependent' ? { dependent: true } : {}) };
}

function recordedTime(event: RecordedEvent | undefined): string {
  return event?.recorded_time ?? new Date(0).toISOString();
}
