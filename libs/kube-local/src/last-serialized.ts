/**
 * The JSON of the last object a watch event carried, so one change fanned out to every watcher of its
 * kind is serialized once. It holds one object at a time on purpose: keeping the JSON of every stored
 * snapshot (say a `WeakMap` keyed by them) would keep it for as long as the change window holds the
 * snapshot, 14.5 MB of strings on `decom start` after 1,000 clusters × 2 nodepools came and went, for
 * replays that are rare (a watch resuming from an older `resourceVersion`).
 */
export class LastSerialized<T extends object> {
  private last?: { readonly object: T; readonly json: string };

  /** The JSON of `object`: `serialize(object)`, or the last answer when `object` is the same reference as last time. */
  json(object: T, serialize: (object: T) => string): string {
    if (this.last?.object === object) return this.last.json;
    const json = serialize(object);
    this.last = { object, json };
    return json;
  }

  /** Whether the JSON of `object` is the one held (at most one object is). */
  holds(object: T): boolean {
    return this.last?.object === object;
  }
}
