/**
 * Folded resource trees kept between commands. Without it every command re-read and re-folded
 * its tree's whole stream, and a tree's stream only grows (every adapter report that changes something is
 * an event), so a long-lived cluster cost more on every command. With it a command reads only the events
 * after the revision it knows (`readStream` from that revision), which is also how it learns what other
 * processes appended: the event store stays the only source of truth, the cache never answers alone.
 *
 * Safe to share because `evolve` never mutates a state (it copies what it changes), so a cached state is
 * never changed by a later fold. Bounded, least recently used first out; a tree whose resources are all
 * hard-deleted is dropped (nothing more is decided on it).
 */
import type { TreeState } from '@decom/domain';

/** A tree folded up to `revision` (the revision of the stream's last event folded in). */
export interface FoldedTree {
  readonly state: TreeState;
  readonly revision: number;
}

/** Default number of trees kept: more than the trees that commands touch at once on a busy engine. */
export const DEFAULT_TREE_CACHE_SIZE = 512;

export class TreeCache {
  private readonly trees = new Map<string, FoldedTree>();

  /** @param capacity trees kept at most; 0 keeps none. */
  constructor(private readonly capacity = DEFAULT_TREE_CACHE_SIZE) {}

  get size(): number {
    return this.trees.size;
  }

  /** Forgets the tree of `stream`. */
  delete(stream: string): void {
    this.trees.delete(stream);
  }

  /** The tree of `stream` as last folded here, if kept (and marks it recently used). */
  get(stream: string): FoldedTree | undefined {
    const tree = this.trees.get(stream);
    if (tree) {
      this.trees.delete(stream);
      this.trees.set(stream, tree);
    }
    return tree;
  }

  /**
   * Keeps `tree` unless an entry of a later revision is kept already (a slower concurrent load). A tree
   * without resources (no stream yet, or all hard-deleted) is not kept.
   */
  put(stream: string, tree: FoldedTree): void {
    const kept = this.trees.get(stream);
    if (kept && kept.revision > tree.revision) return;
    this.trees.delete(stream);
    if (this.capacity === 0 || tree.state.resources.size === 0) return;
    this.trees.set(stream, tree);
    if (this.trees.size > this.capacity) this.trees.delete(this.trees.keys().next().value!);
  }
}
