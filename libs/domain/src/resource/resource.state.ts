/**
 * The state of one resource tree, folded from its stream by `evolve`. Hard-deleted resources are gone
 * from `resources` (their history stays in the stream).
 */
import type { Tenancy } from './tenancy.js';
import type { AdapterStatus, OwnerReference } from './resource.events.js';
import type { PropagationPolicy } from './deletion-order.js';
import type { DeletionPolicy } from './deletion-policy.js';
import type { OperatorMark } from './operator-mark.js';
import type { References } from './references.js';
import type { RemovedResource } from './leaked-object.js';
import type { RecordedLeftovers } from './leftover-object.js';
import type { BreakGlassRequest } from './break-glass-request.js';

/** Customer-facing phase, derived from `deleted_time` (seed 000 "Customer-Visible Deletion State"). */
export type ResourcePhase = 'Active' | 'Finalizing';

export interface ResourceState {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly spec: Readonly<Record<string, unknown>>;
  readonly labels: Readonly<Record<string, string>>;
  readonly owner_references?: OwnerReference;
  readonly generation: number;
  readonly created_time: string;
  readonly created_by: string;
  readonly updated_time: string;
  readonly updated_by: string;
  readonly deleted_time?: string;
  readonly deleted_by?: string;
  readonly adapter_statuses: Readonly<Record<string, AdapterStatus>>;
  /** Declared deletion policy; undefined = inherit, else `Delete` (seed 003). */
  readonly deletion_policy?: DeletionPolicy;
  readonly references?: References;
  /** Tenancy (as HyperFleet scopes it); undefined = untenanted. */
  readonly tenant?: Tenancy;
  /** Set while paused (seed 004). */
  readonly paused?: OperatorMark;
  /** True once the resource was paused at least once (the `Paused` condition then stays, False after unpause). */
  readonly ever_paused?: boolean;
  /** The force-orphan break-glass (seed 003), once recorded. */
  readonly force_orphan?: OperatorMark;
  /** `DeletionStarted` was recorded (seed 004: once). */
  readonly deletion_started?: boolean;
  /** The required adapters frozen at `DeletionRequested` (undefined for older histories: the kind's set). */
  readonly deletion_required_adapters?: readonly string[];
  /** The propagation the deletion runs with (undefined for older histories: Background). */
  readonly deletion_propagation?: PropagationPolicy;
  /** Set while `deletion_protection` is on: who set it, why (empty when none was given), when. */
  readonly deletion_protection?: OperatorMark;
  /** Adapters of the frozen set an administrator abandoned during this deletion (abandon-adapter.ts). */
  readonly abandoned_adapters?: Readonly<Record<string, OperatorMark>>;
  /** Adapter → highest fence sequence of an applied report (fencing.ts). */
  readonly adapter_fences?: Readonly<Record<string, number>>;
  /** What the last cleanup verification found, while the gate waits on it (`LeftoverObjectsFound`). */
  readonly leftovers?: RecordedLeftovers;
}

export interface TreeState {
  readonly resources: ReadonlyMap<string, ResourceState>;
  /** Resources hard-deleted from this tree (their history still takes leak records). */
  readonly removed?: ReadonlyMap<string, RemovedResource>;
  /** Leak inventories already recorded (`inventoryKey`), so a replayed reaction records nothing twice. */
  readonly inventories?: ReadonlySet<string>;
  /** Break-glass requests on this tree (or, in a `breakglass-<id>` stream, the one request), by request id. */
  readonly break_glass?: ReadonlyMap<string, BreakGlassRequest>;
}

export const EMPTY_TREE: TreeState = { resources: new Map() };

export function phaseOf(resource: ResourceState): ResourcePhase {
  return resource.deleted_time === undefined ? 'Active' : 'Finalizing';
}

export function isFinalizing(resource: ResourceState): boolean {
  return resource.deleted_time !== undefined;
}

/** Direct children of `id` still recorded in the tree (active or Finalizing). */
export function childrenOf(tree: TreeState, id: string): ResourceState[] {
  return [...tree.resources.values()].filter((r) => r.owner_references?.id === id);
}

/** All descendants of `id`, deepest first (the bottom-up order hard delete uses). */
export function descendantsBottomUp(tree: TreeState, id: string): ResourceState[] {
  const out: ResourceState[] = [];
  for (const child of childrenOf(tree, id)) {
    out.push(...descendantsBottomUp(tree, child.id), child);
  }
  return out;
}
