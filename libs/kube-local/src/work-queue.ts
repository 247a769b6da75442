/**
 * A controller's queue of objects to look at again, filled from store changes (the role of
 * kube-controller-manager's informer-fed work queues), so a pass visits what changed instead of
 * scanning the store.
 *
 * A phase visits its queue in store order, exactly as a scan of the whole store would: an object
 * queued during the phase is visited in the same phase when a scan would still reach it (it comes
 * after the one being visited), else in the next pass. So controller passes make the same changes,
 * in the same order, as the full scans they replace.
 */
import { compareSlots, type StoredSlot } from './object-store.js';

export class WorkQueue {
  private heap: StoredSlot[] = [];
  private readonly queued = new Set<StoredSlot>();
  private deferred: StoredSlot[] = [];
  private cursor: StoredSlot | undefined;

  get size(): number {
    return this.queued.size + this.deferred.length;
  }

  /** Queues a slot (once); removed slots are skipped when their turn comes. */
  add(slot: StoredSlot): void {
    if (this.queued.has(slot)) return;
    if (this.cursor !== undefined && compareSlots(slot, this.cursor) <= 0) {
      // Behind the phase's position: a scan would only see it in its next pass.
      this.deferred.push(slot);
      return;
    }
    this.queued.add(slot);
    this.push(slot);
  }

  /** Visits the queued slots in store order (see the module comment); what is queued behind the cursor waits for the next phase. */
  drain(visit: (slot: StoredSlot) => void): void {
    try {
      for (let slot = this.pop(); slot !== undefined; slot = this.pop()) {
        this.queued.delete(slot);
        if (slot.removed) continue;
        this.cursor = slot;
        visit(slot);
      }
    } finally {
      this.cursor = undefined;
      const later = this.deferred;
      this.deferred = [];
      for (const slot of later) this.add(slot);
    }
  }

  private push(slot: StoredSlot): void {
    const heap = this.heap;
    heap.push(slot);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compareSlots(heap[parent]!, slot) <= 0) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = slot;
  }

  private pop(): StoredSlot | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && compareSlots(heap[right]!, heap[left]!) < 0 ? right : left;
      if (compareSlots(last, heap[child]!) <= 0) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
