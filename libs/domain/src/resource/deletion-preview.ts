/**
 * Deletion preview (Kubernetes' `dryRun=All` for DELETE, across the tree): runs the very decision a DELETE
 * runs (`decideDeletion`) on the current state and reports what it would record, without recording it.
 * Pure; the same inputs as the real decision give the same plan or the same refusal.
 * @see seeds/000 "API Deletion Handling › Step 1: Mark for Deletion"; seed 004 "The order".
 */
import { decideDeletion } from './decide.js';
import { DomainError } from './errors.js';
import type { KindRegistry } from './kinds.js';
import type { DeletionPolicy, DeletionPolicySource } from './policies.js';
import type { PropagationPolicy } from './deletion-order.js';
import type { RequestDeletion } from './resource.commands.js';
import { isFinalizing, type TreeState } from './resource.state.js';

/** One resource the DELETE would mark, with what its `DeletionRequested` would record. */
export interface PreviewedDeletion {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  /** The generation the mark would set (current + 1). */
  readonly generation: number;
  /** The resource whose DELETE cascades here; absent for the target itself. */
  readonly cascaded_from?: string;
  readonly deletion_policy: DeletionPolicy;
  readonly deletion_policy_source: DeletionPolicySource;
  readonly deletion_propagation: PropagationPolicy;
  /** The adapters that would be frozen for this deletion and must each report `Finalized=True`. */
  readonly required_adapters: readonly string[];
  /**
   * What the plan implies beyond the record (absent: nothing to say). Today one note: an `Orphan` resource
   * under an ancestor deleted with `Delete` — objects its adapters release inside a Namespace an ancestor's
   * adapter deletes keep that Namespace (released, not deleted) (docs/policies.md "Orphan inside a namespace
   * another adapter deletes"). The domain does not know the adapters' task configs, so it says "may".
   */
  readonly notes?: readonly string[];
}

/**
 * What a DELETE would do.
 * - `WouldDelete`: `resources` would be marked, listed in hard-delete order (children before their parent).
 * - `AlreadyDeleting`: the target is marked already; a DELETE records nothing (idempotent).
 * - `Refused`: a DELETE would throw `refusal` (the same domain error: LiveReferrers, CascadeThroughLiveReference,
 *   DependencyCycle, ActiveChildrenRestrict, ...); `resources` is empty.
 * @throws ResourceNotFound exactly as the DELETE does (a missing target is not a plan).
 */
export interface DeletionPreview {
  readonly target: { readonly id: string; readonly kind: string };
  readonly outcome: 'WouldDelete' | 'AlreadyDeleting' | 'Refused';
  readonly resources: readonly PreviewedDeletion[];
  readonly refusal?: DomainError;
}

/**
 * The preview's note for an `Orphan` resource whose nearest ancestor marked by the same DELETE runs `Delete`:
 * the adapters of that ancestor may own the Namespace this resource's released objects live in (the shipped
 * layout: validation's Namespace holds np-configmap's ConfigMap); that Namespace is then kept, released.
 */
function orphanUnderDeleteNotes(
  id: string,
  policy: DeletionPolicy,
  policies: ReadonlyMap<string, DeletionPolicy>,
  state: TreeState,
): string[] {
  if (policy !== 'Orphan') return [];
  for (let parent = state.resources.get(id)?.owner_references; parent; parent = state.resources.get(parent.id)?.owner_references) {
    if (!policies.has(parent.id)) return [];
    if (policies.get(parent.id) !== 'Delete') continue;
    const ancestor = state.resources.get(parent.id);
    return [
      `deletion_policy Orphan under ${parent.kind} '${ancestor?.name ?? parent.id}' (${parent.id}), deleted with Delete: ` +
        `a Namespace an adapter of ${parent.kind} '${ancestor?.name ?? parent.id}' deletes is kept (released, not deleted) while it holds objects this resource's adapters release`,
    ];
  }
  return [];
}

export function previewDeletion(command: RequestDeletion, state: TreeState, kinds: KindRegistry): DeletionPreview {
  const target = { id: command.id, kind: command.kind };
  let events;
  try {
    events = decideDeletion(command, state, kinds);
  } catch (error) {
    if (error instanceof DomainError && error.code !== 'ResourceNotFound')
      return { target, outcome: 'Refused', resources: [], refusal: error };
    throw error;
  }
  if (events.length === 0 && isFinalizing(state.resources.get(command.id)!)) return { target, outcome: 'AlreadyDeleting', resources: [] };
  const resources: PreviewedDeletion[] = [];
  const policies = new Map<string, DeletionPolicy>();
  for (const event of events) if (event.type === 'DeletionRequested') policies.set(event.data.id, event.data.deletion_policy!);
  for (const event of events) {
    if (event.type !== 'DeletionRequested') continue;
    const d = event.data;
    const notes = orphanUnderDeleteNotes(d.id, d.deletion_policy!, policies, state);
    resources.push({
      id: d.id,
      kind: d.kind,
      name: state.resources.get(d.id)?.name ?? d.id,
      generation: d.generation,
      ...(d.cascaded_from ? { cascaded_from: d.cascaded_from } : {}),
      deletion_policy: d.deletion_policy!,
      deletion_policy_source: d.deletion_policy_source!,
      deletion_propagation: d.deletion_propagation!,
      required_adapters: d.required_adapters ?? [],
      ...(notes.length > 0 && { notes }),
    });
  }
  // The decision marks parents first; the hard delete goes the other way (children first).
  return { target, outcome: 'WouldDelete', resources: resources.reverse() };
}
