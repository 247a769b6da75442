/**
 * The bounded history a watch resumes from (the role of etcd's revision history and kube-apiserver's
 * watch cache): the last `capacity` changes, each with the object as of that change and the state
 * before it. A watch from a `resourceVersion` older than the window gets `410 Expired`, as a real
 * server answers once etcd compacted that revision.
 */
import type { KindDef } from './kinds.js';
import type { KubeObject } from './kube-object.js';

/** One retained change. Objects are the store's own snapshots: read them, never write them. */
export interface WindowedChange {
  /** The change's `resourceVersion` as a number (strictly increasing along the window). */
  readonly resourceVersion: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly def: KindDef;
  /** The object as of this change; for DELETED its last state carrying the delete's `resourceVersion`. */
  readonly object: KubeObject;
  /** The stored state before this change (absent for ADDED). */
  readonly previous?: KubeObject;
}

export class ChangeWindow {
  private readonly items: WindowedChange[] = [];
  private start = 0;
  private evictedUpTo: number;

  /**
   * @param capacity changes retained (≥ 1)
   * @param firstResourceVersion the store's counter before its first change: watching from it replays everything
   * @throws Error for a capacity below 1
   */
  constructor(
    private readonly capacity: number,
    firstResourceVersion: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`watch window must be a positive integer, got ${capacity}`);
    this.evictedUpTo = firstResourceVersion;
  }

  /** The newest `resourceVersion` no longer resumable from: a watch needs `resourceVersion >= floor`. */
  get floor(): number {
    return this.evictedUpTo;
  }

  push(change: WindowedChange): void {
    this.items.push(change);
    if (this.items.length - this.start > this.capacity) {
      this.evictedUpTo = this.items[this.start]!.resourceVersion;
      this.items[this.start] = undefined as never;
      this.start++;
      // Compact now and then instead of shifting on every push.
      if (this.start >= this.capacity) {
        this.items.splice(0, this.start);
        this.start = 0;
      }
    }
  }

  /** The retained changes after `resourceVersion`, oldest first; undefined when it is older than the window. */
  since(resourceVersion: number): readonly WindowedChange[] | undefined {
    if (resourceVersion < this.evictedUpTo) return undefined;
    let low = this.start;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.items[mid]!.resourceVersion <= resourceVersion) low = mid + 1;
      else high = mid;
    }
    return this.items.slice(low);
  }
}
