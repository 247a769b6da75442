/**
 * The garbage collector of the local API server, after kube-controller-manager's
 * (`pkg/controller/garbagecollector/garbagecollector.go`, `attemptToDeleteItem`, `orphanDependents`,
 * `processDeletingDependentsItem`). Each pass:
 * 1. `orphan` finalizer on a deleting owner: strip its ownerReferences from dependents, drop the finalizer;
 * 2. each dependent's owners are classified solid / dangling (gone, or another uid) / waiting (owner in
 *    foreground deletion). With a solid owner left, dangling and waiting references are stripped;
 *    with none, the dependent is deleted (Foreground if it has dependents of its own and an owner
 *    waits, else per its GC finalizers, else Background);
 * 3. `foregroundDeletion` finalizer on an owner: dropped once no dependent with
 *    `blockOwnerDeletion: true` remains, which removes the owner.
 */
import { scopeOf, type ApiContext } from './api-context.js';
import { deleteObject, FOREGROUND_FINALIZER, ORPHAN_FINALIZER, removeIfReleased } from './deletion.js';
import type { KindDef, PropagationPolicy } from './kinds.js';
import type { KubeObject, OwnerReference, StoredEntry } from './object-store.js';
import { KubeStatusError } from './status-errors.js';

type OwnerState = 'solid' | 'dangling' | 'waiting';

const hasFinalizer = (object: KubeObject, finalizer: string): boolean => (object.metadata.finalizers ?? []).includes(finalizer);
const ownerRefs = (object: KubeObject): OwnerReference[] => object.metadata.ownerReferences ?? [];

export class GarbageCollector {
  constructor(private readonly ctx: ApiContext) {}

  /** One pass over every object; changes are visible in the store's change log. */
  runOnce(): void {
    for (const entry of this.ctx.store.entries()) {
      if (entry.object.metadata.deletionTimestamp && hasFinalizer(entry.object, ORPHAN_FINALIZER)) this.orphanDependents(entry);
    }
    for (const entry of this.ctx.store.entries()) {
      if (ownerRefs(entry.object).length > 0) this.collectDependent(entry);
    }
    for (const entry of this.ctx.store.entries()) {
      if (entry.object.metadata.deletionTimestamp && hasFinalizer(entry.object, FOREGROUND_FINALIZER)) this.finishForeground(entry);
    }
  }

  private orphanDependents({ def, object: owner }: StoredEntry): void {
    for (const dependent of this.dependentsOf(owner.metadata.uid)) {
      this.stripReferences(dependent, new Set([owner.metadata.uid]));
    }
    this.dropFinalizer(def, owner, ORPHAN_FINALIZER);
  }

  private collectDependent({ def, object }: StoredEntry): void {
    const deleting = object.metadata.deletionTimestamp !== undefined;
    // Like attemptToDeleteItem: a deleting object is left alone unless it is deleting its own dependents.
    if (deleting && !hasFinalizer(object, FOREGROUND_FINALIZER)) return;
    const states = ownerRefs(object).map((ref) => ({ ref, state: this.ownerState(object, ref) }));
    const gone = states.filter((s) => s.state !== 'solid');
    if (gone.length === 0) return;
    if (states.some((s) => s.state === 'solid')) {
      this.stripReferences({ def, object }, new Set(gone.map((s) => s.ref.uid)));
      return;
    }
    if (deleting) return;
    const waited = states.some((s) => s.state === 'waiting');
    let policy: PropagationPolicy = 'Background';
    if (waited && this.dependentsOf(object.metadata.uid).length > 0) policy = 'Foreground';
    else if (hasFinalizer(object, ORPHAN_FINALIZER)) policy = 'Orphan';
    else if (hasFinalizer(object, FOREGROUND_FINALIZER)) policy = 'Foreground';
    this.ignoringNotFound(() => deleteObject(this.ctx, def, object.metadata.namespace, object.metadata.name, { propagationPolicy: policy }));
  }

  private finishForeground({ def, object: owner }: StoredEntry): void {
    const blocking = this.dependentsOf(owner.metadata.uid).filter(({ object }) =>
      ownerRefs(object).some((ref) => ref.uid === owner.metadata.uid && ref.blockOwnerDeletion === true),
    );
    if (blocking.length === 0) this.dropFinalizer(def, owner, FOREGROUND_FINALIZER);
  }

  private ownerState(dependent: KubeObject, ref: OwnerReference): OwnerState {
    const ownerDef = this.ctx.kinds.byKind(ref.apiVersion, ref.kind);
    // An owner kind this server does not serve cannot be verified: keep the dependent, as the real GC does.
    if (!ownerDef) return 'solid';
    if (ownerDef.namespaced && !dependent.metadata.namespace) return 'dangling';
    const owner = this.ctx.store.get(ownerDef, scopeOf(ownerDef, dependent.metadata.namespace), ref.name);
    if (!owner || owner.metadata.uid !== ref.uid) return 'dangling';
    if (owner.metadata.deletionTimestamp && hasFinalizer(owner, FOREGROUND_FINALIZER)) return 'waiting';
    return 'solid';
  }

  private dependentsOf(uid: string): StoredEntry[] {
    return this.ctx.store.entries().filter(({ object }) => ownerRefs(object).some((ref) => ref.uid === uid));
  }

  private stripReferences({ def, object }: StoredEntry, uids: ReadonlySet<string>): void {
    const fresh = this.ctx.store.get(def, object.metadata.namespace, object.metadata.name);
    if (!fresh) return;
    const kept = ownerRefs(fresh).filter((ref) => !uids.has(ref.uid));
    if (kept.length === ownerRefs(fresh).length) return;
    if (kept.length > 0) fresh.metadata.ownerReferences = kept;
    else delete fresh.metadata.ownerReferences;
    this.ctx.store.write(def, fresh);
  }

  private dropFinalizer(def: KindDef, object: KubeObject, finalizer: string): void {
    const fresh = this.ctx.store.get(def, object.metadata.namespace, object.metadata.name);
    if (!fresh || !hasFinalizer(fresh, finalizer)) return;
    const rest = (fresh.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    if (rest.length > 0) fresh.metadata.finalizers = rest;
    else delete fresh.metadata.finalizers;
    removeIfReleased(this.ctx, def, this.ctx.store.write(def, fresh));
  }

  private ignoringNotFound(action: () => unknown): void {
    try {
      action();
    } catch (error) {
      // Already gone between the scan and the delete: nothing left to collect.
      if (!(error instanceof KubeStatusError && error.status.code === 404)) throw error;
    }
  }
}
