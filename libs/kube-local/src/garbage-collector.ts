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
 * Like the real one it works from changes, not scans: each store change queues the objects whose
 * answer it can change (the object itself; its dependents, found by the owner-uid index; the owners
 * it references now or did before), and a pass visits only those, phase by phase in store order.
 */
import { scopeOf, type ApiContext } from './api-context.js';
import { deleteObject, FOREGROUND_FINALIZER, ORPHAN_FINALIZER, removeIfReleased } from './deletion.js';
import type { KindDef, PropagationPolicy } from './kinds.js';
import type { KubeObject, OwnerReference, StoreEvent, StoredEntry, StoredSlot } from './object-store.js';
import { KubeStatusError } from './status-errors.js';
import { WorkQueue } from './work-queue.js';

type OwnerState = 'solid' | 'dangling' | 'waiting';

const hasFinalizer = (object: KubeObject, finalizer: string): boolean => (object.metadata.finalizers ?? []).includes(finalizer);
const ownerRefs = (object: KubeObject): OwnerReference[] => object.metadata.ownerReferences ?? [];

export class GarbageCollector {
  /** Deleting owners that may hold an `orphan` finalizer. */
  private readonly toOrphan = new WorkQueue();
  /** Objects whose owners may be gone or deleting. */
  private readonly toCollect = new WorkQueue();
  /** Owners in foreground deletion whose blocking dependents may be gone. */
  private readonly toFinish = new WorkQueue();

  constructor(private readonly ctx: ApiContext) {
    ctx.store.onChange((event) => this.queue(event));
  }

  /** One pass over what changed since the last; its changes are visible in the store's change log. */
  runOnce(): void {
    this.toOrphan.drain((slot) => {
      if (slot.object.metadata.deletionTimestamp && hasFinalizer(slot.object, ORPHAN_FINALIZER)) this.orphanDependents(slot);
    });
    this.toCollect.drain((slot) => {
      if (ownerRefs(slot.object).length > 0) this.collectDependent(slot);
    });
    this.toFinish.drain((slot) => {
      if (slot.object.metadata.deletionTimestamp && hasFinalizer(slot.object, FOREGROUND_FINALIZER)) this.finishForeground(slot);
    });
  }

  /** Queues every object again (after a kind registration, owners of that kind become verifiable). */
  resync(): void {
    for (const slot of this.ctx.store.entries()) {
      this.toOrphan.add(slot);
      this.toCollect.add(slot);
      this.toFinish.add(slot);
    }
  }

  private queue({ type, def, object, previous }: StoreEvent): void {
    const { store } = this.ctx;
    if (type !== 'DELETED') {
      const slot = store.slot(def, object.metadata.namespace, object.metadata.name);
      if (slot) {
        if (object.metadata.deletionTimestamp) {
          this.toOrphan.add(slot);
          this.toFinish.add(slot);
        }
        if (ownerRefs(object).length > 0) this.toCollect.add(slot);
      }
    }
    // Its dependents' owner is now gone, deleting, or otherwise changed.
    for (const dependent of store.dependentsOf(object.metadata.uid)) this.toCollect.add(dependent);
    // Owners it blocked (or blocks) may be free to go.
    for (const ref of [...ownerRefs(previous ?? object), ...(previous ? ownerRefs(object) : [])]) {
      const owner = store.byUidOf(ref.uid);
      if (owner) this.toFinish.add(owner);
    }
  }

  private orphanDependents({ def, object: owner }: StoredEntry): void {
    for (const dependent of this.dependentsOf(owner.metadata.uid)) {
      if (this.stripReferences(dependent, new Set([owner.metadata.uid]))) {
        this.event(
          dependent,
          'Orphaned',
          `ownerReference to ${owner.kind}/${owner.metadata.name} removed: the owner is deleted with propagationPolicy Orphan`,
        );
      }
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
    if (waited && this.ctx.store.hasDependents(object.metadata.uid)) policy = 'Foreground';
    else if (hasFinalizer(object, ORPHAN_FINALIZER)) policy = 'Orphan';
    else if (hasFinalizer(object, FOREGROUND_FINALIZER)) policy = 'Foreground';
    const owners = states.map((s) => `${s.ref.kind}/${s.ref.name}`).join(', ');
    const why = waited ? `its owner ${owners} is being deleted in the foreground` : `its owner ${owners} is gone`;
    this.event({ def, object }, 'GarbageCollected', `Deleting with propagationPolicy ${policy}: ${why}`);
    this.ignoringNotFound(() =>
      deleteObject(this.ctx, def, object.metadata.namespace, object.metadata.name, { propagationPolicy: policy }),
    );
  }

  private finishForeground({ def, object: owner }: StoredEntry): void {
    const blocking = this.dependentsOf(owner.metadata.uid).filter(({ object }) =>
      ownerRefs(object).some((ref) => ref.uid === owner.metadata.uid && ref.blockOwnerDeletion === true),
    );
    if (blocking.length === 0) {
      this.dropFinalizer(def, owner, FOREGROUND_FINALIZER);
      return;
    }
    const names = blocking.map(({ object }) => `${object.kind}/${object.metadata.name}`);
    this.event(
      { def, object: owner },
      'WaitingForDependents',
      `Foreground deletion waits for ${names.length} dependent(s) with blockOwnerDeletion: ${names.join(', ')}`,
    );
  }

  private event({ def, object }: StoredEntry, reason: string, message: string): void {
    this.ctx.events.record(def, object, 'Normal', reason, message, 'garbage-collector-controller');
  }

  private ownerState(dependent: KubeObject, ref: OwnerReference): OwnerState {
    const ownerDef = this.ctx.kinds.byKind(ref.apiVersion, ref.kind);
    // An owner kind this server does not serve cannot be verified: keep the dependent, as the real GC does.
    if (!ownerDef) return 'solid';
    if (ownerDef.namespaced && !dependent.metadata.namespace) return 'dangling';
    const owner = this.ctx.store.read(ownerDef, scopeOf(ownerDef, dependent.metadata.namespace), ref.name);
    if (!owner || owner.metadata.uid !== ref.uid) return 'dangling';
    if (owner.metadata.deletionTimestamp && hasFinalizer(owner, FOREGROUND_FINALIZER)) return 'waiting';
    return 'solid';
  }

  private dependentsOf(uid: string): StoredSlot[] {
    return this.ctx.store.dependentsOf(uid);
  }

  /** Drops the references to `uids`; returns whether there were any. */
  private stripReferences({ def, object }: StoredEntry, uids: ReadonlySet<string>): boolean {
    const fresh = this.ctx.store.get(def, object.metadata.namespace, object.metadata.name);
    if (!fresh) return false;
    const kept = ownerRefs(fresh).filter((ref) => !uids.has(ref.uid));
    if (kept.length === ownerRefs(fresh).length) return false;
    if (kept.length > 0) fresh.metadata.ownerReferences = kept;
    else delete fresh.metadata.ownerReferences;
    this.ctx.store.write(def, fresh);
    return true;
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
