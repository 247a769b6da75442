/**
 * Pure decisions: command + current tree state → events to append, or a thrown domain error.
 * No I/O, no clock (time and caller arrive on `command.metadata`).
 */
import { ConditionType, conditionStatus } from './conditions.js';
import {
  ActiveChildrenRestrict,
  CascadeThroughLiveReference,
  DependencyCycle,
  InvalidParent,
  LiveReferrers,
  MutationWhileFinalizing,
  NameAlreadyTaken,
  NotFinalizing,
  ResourceNotFound,
  ValidationFailed,
} from './errors.js';
import { evolve } from './evolve.js';
import type { KindRegistry } from './kinds.js';
import { isHardDeleteAllowed } from './reconciled.js';
import { effectiveDeletionPolicyWithSource, pausedBy } from './policies.js';
import { referenceEdgeFrom } from './referrer-facts.js';
import { DEFAULT_PROPAGATION_POLICY, findWaitCycle, type PropagationPolicy } from './deletion-order.js';
import { decideForceOrphan, decideSetPaused, requireReason } from './decide-operator-actions.js';
import { protectionChange, refuseProtected } from './deletion-protection.js';
import { decideAbandonAdapter } from './abandon-adapter.js';
import { requiredAdaptersOf } from './required-adapters.js';
import { adaptersToVerify, cleanupVerdict, sameLeftovers } from './cleanup-verification.js';

export { requiredAdaptersOf } from './required-adapters.js';
import type {
  CreateResource,
  ForceDelete,
  HardDelete,
  PatchResource,
  ReportAdapterStatus,
  ReferenceEdge,
  RequestDeletion,
  ResourceCommand,
} from './resource.commands.js';
import type { AdapterStatus, ResourceEvent } from './resource.events.js';
import { childrenOf, descendantsBottomUp, isFinalizing, type ResourceState, type TreeState } from './resource.state.js';
import { discardReason, toAdapterStatus, validateReport } from './status-ingestion.js';
import { staleFence } from './fencing.js';

/** Force-delete reasons longer than this are refused (more than 1024 runes → 400). */
export const MAX_FORCE_DELETE_REASON_LENGTH = 1024;

export function decide(command: ResourceCommand, state: TreeState, kinds: KindRegistry): ResourceEvent[] {
  switch (command.type) {
    case 'CreateResource':
      return decideCreate(command, state, kinds);
    case 'PatchResource':
      return decidePatch(command, state);
    case 'RequestDeletion':
      return decideDeletion(command, state, kinds);
    case 'ReportAdapterStatus':
      return decideReport(command, state);
    case 'HardDelete':
      return decideHardDelete(command, state, kinds);
    case 'ForceDelete':
      return decideForceDelete(command, state);
    case 'SetPaused':
      return decideSetPaused(command, state);
    case 'ForceOrphan':
      return decideForceOrphan(command, state);
    case 'AbandonAdapter':
      return decideAbandonAdapter(command, state, kinds);
  }
}

function existing(state: TreeState, kind: string, id: string): ResourceState {
  const resource = state.resources.get(id);
  if (!resource || resource.kind !== kind) throw new ResourceNotFound(kind, id);
  return resource;
}

/**
 * Creates a resource at generation 1.
 * @throws InvalidParent when a child kind has no parent or the parent is of the wrong kind.
 * @throws ResourceNotFound when the parent does not exist.
 * @throws MutationWhileFinalizing when the parent is marked for deletion (seed 000 #12).
 * @throws NameAlreadyTaken for a sibling with the same name and kind.
 * With `deletion_protection: true` a `DeletionProtectionChanged` (creator, optional reason) follows the create.
 */
export function decideCreate(command: CreateResource, state: TreeState, kinds: KindRegistry): ResourceEvent[] {
  const descriptor = kinds.get(command.kind);
  if (state.resources.has(command.id)) throw new NameAlreadyTaken(command.kind, command.name, command.id);
  if (descriptor.parent_kind) {
    if (!command.owner || command.owner.kind !== descriptor.parent_kind) {
      throw new InvalidParent(`${command.kind} must be created under a ${descriptor.parent_kind}`);
    }
    const parent = existing(state, command.owner.kind, command.owner.id);
    if (isFinalizing(parent)) throw new MutationWhileFinalizing(parent.kind, parent.id);
  } else if (command.owner) {
    throw new InvalidParent(`${command.kind} is a top-level kind and takes no parent`);
  }
  // A child inherits its parent's tenancy (as HyperFleet scopes it); a top-level resource takes its creator's.
  const tenant = command.owner ? state.resources.get(command.owner.id)?.tenant : command.tenant;
  const sibling = [...state.resources.values()].find(
    (r) => r.kind === command.kind && r.name === command.name && r.owner_references?.id === command.owner?.id,
  );
  if (sibling) throw new NameAlreadyTaken(command.kind, command.name, sibling.id);
  return [
    {
      type: 'ResourceCreated',
      data: {
        id: command.id,
        kind: command.kind,
        name: command.name,
        spec: command.spec,
        labels: command.labels,
        ...(command.owner ? { owner_references: { id: command.owner.id, kind: command.owner.kind } } : {}),
        generation: 1,
        created_time: command.metadata.now,
        created_by: command.metadata.caller,
        ...(command.deletion_policy ? { deletion_policy: command.deletion_policy } : {}),
        ...(command.references && Object.keys(command.references).length > 0 ? { references: command.references } : {}),
        ...(tenant && Object.keys(tenant).length > 0 ? { tenant } : {}),
      },
    },
    ...protectionChange(
      { id: command.id, kind: command.kind },
      command.deletion_protection,
      command.deletion_protection_reason,
      command.metadata,
    ),
  ];
}

/**
 * Changes spec and/or labels; `generation + 1` only when something changed (a no-op PATCH records nothing).
 * A changed `deletion_protection` is recorded as `DeletionProtectionChanged` (no generation change).
 * @throws ResourceNotFound, MutationWhileFinalizing (seed 000 #12); ValidationFailed clearing protection without a reason.
 */
export function decidePatch(command: PatchResource, state: TreeState): ResourceEvent[] {
  const resource = existing(state, command.kind, command.id);
  if (isFinalizing(resource)) throw new MutationWhileFinalizing(resource.kind, resource.id);
  const protection = protectionChange(resource, command.deletion_protection, command.deletion_protection_reason, command.metadata);
  return [...specChange(command, resource), ...protection];
}

function specChange(command: PatchResource, resource: ResourceState): ResourceEvent[] {
  const spec = command.spec ?? resource.spec;
  const labels = command.labels ?? resource.labels;
  const policy = command.deletion_policy ?? resource.deletion_policy;
  const references = command.references ?? resource.references;
  if (
    sameJson(spec, resource.spec) &&
    sameJson(labels, resource.labels) &&
    policy === resource.deletion_policy &&
    sameJson(references ?? {}, resource.references ?? {})
  ) {
    return [];
  }
  return [
    {
      type: 'SpecChanged',
      data: {
        id: resource.id,
        kind: resource.kind,
        spec,
        labels,
        generation: resource.generation + 1,
        updated_time: command.metadata.now,
        updated_by: command.metadata.caller,
        ...(policy ? { deletion_policy: policy } : {}),
        ...(references ? { references } : {}),
      },
    },
  ];
}

/**
 * Marks a resource and every subresource for deletion: `deleted_time`, `deleted_by`, `generation + 1`.
 * Idempotent: an already-marked resource yields no event (same `deleted_time`, same generation).
 * Subresources already marked keep their `deleted_time`.
 * Each `DeletionRequested` records the effective deletion policy and its source, the propagation
 * (`command.propagation_policy`, else the kind's `deletion_propagation`, else `Background`) and the required
 * adapters frozen at this moment.
 * @throws ResourceNotFound; ActiveChildrenRestrict for an active child of a `restrict` kind.
 * @throws DeletionProtected when the resource or a descendant this DELETE would mark has `deletion_protection`.
 * @throws LiveReferrers (a live resource outside the cascade references the resource itself, seed 004 guard);
 *   CascadeThroughLiveReference (it references a descendant); both 409 unless `delete_for_move`
 *   and every such referrer is paused.
 * @throws DependencyCycle when the deletion's waits (InUse referrers, Foreground dependents, a record's wait for
 *   its children's hard delete) form a cycle.
 * @see seeds/000 "API Deletion Handling › Step 1: Mark for Deletion"; seed 004 "The order".
 */
export function decideDeletion(command: RequestDeletion, state: TreeState, kinds: KindRegistry): ResourceEvent[] {
  const resource = existing(state, command.kind, command.id);
  if (isFinalizing(resource)) return [];
  const members = [resource, ...descendantsBottomUp(state, resource.id)];
  // A protected resource is the plainest refusal: nothing else about this cascade matters until it is cleared.
  refuseProtected(resource, members);
  const cascade = new Set(members.map((m) => m.id));
  const propagationOf = (target: ResourceState): PropagationPolicy =>
    command.propagation_policy ?? kinds.find(target.kind)?.deletion_propagation ?? DEFAULT_PROPAGATION_POLICY;
  const edges = referenceEdges(command, state, resource.id);
  // Seed 004 guard, applied across the cascade: live referrers outside the cascade block it.
  const blocking = edges.filter((e) => !e.deleting && cascade.has(e.target_id) && !cascade.has(e.id));
  const forMove = command.delete_for_move === true && blocking.every((r) => r.paused);
  // A cycle of waits through this cascade can never resolve; say so before anything else. A move
  // (everything paused, seed 004) is let through: a resulting cycle shows as DeletionBlocked=True/DependencyCycle.
  if (!forMove) refuseCycles(resource, members, edges, state, propagationOf);
  if (blocking.length > 0 && !forMove) {
    const direct = blocking.filter((e) => e.target_id === resource.id);
    if (direct.length === blocking.length) throw new LiveReferrers(resource.kind, resource.id, uniqueReferrers(direct));
    throw new CascadeThroughLiveReference(
      resource.kind,
      resource.id,
      blocking.map((e) => {
        const target = state.resources.get(e.target_id)!;
        return { referenced: { id: target.id, kind: target.kind, name: target.name }, referrer: { id: e.id, kind: e.kind, name: e.name } };
      }),
    );
  }
  const events: ResourceEvent[] = [];
  const mark = (target: ResourceState, cascadedFrom?: string): void => {
    for (const childKind of kinds.childKindsOf(target.kind)) {
      const active = childrenOf(state, target.id).filter((c) => c.kind === childKind.kind && !isFinalizing(c));
      if ((childKind.on_parent_delete ?? 'cascade') === 'restrict' && active.length > 0) {
        throw new ActiveChildrenRestrict(
          target.kind,
          target.id,
          childKind.kind,
          active.map((c) => c.id),
        );
      }
    }
    const policy = effectiveDeletionPolicyWithSource(state, target);
    events.push({
      type: 'DeletionRequested',
      data: {
        id: target.id,
        kind: target.kind,
        generation: target.generation + 1,
        deleted_time: command.metadata.now,
        deleted_by: command.metadata.caller,
        ...(cascadedFrom ? { cascaded_from: cascadedFrom } : {}),
        deletion_policy: policy.policy,
        deletion_policy_source: policy.source,
        deletion_propagation: propagationOf(target),
        // Frozen here, so a later config change can neither strand nor shortcut this deletion.
        required_adapters: [...(kinds.find(target.kind)?.required_adapters ?? [])],
        ...(!cascadedFrom && command.budget_override_reason
          ? { deletion_budget_override: { caller: command.metadata.caller, reason: requireReason(command.budget_override_reason) } }
          : {}),
      },
    });
    for (const child of childrenOf(state, target.id)) {
      if (!isFinalizing(child)) mark(child, command.id);
    }
  };
  mark(resource);
  return events;
}

/**
 * The tree's own reference edges (the state knows every reference inside the tree, with today's facts) plus
 * the handler's edges, deduplicated; a referrer inside the tree is always weighed by the state's facts.
 */
function referenceEdges(command: RequestDeletion, state: TreeState, rootId: string): ReferenceEdge[] {
  const out = new Map<string, ReferenceEdge>();
  // A resource never waits for itself: a self-reference is no edge.
  const add = (edge: ReferenceEdge | undefined) =>
    edge && edge.id !== edge.target_id && out.set(`${edge.id}>${edge.target_id}`, out.get(`${edge.id}>${edge.target_id}`) ?? edge);
  for (const referrer of state.resources.values()) {
    for (const targets of Object.values(referrer.references ?? {})) {
      for (const t of targets) if (state.resources.has(t.id)) add(referenceEdgeFrom(state, referrer.id, t.id));
    }
  }
  for (const e of command.referrers ?? []) add(state.resources.has(e.id) ? referenceEdgeFrom(state, e.id, e.target_id) : e);
  for (const r of command.live_referrers ?? [])
    add(state.resources.has(r.id) ? referenceEdgeFrom(state, r.id, rootId) : { ...r, target_id: rootId, deleting: false });
  return [...out.values()];
}

function uniqueReferrers(edges: readonly ReferenceEdge[]): { id: string; kind: string; name: string }[] {
  const seen = new Set<string>();
  return edges.filter((e) => !seen.has(e.id) && seen.add(e.id)).map((e) => ({ id: e.id, kind: e.kind, name: e.name }));
}

/**
 * Once marked, a cascade member waits for its referrers (InUse) and, under Foreground, for its
 * descendants. A cycle in those waits through any member can never resolve.
 * @throws DependencyCycle naming every member in order.
 */
function refuseCycles(
  resource: ResourceState,
  members: readonly ResourceState[],
  edges: readonly ReferenceEdge[],
  state: TreeState,
  propagationOf: (target: ResourceState) => PropagationPolicy,
): void {
  const referrersOf = new Map<string, string[]>();
  const names = new Map<string, { id: string; kind: string; name: string }>();
  for (const e of edges) {
    referrersOf.set(e.target_id, [...(referrersOf.get(e.target_id) ?? []), e.id]);
    names.set(e.id, { id: e.id, kind: e.kind, name: e.name });
  }
  for (const m of state.resources.values()) names.set(m.id, { id: m.id, kind: m.kind, name: m.name });
  const memberIds = new Set(members.map((m) => m.id));
  const waitsFor = (id: string): string[] => {
    const own = state.resources.get(id);
    const foreground =
      own && memberIds.has(id) && propagationOf(own) === 'Foreground' ? descendantsBottomUp(state, id).map((d) => d.id) : [];
    // A deleting record is hard-deleted only after its children (bottom-up), whatever the propagation.
    const records = own && (memberIds.has(id) || isFinalizing(own)) ? childrenOf(state, id).map((c) => c.id) : [];
    return [...new Set([...foreground, ...records, ...(referrersOf.get(id) ?? [])])];
  };
  for (const member of members) {
    const cycle = findWaitCycle(member.id, waitsFor);
    if (cycle) {
      throw new DependencyCycle(
        resource.kind,
        resource.id,
        cycle.map((id) => names.get(id) ?? { id, kind: 'Resource', name: id }),
      );
    }
  }
}

/**
 * Ingests an adapter report. Returns `[]` when the report is discarded (the API answers 204).
 * Adds `AdapterFinalized` when the report newly confirms cleanup at the current generation.
 * @throws ValidationFailed (400: missing mandatory condition, bad status, observed_time window).
 * @throws ResourceNotFound (404; force-deleted resources included — adapters must not retry, seed 001).
 */
export function decideReport(command: ReportAdapterStatus, state: TreeState): ResourceEvent[] {
  validateReport(command);
  const resource = existing(state, command.kind, command.id);
  const stale = staleFence(resource, command.adapter, command.fence);
  if (stale !== undefined && command.fence) {
    // Recorded (not silently dropped): a stale run reporting is evidence of a frozen or split worker.
    const { id, kind } = resource;
    return [
      {
        type: 'AdapterStatusDiscarded',
        data: {
          id,
          kind,
          adapter: command.adapter,
          observed_generation: command.observed_generation,
          fence: command.fence,
          reason: 'StaleFence',
          message: stale,
          discarded_time: command.metadata.now,
        },
      },
    ];
  }
  if (discardReason(resource, command) !== undefined) return [];
  const abandoned = isFinalizing(resource) ? resource.abandoned_adapters?.[command.adapter] : undefined;
  if (abandoned) {
    // Its part of the deletion was given up by an administrator: a late report must not reopen the gate.
    const { id, kind } = resource;
    const message = `adapter '${command.adapter}' was abandoned for this deletion by ${abandoned.caller} at ${abandoned.time}: ${abandoned.reason}`;
    return [
      {
        type: 'AdapterStatusDiscarded',
        data: {
          id,
          kind,
          adapter: command.adapter,
          observed_generation: command.observed_generation,
          reason: 'AdapterAbandoned',
          message,
          discarded_time: command.metadata.now,
        },
      },
    ];
  }
  // During a deletion only the adapters frozen at DeletionRequested count; others are discarded, visibly.
  const frozen = isFinalizing(resource) ? resource.deletion_required_adapters : undefined;
  if (frozen && !frozen.includes(command.adapter)) {
    return [
      {
        type: 'AdapterStatusDiscarded',
        data: {
          id: resource.id,
          kind: resource.kind,
          adapter: command.adapter,
          observed_generation: command.observed_generation,
          reason: 'NotInDeletionAdapterSet',
          message: `adapter '${command.adapter}' is not in the adapter set frozen when the deletion was requested: [${frozen.join(', ')}]`,
          discarded_time: command.metadata.now,
        },
      },
    ];
  }
  const stored = resource.adapter_statuses[command.adapter];
  // Status events fire on transitions only: an identical repeat records nothing (seed 003).
  if (isSameReport(stored, command)) return [];
  const status = toAdapterStatus(command, stored);
  const events: ResourceEvent[] = [
    {
      type: 'AdapterStatusReported',
      data: { id: resource.id, kind: resource.kind, status, ...(command.fence && { fence: command.fence }) },
    },
  ];
  const adoption = adoptionRecord(command, stored);
  if (adoption)
    events.push({
      type: 'Adopted',
      data: {
        id: resource.id,
        kind: resource.kind,
        adapter: command.adapter,
        observed_generation: command.observed_generation,
        ...adoption,
        adopted_time: command.metadata.now,
      },
    });
  if (isFinalizing(resource) && !resource.deletion_started && command.observed_generation === resource.generation) {
    events.unshift({
      type: 'DeletionStarted',
      data: {
        id: resource.id,
        kind: resource.kind,
        generation: resource.generation,
        started_time: command.metadata.now,
        adapter: command.adapter,
      },
    });
  }
  const newlyFinalized = isFinalizing(resource) && finalizedAt(status, resource.generation) && !finalizedAt(stored, resource.generation);
  if (newlyFinalized && status.conditions.find((c) => c.type === ConditionType.Finalized)?.reason === 'Orphaned') {
    const finalized = status.conditions.find((c) => c.type === ConditionType.Finalized);
    events.push({
      type: 'Orphaned',
      data: {
        id: resource.id,
        kind: resource.kind,
        adapter: command.adapter,
        observed_generation: status.observed_generation,
        orphaned_time: command.metadata.now,
        ...(finalized?.message ? { message: finalized.message } : {}),
      },
    });
  }
  if (newlyFinalized) {
    events.push({
      type: 'AdapterFinalized',
      data: {
        id: resource.id,
        kind: resource.kind,
        adapter: command.adapter,
        observed_generation: status.observed_generation,
        finalized_time: command.metadata.now,
      },
    });
  }
  return events;
}

/**
 * Ownership: a report newly saying `Applied=True` with reason `Adopted` / `AdoptedWithDrift` records the
 * adoption (`Adopted` event); the same Applied condition repeated records nothing.
 */
function adoptionRecord(
  command: ReportAdapterStatus,
  stored: AdapterStatus | undefined,
): { reason: 'Adopted' | 'AdoptedWithDrift'; message: string } | undefined {
  const applied = command.conditions.find((c) => c.type === ConditionType.Applied);
  if (applied?.status !== 'True' || (applied.reason !== 'Adopted' && applied.reason !== 'AdoptedWithDrift')) return undefined;
  const before = stored?.conditions.find((c) => c.type === ConditionType.Applied);
  if (before && before.status === 'True' && before.reason === applied.reason && (before.message ?? '') === (applied.message ?? ''))
    return undefined;
  return { reason: applied.reason, message: applied.message ?? '' };
}

/** Same generation, same conditions (type/status/reason/message), same data and metadata. */
export function isSameReport(stored: AdapterStatus | undefined, command: ReportAdapterStatus): boolean {
  if (!stored || stored.observed_generation !== command.observed_generation) return false;
  const strip = (c: { type: string; status: string; reason?: string; message?: string }) => ({
    type: c.type,
    status: c.status,
    reason: c.reason ?? '',
    message: c.message ?? '',
  });
  return (
    sameJson(stored.conditions.map(strip), command.conditions.map(strip)) &&
    sameJson(stored.data ?? null, command.data ?? null) &&
    sameJson(stored.metadata ?? null, command.report_metadata ?? null)
  );
}

function finalizedAt(status: AdapterStatus | undefined, generation: number): boolean {
  return (
    status !== undefined &&
    status.observed_generation === generation &&
    conditionStatus(status.conditions, ConditionType.Finalized) === 'True'
  );
}

/**
 * Hard-deletes the resource when its gate holds, then walks up: an owner whose last child just went and
 * whose own gate now holds goes in the same decision, without waiting for a fresh adapter report (its adapters
 * may have reported Finalized long before and have nothing new to say).
 * Verify before hard delete (cleanup-verification.ts): a resource with hosted adapters to verify goes only
 * when `command.cleanup_checks` covers them and found nothing; leftovers or an adapter that could not be
 * listed record `LeftoverObjectsFound` (when different from the last recorded) and stop the walk there; no
 * check for it (the tree changed since the job looked) stops the walk with nothing recorded.
 * Returns `[]` when the gate does not hold or the resource is already gone (idempotent job).
 * @see seeds/000 "API Hard-Delete Signal".
 */
export function decideHardDelete(command: HardDelete, state: TreeState, kinds: KindRegistry): ResourceEvent[] {
  const events: ResourceEvent[] = [];
  let current = state;
  let target = current.resources.get(command.id);
  while (target && gateHolds(current, target, kinds)) {
    const adapters = adaptersToVerify(current, target, kinds, command.hosted_adapters ?? []);
    const check = command.cleanup_checks?.[target.id];
    const verdict = cleanupVerdict(check, adapters);
    if (verdict === 'missing') break;
    if (verdict === 'leftovers') {
      if (!sameLeftovers(target.leftovers, check!)) {
        events.push({
          type: 'LeftoverObjectsFound',
          data: {
            id: target.id,
            kind: target.kind,
            objects: check!.objects,
            unverified: check!.unverified,
            checked_time: command.metadata.now,
          },
        });
      }
      break;
    }
    const event = hardDeletedEvent(target, command.metadata.now);
    events.push(event);
    current = evolve(current, event);
    target = target.owner_references ? current.resources.get(target.owner_references.id) : undefined;
  }
  return events;
}

/**
 * The resources a hard-delete check of `id` would remove if every cleanup verification came back clean,
 * bottom-up, each with the hosted adapters to verify for it: what the hard-delete job gathers facts for
 * before deciding. Empty when the gate does not hold.
 */
export function hardDeleteCandidates(
  state: TreeState,
  id: string,
  kinds: KindRegistry,
  hosted: readonly string[],
): { id: string; kind: string; adapters: string[] }[] {
  const out: { id: string; kind: string; adapters: string[] }[] = [];
  let current = state;
  let target = current.resources.get(id);
  while (target && gateHolds(current, target, kinds)) {
    out.push({ id: target.id, kind: target.kind, adapters: adaptersToVerify(current, target, kinds, hosted) });
    current = evolve(current, hardDeletedEvent(target, ''));
    target = target.owner_references ? current.resources.get(target.owner_references.id) : undefined;
  }
  return out;
}

function hardDeletedEvent(target: ResourceState, now: string): ResourceEvent {
  return {
    type: 'HardDeleted',
    data: {
      id: target.id,
      kind: target.kind,
      ...(target.owner_references ? { owner_references: target.owner_references } : {}),
      hard_deleted_time: now,
      cause: 'Reconciled',
      ...(target.references && Object.keys(target.references).length > 0 ? { references: target.references } : {}),
    },
  };
}

function gateHolds(state: TreeState, resource: ResourceState, kinds: KindRegistry): boolean {
  // Seed 004: a paused resource (or one under a paused ancestor) is never released.
  if (pausedBy(state, resource)) return false;
  return isHardDeleteAllowed({
    generation: resource.generation,
    ...(resource.deleted_time !== undefined ? { deleted_time: resource.deleted_time } : {}),
    required_adapters: requiredAdaptersOf(resource, kinds),
    adapter_statuses: resource.adapter_statuses,
    child_record_count: childrenOf(state, resource.id).length,
  });
}

/**
 * The escape hatch (seed 001): removes a Finalizing resource and ALL its subresources, children first,
 * in one append, bypassing the `Reconciled` gate. The `ForceDeleted` audit event carries caller, reason,
 * the removed subresources and every adapter status at that moment.
 * @throws ValidationFailed when `reason` is missing, blank or longer than 1024 characters (400).
 * @throws ResourceNotFound (404, also on repeat); NotFinalizing when no DELETE came first (409).
 */
export function decideForceDelete(command: ForceDelete, state: TreeState): ResourceEvent[] {
  const reason = requireReason(command.reason);
  const resource = existing(state, command.kind, command.id);
  if (!isFinalizing(resource)) throw new NotFinalizing(resource.kind, resource.id);
  const descendants = descendantsBottomUp(state, resource.id);
  const removed = [...descendants, resource];
  const audit: ResourceEvent = {
    type: 'ForceDeleted',
    data: {
      id: resource.id,
      kind: resource.kind,
      name: resource.name,
      caller: command.metadata.caller,
      reason,
      force_deleted_time: command.metadata.now,
      deleted_time: resource.deleted_time!,
      generation: resource.generation,
      subresources: descendants.map((d) => ({
        id: d.id,
        kind: d.kind,
        name: d.name,
        ...(d.deleted_time !== undefined ? { deleted_time: d.deleted_time } : {}),
      })),
      adapter_statuses: Object.fromEntries(removed.map((r) => [r.id, Object.values(r.adapter_statuses)])),
    },
  };
  return [
    audit,
    ...removed.map((r): ResourceEvent => ({
      type: 'HardDeleted',
      data: {
        id: r.id,
        kind: r.kind,
        ...(r.owner_references ? { owner_references: r.owner_references } : {}),
        hard_deleted_time: command.metadata.now,
        cause: 'ForceDeleted',
        ...(r.references && Object.keys(r.references).length > 0 ? { references: r.references } : {}),
      },
    })),
  ];
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
