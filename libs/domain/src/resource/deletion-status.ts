/**
 * The one deletion truth (seed 004 "The order", "Pause stops a deletion", delete guard; seed 000 "API
 * Hard-Delete Signal"; seed 001 "Timeout and Stuck Detection"). Pure: given a snapshot of the resources a
 * deletion depends on, says for each deleting resource its phase, what blocks it and why (root causes,
 * ordered), the effective deletion policy with its source, and what dispatch may do now.
 *
 * The wait graph has one kind of edge, "A's hard delete needs B's hard delete", from a deleting A:
 * - `InUse`: B references A (users go before what they use; B live or deleting);
 * - `RecordWait`: B is A's child (a record is hard-deleted bottom-up, whatever the propagation). Under
 *   `Foreground` the same wait also holds A's adapters; under `Background` only its record.
 * A cycle in these edges can never resolve by itself: `DependencyCycle`, with its members and edges.
 * Readers (projection, `/finalizing`, dispatch) store or show this output; they do not re-derive it.
 */
import { isAdapterMet } from './reconciled.js';
import { adapterNotFinalizedBlocker, pauseMessage } from './finalizing-blockers.js';
import type { DeletionStatusBlocker, InUseReferrer, NamedRef, PauseMark, WaitEdge } from './blocker-vocabulary.js';
import { DEFAULT_PROPAGATION_POLICY, findWaitCycle, type DeletionBlocker, type PropagationPolicy } from './deletion-order.js';
import { resolveDeletionPolicy, type DeletionPolicy, type EffectiveDeletionPolicy, type OperatorMark } from './policies.js';
import type { AdapterStatus } from './resource.events.js';
import type { RecordedLeftovers } from './leftover-object.js';
import { leftoverBlockers } from './cleanup-verification.js';

export type { WaitEdgeKind, WaitEdge, NamedRef, InUseReferrer, DeletionStatusBlocker } from './blocker-vocabulary.js';

/** One stored resource, as much of it as deletion needs. */
export interface DeletionNode {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly owner_id?: string;
  readonly generation: number;
  /** RFC 3339; set once deleting. */
  readonly deleted_time?: string;
  readonly deletion_propagation?: PropagationPolicy;
  /** The required adapters frozen at `DeletionRequested` (absent for live resources and older histories). */
  readonly deletion_required_adapters?: readonly string[];
  readonly adapter_statuses: Readonly<Record<string, AdapterStatus>>;
  /** Ids this resource references (any ref type). */
  readonly references: readonly string[];
  readonly paused?: OperatorMark;
  readonly deletion_policy?: DeletionPolicy;
  readonly force_orphan?: boolean;
  /** The effective policy recorded on `DeletionRequested` (once deleting). */
  readonly recorded_policy?: EffectiveDeletionPolicy;
  /** What the last cleanup verification found (`LeftoverObjectsFound`), once one held the hard delete. */
  readonly leftovers?: RecordedLeftovers;
}

/**
 * A snapshot: the resources, and the kind's current required adapters (used only for resources whose
 * deletion predates the frozen set). A partial snapshot is fine: what is not in it is not waited on.
 */
export interface DeletionGraph {
  readonly nodes: ReadonlyMap<string, DeletionNode>;
  readonly requiredAdaptersOf: (kind: string) => readonly string[];
}

export type DeletionPhase =
  /** Adapters may not run: cycle, `InUse`, or Foreground dependents. */
  | 'Held'
  /** A pause stops the destroy (and the hard delete). */
  | 'Paused'
  /** Adapters of the frozen set are cleaning up. */
  | 'CleaningUp'
  /** Adapters finalized; the record waits for its children's hard delete. */
  | 'AwaitingDependents'
  /** The hard-delete gate holds. */
  | 'HardDeleteDue';

export type DispatchDecision =
  | { readonly action: 'run'; readonly adapters: readonly string[] }
  | { readonly action: 'hold'; readonly reason: 'DependencyCycle' | 'InUse' | 'DependentsExist' };

export interface DeletionStatus {
  readonly id: string;
  readonly phase: DeletionPhase;
  /**
   * Root causes first: DependencyCycle, Paused, InUse, DependentsRemaining, AdapterNotFinalized, then (once the
   * gate holds) CleanupUnverified and LeftoverObjects.
   */
  readonly blockers: readonly DeletionStatusBlocker[];
  readonly effective_policy: EffectiveDeletionPolicy;
  readonly deletion_propagation: PropagationPolicy;
  /** The adapters the deletion waits for (the frozen set when recorded). */
  readonly required_adapters: readonly string[];
  readonly dispatch: DispatchDecision;
}

/** Children and referrers, indexed once per snapshot. */
interface Index {
  readonly children: ReadonlyMap<string, readonly string[]>;
  readonly referrers: ReadonlyMap<string, readonly string[]>;
}

function indexOf(graph: DeletionGraph): Index {
  const children = new Map<string, string[]>();
  const referrers = new Map<string, string[]>();
  for (const node of [...graph.nodes.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (node.owner_id) children.set(node.owner_id, [...(children.get(node.owner_id) ?? []), node.id]);
    // A resource never waits for itself: a self-reference is no edge.
    for (const target of new Set(node.references))
      if (target !== node.id) referrers.set(target, [...(referrers.get(target) ?? []), node.id]);
  }
  return { children, referrers };
}

/** What a stored resource waits for (nothing while live), InUse edges first. */
export function waitEdgesOf(graph: DeletionGraph, id: string, index: Index = indexOf(graph)): WaitEdge[] {
  const node = graph.nodes.get(id);
  if (!node?.deleted_time) return [];
  return [
    ...(index.referrers.get(id) ?? []).map((to): WaitEdge => ({ from: id, to, kind: 'InUse' })),
    ...(index.children.get(id) ?? []).map((to): WaitEdge => ({ from: id, to, kind: 'RecordWait' })),
  ];
}

/** The wait cycle through `id` with its edges, or undefined. */
export function waitCycleOf(
  graph: DeletionGraph,
  id: string,
  index: Index = indexOf(graph),
): { members: string[]; edges: WaitEdge[] } | undefined {
  const edgesFrom = (x: string) => waitEdgesOf(graph, x, index);
  const path = findWaitCycle(id, (x) => edgesFrom(x).map((e) => e.to));
  if (!path) return undefined;
  const edges = path.slice(1).map((to, i) => edgesFrom(path[i]!).find((e) => e.to === to)!);
  return { members: path, edges };
}

/** The pause that stops `node`: itself, the nearest paused ancestor, or (deleting) a paused descendant. */
export function pauseOf(graph: DeletionGraph, id: string, index: Index = indexOf(graph)): PauseMark | undefined {
  const mark = (n: DeletionNode, source: PauseMark['source']): PauseMark => ({
    source,
    resource: { id: n.id, kind: n.kind },
    paused_by: n.paused!.caller,
    reason: n.paused!.reason,
    paused_time: n.paused!.time,
  });
  const node = graph.nodes.get(id);
  if (!node) return undefined;
  if (node.paused) return mark(node, 'self');
  for (
    let owner = node.owner_id ? graph.nodes.get(node.owner_id) : undefined;
    owner;
    owner = owner.owner_id ? graph.nodes.get(owner.owner_id) : undefined
  ) {
    if (owner.paused) return mark(owner, 'parent');
  }
  if (!node.deleted_time) return undefined;
  // A paused descendant's objects may live inside this one's (a nodepool ConfigMap in the cluster Namespace).
  const queue = [...(index.children.get(id) ?? [])];
  for (let i = 0; i < queue.length; i++) {
    const child = graph.nodes.get(queue[i]!)!;
    if (child.paused) return mark(child, 'dependent');
    queue.push(...(index.children.get(child.id) ?? []));
  }
  return undefined;
}

/** The effective policy: once deleting, as recorded (a force orphan still wins); else resolved over the lineage. */
export function effectivePolicyOf(graph: DeletionGraph, id: string): EffectiveDeletionPolicy {
  const lineage: DeletionNode[] = [];
  for (let n = graph.nodes.get(id); n; n = n.owner_id ? graph.nodes.get(n.owner_id) : undefined) lineage.push(n);
  const resolved = resolveDeletionPolicy(lineage);
  const node = lineage[0];
  if (!node?.deleted_time || !node.recorded_policy || resolved.source.startsWith('force-orphan')) return resolved;
  return node.recorded_policy;
}

/** The stored descendants of `id`, nearest first. */
function descendantsOf(index: Index, id: string): string[] {
  const out = [...(index.children.get(id) ?? [])];
  for (let i = 0; i < out.length; i++) out.push(...(index.children.get(out[i]!) ?? []));
  return out;
}

/**
 * The deletion status of one deleting resource of the snapshot; undefined when it is absent or live.
 * `depth` bounds how far referrers' own blockers are followed (1: their blockers, not theirs in turn).
 */
export function deletionStatus(graph: DeletionGraph, id: string, depth = 1, index: Index = indexOf(graph)): DeletionStatus | undefined {
  const node = graph.nodes.get(id);
  if (!node?.deleted_time) return undefined;
  const name = (x: string): NamedRef => {
    const n = graph.nodes.get(x);
    return { id: x, kind: n?.kind ?? 'Resource', name: n?.name ?? x };
  };
  const propagation = node.deletion_propagation ?? DEFAULT_PROPAGATION_POLICY;
  const required = node.deletion_required_adapters ?? graph.requiredAdaptersOf(node.kind);
  const children = index.children.get(id) ?? [];
  const reconcile = {
    generation: node.generation,
    deleted_time: node.deleted_time,
    required_adapters: required,
    adapter_statuses: node.adapter_statuses,
    child_record_count: children.length,
  };
  const pending = [...required].sort().filter((a) => !isAdapterMet(reconcile, a));
  const pause = pauseOf(graph, id, index);
  const cycle = waitCycleOf(graph, id, index);
  const referrers = index.referrers.get(id) ?? [];
  const blockers: DeletionStatusBlocker[] = [];
  if (cycle) {
    const members = cycle.members.map(name);
    blockers.push({
      type: 'DependencyCycle',
      message: `dependency cycle ${members.map((m) => `${m.kind} '${m.name}'`).join(' → ')}: no member can be hard-deleted before another (force-delete one member to break it)`,
      members,
      edges: cycle.edges,
    });
  }
  if (pause) blockers.push({ type: 'Paused', message: pauseMessage(pause), ...pause });
  if (referrers.length > 0) {
    const held = referrers.map((r): InUseReferrer => {
      const own = depth > 0 ? deletionStatus(graph, r, depth - 1, index) : undefined;
      return {
        ...name(r),
        deleting: graph.nodes.get(r)?.deleted_time !== undefined,
        blockers: (own?.blockers ?? []).map((b) => ({ type: b.type, message: b.message })),
      };
    });
    const described = held.map(
      (r) => `${r.kind} '${r.name}'${r.deleting ? (r.blockers[0] ? ` (deleting; ${r.blockers[0].message})` : ' (deleting)') : ' (live)'}`,
    );
    blockers.push({ type: 'InUse', message: `in use by ${described.join(', ')}: each must be hard-deleted first`, referrers: held });
  }
  if (children.length > 0) {
    const ids = descendantsOf(index, id);
    const foreground = propagation === 'Foreground';
    blockers.push({
      type: 'DependentsRemaining',
      message: foreground
        ? `${ids.length} dependent resource(s) must be hard-deleted first (propagationPolicy Foreground): [${ids.join(', ')}]`
        : `${children.length} child record(s) must be hard-deleted first (records go bottom-up): [${children.join(', ')}]`,
      count: foreground ? ids.length : children.length,
      ids: foreground ? ids : children,
      holds_adapters: foreground,
    });
  }
  for (const adapter of pending)
    blockers.push(adapterNotFinalizedBlocker(adapter, node.adapter_statuses[adapter], node.generation, pause !== undefined));
  // A verification only holds a resource whose gate holds: before that its leftovers are the adapters' work.
  if (node.leftovers && pending.length === 0 && children.length === 0) blockers.push(...leftoverBlockers(node.leftovers));
  const dispatch: DispatchDecision = cycle
    ? { action: 'hold', reason: 'DependencyCycle' }
    : propagation === 'Foreground' && children.length > 0
      ? { action: 'hold', reason: 'DependentsExist' }
      : referrers.length > 0
        ? { action: 'hold', reason: 'InUse' }
        : { action: 'run', adapters: pending };
  const selfOrAncestorPaused = pause !== undefined && pause.source !== 'dependent';
  const phase: DeletionPhase =
    dispatch.action === 'hold'
      ? 'Held'
      : pause
        ? 'Paused'
        : pending.length > 0
          ? 'CleaningUp'
          : children.length > 0
            ? 'AwaitingDependents'
            : selfOrAncestorPaused
              ? 'Paused'
              : 'HardDeleteDue';
  return {
    id,
    phase,
    blockers,
    effective_policy: effectivePolicyOf(graph, id),
    deletion_propagation: propagation,
    required_adapters: [...required],
    dispatch,
  };
}

/** `deletionStatus` of every deleting resource of the snapshot, by id. */
export function deletionStatuses(graph: DeletionGraph): Map<string, DeletionStatus> {
  const index = indexOf(graph);
  const out = new Map<string, DeletionStatus>();
  for (const id of graph.nodes.keys()) {
    const status = deletionStatus(graph, id, 1, index);
    if (status) out.set(id, status);
  }
  return out;
}

/**
 * What holds a deleting resource's adapters, as the `DeletionBlocked` condition names it (`describeBlocker`):
 * the same order as `dispatch` decides (a cycle, Foreground dependents, referrers), each with its ids
 * (cycle members in order, first repeated last; dependents and referrers sorted). Empty: nothing holds
 * the adapters (Background dependents hold only the record).
 */
export function conditionBlockersOf(status: DeletionStatus): DeletionBlocker[] {
  const out: DeletionBlocker[] = [];
  for (const b of status.blockers)
    if (b.type === 'DependencyCycle') out.push({ reason: 'DependencyCycle', ids: b.members.map((m) => m.id) });
  for (const b of status.blockers)
    if (b.type === 'DependentsRemaining' && b.holds_adapters) out.push({ reason: 'DependentsExist', ids: [...b.ids].sort() });
  for (const b of status.blockers) if (b.type === 'InUse') out.push({ reason: 'InUse', ids: b.referrers.map((r) => r.id).sort() });
  return out;
}

/** A resource as the API shows it, as much as dispatch reads: the stored decision once deleting. */
export interface DispatchView {
  readonly deleted_time?: string;
  /** The stored status's `dispatch` (resource JSON `deletion_dispatch`), once deleting. */
  readonly deletion_dispatch?: DispatchDecision;
  /** The adapters frozen at `DeletionRequested` (resource JSON `deletion_required_adapters`), once deleting. */
  readonly deletion_required_adapters?: readonly string[];
}

/**
 * What dispatch may do for a deleting resource, as the projection stored it from `deletionStatus`.
 * Undefined while the resource is live (the create/update path dispatches as configured) or when no
 * decision is shown (an API without the field): then nothing is known to hold it.
 */
export function dispatchOf(view: DispatchView): DispatchDecision | undefined {
  return view.deleted_time ? view.deletion_dispatch : undefined;
}

/**
 * The adapters to run now for a deleting resource (seed 004 "The order", seed 001 "Cleanup Sequence"):
 * those the stored decision runs (`run`: the frozen adapters not finalized yet), none while it is held,
 * and the whole frozen set when no decision is stored (an older read model). `configured` (the kind's
 * adapters today) stands in only where `deletionStatus` itself uses it: a deletion recorded before the
 * set was frozen on `DeletionRequested`.
 * Precondition: `view.deleted_time` is set (a live resource dispatches its kind's configured adapters).
 */
export function deletionAdaptersToRun(view: DispatchView, configured: readonly string[]): readonly string[] {
  const decision = dispatchOf(view);
  if (decision?.action === 'hold') return [];
  return decision?.adapters ?? view.deletion_required_adapters ?? configured;
}
