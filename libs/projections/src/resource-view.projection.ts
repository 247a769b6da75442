/**
 * Projects resource-tree events into the resource view (resources, adapter statuses, index) and the
 * Finalizing dashboard. Conditions are recomputed with the domain's pure functions after every change
 * to a resource, its adapter statuses or its children (seed 000 §Reconciled). A deleting
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
  type ResourceEvent,
  type AdapterStatus,
} from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import { Logger } from '@nestjs/common';
export { toAdapterStatus } from './adapter-status-row.js';
import { mapConditions } from './condition-mapping.js';
import { loadDeletionGraph } from './deletion-graph.loader.js';
import { presentResource } from './resource-presenter.js';
import { resourceHref } from './resource-href.js';
import { RESOURCE_VIEW_SCHEMA, RESOURCE_VIEW_TABLES, type DeletionInfo, type ResourceRow } from './resource-view.schema.js';
import type { Projection, ReadModelTx } from './runner/index.js';
import { ResourceViewWorkingSet } from './resource-view.working-set.js';

export class ResourceViewProjection implements Projection {
  readonly name = 'resource-view';
  readonly schema = RESOURCE_VIEW_SCHEMA;
  readonly tables = RESOURCE_VIEW_TABLES;

  constructor(private readonly kinds: KindRegistry) {}

  /** The event being applied: Decom's own conditions take their times from it, so a rebuild yields the same rows. */
  private currentEvent?: RecordedEvent;

  async apply(recorded: RecordedEvent, tx: ReadModelTx): Promise<void> {
    await this.applyBatch([recorded], tx);
  }

  /**
   * Applies `events` (ascending) through one working set: the rows they touch are read in a few statements
   * first, changed in memory event by event, and written back at the end; the rows left are those of
   * `apply` per event.
   */
  async applyBatch(events: readonly RecordedEvent[], tx: ReadModelTx): Promise<void> {
    const batch = events
      .filter((recorded) => isResourceEvent({ type: recorded.type }))
      .map((recorded) => ({ recorded, event: upcastResourceEvent(recorded) }));
    if (batch.length === 0) return;
    const rows = new ResourceViewWorkingSet(tx);
    await rows.prefetch(batch.flatMap(({ event }) => touchedIds(event.data)));
    for (const { recorded, event } of batch) {
      this.currentEvent = recorded;
      await this.applyOne(recorded, event, rows);
    }
    await rows.flush();
  }

  private async applyOne(recorded: RecordedEvent, event: ResourceEvent, tx: ResourceViewWorkingSet): Promise<void> {
    switch (event.type) {
      case 'ResourceCreated': {
        const d = event.data;
        const owner = d.owner_references ? await tx.row(d.owner_references.id) : undefined;
        const href = resourceHref(this.kinds, d.kind, d.id, owner?.href);
        const required = this.kinds.find(d.kind)?.required_adapters ?? [];
        await tx.insertRow({
          id: d.id,
          kind: d.kind,
          name: d.name,
          href,
          stream: recorded.stream,
          owner_id: d.owner_references?.id ?? null,
          owner_kind: d.owner_references?.kind ?? null,
          owner_href: owner?.href ?? null,
          spec: JSON.stringify(d.spec),
          labels: JSON.stringify(d.labels),
          generation: d.generation,
          created_time: d.created_time,
          updated_time: d.created_time,
          created_by: d.created_by,
          updated_by: d.created_by,
          deleted_time: null,
          deleted_by: null,
          conditions: JSON.stringify(initialResourceConditions(d.created_time, required)),
          deletion_policy: d.deletion_policy ?? null,
          refs: d.references ? JSON.stringify(d.references) : null,
          tenant: d.tenant ? JSON.stringify(d.tenant) : null,
        });
        await this.indexReferences(tx, d.id, d.references);
        tx.setLabels(d.id, d.labels);
        // The effective deletion policy and its source, visible from the start.
        const graph = await loadDeletionGraph(tx, this.kinds, d.id);
        await tx.updateRow(d.id, { deletion_info: JSON.stringify({ effective_deletion_policy: effectivePolicyOf(graph, d.id) }) });
        tx.insertIndex({
          id: d.id,
          kind: d.kind,
          name: d.name,
          stream: recorded.stream,
          owner_id: d.owner_references?.id ?? null,
          created_time: d.created_time,
          hard_deleted_time: null,
          hard_delete_cause: null,
          tenant: d.tenant ? JSON.stringify(d.tenant) : null,
        });
        // A deleting resource it references now waits for it (InUse).
        for (const target of await tx.referencedBy(d.id)) await this.refresh(tx, target);
        return;
      }
      case 'SpecChanged': {
        const d = event.data;
        await tx.updateRow(d.id, {
          spec: JSON.stringify(d.spec),
          labels: JSON.stringify(d.labels),
          generation: d.generation,
          updated_time: d.updated_time,
          updated_by: d.updated_by,
          deletion_policy: d.deletion_policy ?? null,
          refs: d.references ? JSON.stringify(d.references) : null,
        });
        const oldTargets = await tx.referencedBy(d.id);
        await this.indexReferences(tx, d.id, d.references);
        tx.setLabels(d.id, d.labels);
        // Children inherit the effective deletion policy; targets no longer referenced may stop being InUse,
        // newly referenced ones start.
        await this.refreshSubtree(tx, d.id);
        for (const target of new Set([...oldTargets, ...(await tx.referencedBy(d.id))])) await this.refresh(tx, target);
        return;
      }
      case 'DeletionRequested': {
        const d = event.data;
        await tx.updateRow(d.id, {
          generation: d.generation,
          deleted_time: d.deleted_time,
          deleted_by: d.deleted_by,
          updated_time: d.deleted_time,
          updated_by: d.deleted_by,
          effective_policy: d.deletion_policy ?? 'Delete',
        });
        const info: Partial<DeletionInfo> = {
          deletion_propagation: d.deletion_propagation ?? DEFAULT_PROPAGATION_POLICY,
          ...(d.required_adapters ? { deletion_required_adapters: d.required_adapters } : {}),
          ...(d.deletion_policy_source ? { recorded_source: d.deletion_policy_source } : {}),
        };
        await tx.updateRow(d.id, { deletion_info: JSON.stringify(info) });
        // A DELETE's own target (not a cascaded member): what the deletion budget counts.
        const target = d.cascaded_from ? undefined : await tx.row(d.id);
        if (target)
          tx.insertDeletionRequest({ id: target.id, kind: target.kind, tenant: target.tenant ?? '', deleted_time: d.deleted_time });
        await this.refreshWithOwner(tx, d.id);
        // A new deleting resource may close a wait cycle: every member shows it.
        for (const member of cycleMembers(await this.storedStatus(tx, d.id))) if (member !== d.id) await this.refresh(tx, member);
        return;
      }
      case 'AdapterStatusReported': {
        const { id, status } = event.data;
        await tx.putStatus({
          resource_id: id,
          adapter: status.adapter,
          observed_generation: status.observed_generation,
          conditions: JSON.stringify(status.conditions),
          metadata: status.metadata === undefined ? null : JSON.stringify(status.metadata),
          data: status.data === undefined ? null : JSON.stringify(status.data),
          created_time: status.created_time,
          last_report_time: status.last_report_time,
        });
        await this.refresh(tx, id, true);
        return;
      }
      case 'HardDeleted': {
        const d = event.data;
        const targets = await tx.referencedBy(d.id);
        const ancestors = await this.ancestors(tx, d.id);
        // A cycle it was part of is broken: its other members stop showing it.
        const members = cycleMembers(await this.storedStatus(tx, d.id));
        tx.deleteStatuses(d.id);
        await tx.deleteRow(d.id);
        tx.deleteFinalizing(d.id);
        await tx.setReferences(d.id, []);
        tx.setLabels(d.id, undefined);
        tx.markIndexHardDeleted(d.id, d.hard_deleted_time, d.cause);
        // The owner's Reconciled depends on its remaining child records; every ancestor's dependents and
        // every target's referrers shrank.
        if (d.owner_references && !ancestors.includes(d.owner_references.id)) ancestors.unshift(d.owner_references.id);
        for (const id of new Set([...ancestors, ...targets, ...members])) if (id !== d.id) await this.refresh(tx, id);
        return;
      }
      case 'DeletionStarted':
        await tx.updateRow(event.data.id, { deletion_started: 1 });
        await this.refresh(tx, event.data.id);
        return;
      case 'ResourcePaused': {
        const d = event.data;
        await tx.updateRow(d.id, { paused: JSON.stringify({ caller: d.caller, reason: d.reason, time: d.paused_time }), ever_paused: 1 });
        await this.refreshSubtree(tx, d.id);
        for (const ancestor of await this.ancestors(tx, d.id)) await this.refresh(tx, ancestor);
        return;
      }
      case 'ResourceUnpaused':
        await tx.updateRow(event.data.id, { paused: null });
        await this.refreshSubtree(tx, event.data.id);
        for (const ancestor of await this.ancestors(tx, event.data.id)) await this.refresh(tx, ancestor);
        return;
      case 'ForceOrphaned': {
        const d = event.data;
        await tx.updateRow(d.id, { force_orphan: JSON.stringify({ caller: d.caller, reason: d.reason, time: d.force_orphaned_time }) });
        // The break-glass reaches every subresource (docs/policies.md): each refresh stores the domain's
        // effective policy, which the force-orphan of an ancestor turns to Orphan.
        for (const id of await this.subtree(tx, d.id)) await this.refresh(tx, id);
        return;
      }
      case 'DeletionProtectionChanged': {
        const d = event.data;
        const mark = d.deletion_protection ? JSON.stringify({ caller: d.caller, reason: d.reason ?? '', time: d.changed_time }) : null;
        await tx.updateRow(d.id, { deletion_protection: mark });
        return;
      }
      case 'LeftoverObjectsFound': {
        const d = event.data;
        const row = await tx.row(d.id);
        if (!row) return;
        // Stored as recorded: the domain's deletionStatus turns it into blockers on the refresh.
        const leftovers = { objects: d.objects, unverified: d.unverified, checked_time: d.checked_time };
        await tx.updateRow(d.id, { deletion_info: JSON.stringify({ ...tx.deletionInfo(row), leftovers }) });
        await this.refresh(tx, d.id);
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

  private async indexReferences(
    tx: ResourceViewWorkingSet,
    id: string,
    references: Readonly<Record<string, readonly { id: string; kind: string }[]>> | undefined,
  ): Promise<void> {
    const rows = Object.entries(references ?? {}).flatMap(([refType, targets]) =>
      targets.map((target) => ({ referrer_id: id, ref_type: refType, target_id: target.id, target_kind: target.kind })),
    );
    await tx.setReferences(id, rows);
  }

  /** The deletion status stored on the row by its last refresh (deleting resources only). */
  private async storedStatus(tx: ResourceViewWorkingSet, id: string): Promise<DeletionStatus | undefined> {
    const row = await tx.row(id);
    return row ? tx.deletionInfo(row).deletion_status : undefined;
  }

  /** `id` and all its stored descendants, parents before children. */
  private async subtree(tx: ResourceViewWorkingSet, id: string): Promise<string[]> {
    const out = [id];
    for (let i = 0; i < out.length; i++) out.push(...(await tx.childIds(out[i]!)));
    return out;
  }

  private async refreshSubtree(tx: ResourceViewWorkingSet, id: string): Promise<void> {
    for (const member of await this.subtree(tx, id)) await this.refresh(tx, member);
  }

  /** `id`'s stored ancestors, nearest first. */
  private async ancestors(tx: ResourceViewWorkingSet, id: string): Promise<string[]> {
    const out: string[] = [];
    let current = await tx.row(id);
    while (current?.owner_id) {
      out.push(current.owner_id);
      current = await tx.row(current.owner_id);
    }
    return out;
  }

  private async refreshWithOwner(tx: ResourceViewWorkingSet, id: string): Promise<void> {
    const row = await this.refresh(tx, id);
    if (row?.owner_id) await this.refresh(tx, row.owner_id);
  }

  /**
   * Recomputes one resource's deletion status, `status.conditions` and Finalizing row from its stored rows;
   * then, while stored statuses change, those of the resources they reference: a target's `InUse` blocker
   * shows each referrer's own blockers. Bounded by `MAX_PROPAGATED_REFRESHES`.
   */
  private async refresh(tx: ResourceViewWorkingSet, id: string, statusReport = false): Promise<ResourceRow | undefined> {
    const first = await this.refreshOne(tx, id, statusReport);
    const queue = first?.changed ? await tx.referencedBy(id) : [];
    for (let i = 0; i < queue.length && i < MAX_PROPAGATED_REFRESHES; i++) {
      const target = queue[i]!;
      const refreshed = await this.refreshOne(tx, target, false);
      if (!refreshed?.changed) continue;
      for (const next of await tx.referencedBy(target)) if (next !== id && !queue.slice(i + 1).includes(next)) queue.push(next);
    }
    return first?.row;
  }

  /** One resource's refresh; `changed` when its stored deletion status differs from before. */
  private async refreshOne(
    tx: ResourceViewWorkingSet,
    id: string,
    statusReport: boolean,
  ): Promise<{ row: ResourceRow; changed: boolean } | undefined> {
    const row = await tx.row(id);
    if (!row) return undefined;
    const statuses = await tx.statusesOf([id]);
    const adapterStatuses = statuses.map((s) => tx.adapterStatus(s));
    const childCount = (await tx.childIds(id)).length;
    const info = tx.deletionInfo(row);
    const graph = await loadDeletionGraph(tx, this.kinds, id);
    // The one deletion truth (libs/domain deletion-status.ts): stored as is, and every input below comes from it.
    const status = deletionStatus(graph, id);
    const pause = status ? pauseBlockerOf(status) : pauseOf(graph, id);
    const { deletion_status: before, ...kept } = info;
    const effective = status?.effective_policy ?? effectivePolicyOf(graph, id);
    const stored: Partial<DeletionInfo> = { ...kept, effective_deletion_policy: effective, ...(status ? { deletion_status: status } : {}) };
    // Once deleting, the policy column (the API's `deletion_policy`) holds the domain's answer too.
    const policy = row.deleted_time ? effective.policy : row.effective_policy;
    const changes = {
      deletion_info: JSON.stringify(stored),
      ...(row.deleted_time && policy !== row.effective_policy ? { effective_policy: policy } : {}),
    };
    const input = {
      generation: Number(row.generation),
      ...(row.deleted_time ? { deleted_time: row.deleted_time } : {}),
      // During a deletion, the adapter set frozen at DeletionRequested.
      required_adapters: status?.required_adapters ?? this.kinds.find(row.kind)?.required_adapters ?? [],
      adapter_statuses: Object.fromEntries(adapterStatuses.map((s) => [s.adapter, s])),
      child_record_count: childCount,
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
    const conditions = [...base, ...this.mappedConditions(row, adapterStatuses, base, previous, statusReport)];
    await tx.updateRow(id, { ...changes, conditions: JSON.stringify(conditions) });
    if (row.deleted_time) {
      const verdict = computeReconciled(input);
      const unhealthy = Object.values(input.adapter_statuses)
        .map((s) => ({ adapter: s.adapter, health: s.conditions.find((c) => c.type === ConditionType.Health) }))
        .filter((h) => h.health?.status === 'False')
        .map((h) => ({ adapter: h.adapter, reason: h.health?.reason ?? '', message: h.health?.message ?? '' }));
      tx.putFinalizing({
        id: row.id,
        kind: row.kind,
        name: row.name,
        href: row.href,
        generation: Number(row.generation),
        deleted_time: row.deleted_time,
        deleted_by: row.deleted_by ?? '',
        waiting_on: JSON.stringify(verdict.missing_adapters),
        unhealthy: JSON.stringify(unhealthy),
        children_remaining: input.child_record_count,
        reconciled_reason: verdict.reason,
        reconciled_message: verdict.message,
      });
    }
    return { row, changed: JSON.stringify(before) !== JSON.stringify(status) };
  }

  /**
   * HyperFleet condition mapping (hyperfleet-api `docs/condition-mapping.md`): evaluated on each status report only,
   * after the aggregated conditions; any other refresh keeps the mapped conditions as they were.
   */
  private mappedConditions(
    row: ResourceRow,
    statuses: readonly AdapterStatus[],
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
      statuses,
      resource: presentResource({ ...row, conditions: JSON.stringify(base) }) as unknown as Record<string, unknown>,
      generation: Number(row.generation),
      previous,
      now: recordedTime(this.currentEvent),
    });
    for (const s of result.skipped)
      conditionMappingLog.warn(`${row.kind} ${row.id}: condition ${s.type} skipped for this report: ${s.reason}`);
    for (const t of result.truncated) conditionMappingLog.log(`${row.kind} ${row.id}: condition ${t} message truncated to 2048 characters`);
    return result.conditions;
  }
}

const conditionMappingLog = new Logger('ConditionMapping');

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
  return {
    id: pause.resource.id,
    kind: pause.resource.kind,
    reason: pause.reason,
    self: pause.source === 'self',
    ...(pause.source === 'dependent' ? { dependent: true } : {}),
  };
}

/** The resources an event names (its subject, owner and reference targets): what its batch reads first. */
function touchedIds(data: ResourceEvent['data']): string[] {
  const named = data as {
    id?: string;
    owner_references?: { id: string };
    references?: Readonly<Record<string, readonly { id: string }[]>>;
  };
  return [
    ...(named.id ? [named.id] : []),
    ...(named.owner_references ? [named.owner_references.id] : []),
    ...Object.values(named.references ?? {}).flatMap((targets) => targets.map((target) => target.id)),
  ];
}

function recordedTime(event: RecordedEvent | undefined): string {
  return event?.recorded_time ?? new Date(0).toISOString();
}
