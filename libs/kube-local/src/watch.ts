/**
 * The `watch` verb of the local API server (`GET <list path>?watch=true`), as kube-apiserver's watch
 * cache serves it (`staging/src/k8s.io/apiserver/pkg/storage/cacher`), so @kubernetes/client-node's
 * `Watch` and `makeInformer` work unchanged:
 * - a chunked `application/json` stream of newline-delimited `{"type","object"}` events: ADDED,
 *   MODIFIED, DELETED (the last state, with the delete's `resourceVersion`), BOOKMARK, ERROR;
 * - `resourceVersion` absent or `"0"`: a synthetic ADDED per current object, then changes; an exact
 *   version: only the changes after it, replayed from the store's change window; one older than the
 *   window: an in-stream ERROR `410 Expired` then the end of the stream (real servers answer 200 and
 *   send it as an event, not as an HTTP 410); one the store has not reached: wait up to 3 s, then an
 *   ERROR `504 Timeout` (`ResourceVersionTooLarge`);
 * - `labelSelector` / `fieldSelector` filter per change: an object entering the selection is ADDED,
 *   one leaving it is DELETED (its previous state with the new `resourceVersion`);
 * - `allowWatchBookmarks=true`: a BOOKMARK (kind, apiVersion, `metadata.resourceVersion` only) every
 *   bookmark interval and 2 s before the deadline;
 * - `timeoutSeconds`: the server ends the stream cleanly at that deadline (default: a random time
 *   between the min request timeout and twice it, as kube-apiserver's `--min-request-timeout`).
 * A client that stops reading is cut off (the stream ends) once too much is buffered, as the watch
 * cache drops unresponsive watchers; it resumes from its last `resourceVersion`.
 */
import type { ServerResponse } from 'node:http';
import type { ApiContext } from './api-context.js';
import type { WindowedChange } from './change-window.js';
import { matchesFields, parseFieldSelector, selectableFields, type FieldRequirement } from './field-selector.js';
import type { KindDef } from './kinds.js';
import { LastSerialized } from './last-serialized.js';
import { matchesLabels, parseLabelSelector, SelectorSyntaxError, type LabelRequirement } from './label-selector.js';
import type { KubeObject } from './object-store.js';
import { badRequest, expired, tooLargeResourceVersion, type KubeStatus } from './status-errors.js';

export interface WatchSettings {
  /** Period of BOOKMARK events for `allowWatchBookmarks=true`, in ms (kube-apiserver: about a minute). */
  readonly bookmarkIntervalMs: number;
  /** A watch without `timeoutSeconds` lasts a random time in [this, 2 × this] seconds. */
  readonly minRequestTimeoutSeconds: number;
  /** How long a watch from a future `resourceVersion` waits for the store to reach it, in ms (real: 3 s). */
  readonly futureVersionWaitMs: number;
}

export const DEFAULT_WATCH_SETTINGS: WatchSettings = {
  bookmarkIntervalMs: 60_000,
  minRequestTimeoutSeconds: 1800,
  futureVersionWaitMs: 3000,
};

/** What a watch request names: the kind, the namespace (undefined = all) and, for the legacy named form, the object. */
export interface WatchTarget {
  readonly def: KindDef;
  readonly namespace?: string;
  readonly name?: string;
}

/** Bytes a watcher may have unsent before the server ends its stream. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** A bookmark goes this long before the deadline, so the client can resume from it (cacher: 2 s). */
const PRE_TIMEOUT_BOOKMARK_MS = 2000;

interface Watcher {
  readonly def: KindDef;
  readonly namespace?: string;
  readonly labels: LabelRequirement[];
  readonly fields: FieldRequirement[];
  readonly res: ServerResponse;
  readonly bookmarks: boolean;
  /** Epoch ms on the timer clock (`Date.now`, not the injected clock: deadlines are real time like `setTimeout`). */
  readonly deadline: number;
  /** Only changes after this `resourceVersion` are sent. */
  afterVersion: number;
  readonly timers: { deadline?: NodeJS.Timeout; bookmark?: NodeJS.Timeout; futureVersion?: NodeJS.Timeout };
  closed: boolean;
}

const kindKey = (def: KindDef): string => `${def.apiVersion}/${def.kind}`;

export class WatchHub {
  private readonly watchers = new Map<string, Set<Watcher>>();
  /** Stored objects never change in place, so one JSON serves every watcher a change goes to (last-serialized.ts). */
  private readonly json = new LastSerialized<KubeObject>();

  constructor(
    private readonly ctx: ApiContext,
    private readonly settings: WatchSettings,
  ) {
    ctx.store.onChange((change) => this.publish(change));
  }

  /** Open watch streams. */
  get size(): number {
    let n = 0;
    for (const set of this.watchers.values()) n += set.size;
    return n;
  }

  /**
   * Starts a watch on `res`: checks the query, answers 200 with the stream, sends the initial or
   * replayed events and then every matching change until the deadline or the client goes.
   * @throws KubeStatusError 400 for an unparsable selector, `resourceVersion` or `timeoutSeconds`
   *   (nothing is written to `res` then).
   */
  open(target: WatchTarget, query: Readonly<Record<string, string>>, res: ServerResponse): void {
    const { def } = target;
    let labels: LabelRequirement[];
    let fields: FieldRequirement[];
    try {
      labels = parseLabelSelector(query.labelSelector ?? '');
      fields = parseFieldSelector(query.fieldSelector ?? '', selectableFields(def));
    } catch (error) {
      if (error instanceof SelectorSyntaxError) throw badRequest(error.message);
      throw error;
    }
    // The deprecated `GET .../<plural>/<name>?watch=true` watches that one object.
    if (target.name !== undefined) fields = [...fields, { field: 'metadata.name', equals: true, value: target.name }];
    const requested = parseResourceVersion(query.resourceVersion);
    const timeoutMs = this.timeoutMsOf(query.timeoutSeconds);

    const current = Number(this.ctx.store.resourceVersion);
    const watcher: Watcher = {
      def,
      ...(def.namespaced && target.namespace !== undefined ? { namespace: target.namespace } : {}),
      labels,
      fields,
      res,
      bookmarks: query.allowWatchBookmarks === 'true' || query.allowWatchBookmarks === '1',
      deadline: Date.now() + timeoutMs,
      afterVersion: current,
      timers: {},
      closed: false,
    };
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    res.on('close', () => this.forget(watcher));
    // The client may already be gone (its 'close' came before the listener): nothing to serve.
    if (res.destroyed) return;

    if (requested === undefined) {
      // "Get State and Start at Most Recent": the current objects as ADDED, then changes.
      for (const object of this.ctx.store.list(def, watcher.namespace, labels)) {
        if (this.matches(watcher, object)) this.send(watcher, 'ADDED', object);
      }
    } else if (requested > current) {
      watcher.afterVersion = requested;
      watcher.timers.futureVersion = setTimeout(() => {
        const now = Number(this.ctx.store.resourceVersion);
        if (now < requested) this.fail(watcher, tooLargeResourceVersion(requested, now).status);
      }, this.settings.futureVersionWaitMs);
    } else {
      const replay = this.ctx.store.window.since(requested);
      if (replay === undefined) {
        this.fail(watcher, expired(requested, this.ctx.store.window.floor).status);
        return;
      }
      watcher.afterVersion = requested;
      for (const change of replay) {
        if (kindKey(change.def) === kindKey(def)) this.deliver(watcher, change);
      }
      watcher.afterVersion = current;
    }
    if (watcher.closed) return;
    this.add(watcher);
    watcher.timers.deadline = setTimeout(() => this.end(watcher), timeoutMs);
    if (watcher.bookmarks) this.scheduleBookmark(watcher);
  }

  /** Ends every open watch abruptly (sockets destroyed: clients see a dropped connection); returns how many. */
  dropAll(): number {
    let dropped = 0;
    for (const set of [...this.watchers.values()]) {
      for (const watcher of [...set]) {
        dropped++;
        this.forget(watcher);
        watcher.res.destroy();
      }
    }
    return dropped;
  }

  private publish(change: WindowedChange): void {
    const set = this.watchers.get(kindKey(change.def));
    if (!set) return;
    for (const watcher of set) this.deliver(watcher, change);
  }

  /** Sends what `change` means to this watcher's selection (cacher's convertToWatchEvent). */
  private deliver(watcher: Watcher, change: WindowedChange): void {
    if (change.resourceVersion <= watcher.afterVersion) return;
    if (watcher.namespace !== undefined && change.object.metadata.namespace !== watcher.namespace) return;
    const isIn = change.type !== 'DELETED' && this.matches(watcher, change.object);
    const wasIn = change.previous !== undefined && this.matches(watcher, change.previous);
    if (isIn) this.send(watcher, wasIn ? 'MODIFIED' : 'ADDED', change.object);
    else if (wasIn) {
      const last =
        change.type === 'DELETED'
          ? change.object
          : { ...change.previous!, metadata: { ...change.previous!.metadata, resourceVersion: change.object.metadata.resourceVersion } };
      this.send(watcher, 'DELETED', last);
    }
  }

  private matches(watcher: Watcher, object: KubeObject): boolean {
    return matchesLabels(watcher.labels, object.metadata.labels) && matchesFields(watcher.fields, object);
  }

  private send(watcher: Watcher, type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject): void {
    // Built-in kinds' list items lack apiVersion/kind, but watch events always carry them.
    const json = this.json.json(object, (o) => JSON.stringify({ ...o, apiVersion: watcher.def.apiVersion, kind: watcher.def.kind }));
    this.write(watcher, `{"type":"${type}","object":${json}}\n`);
  }

  private write(watcher: Watcher, line: string): void {
    if (watcher.closed || watcher.res.destroyed) return;
    watcher.res.write(line);
    if (watcher.res.writableLength > MAX_BUFFERED_BYTES) this.end(watcher);
  }

  /** An ERROR event with `status`, then the end of the stream. */
  private fail(watcher: Watcher, status: KubeStatus): void {
    this.write(watcher, `${JSON.stringify({ type: 'ERROR', object: status })}\n`);
    this.end(watcher);
  }

  /** The next BOOKMARK: one interval from now, or 2 s before the deadline when that comes first. */
  private scheduleBookmark(watcher: Watcher): void {
    const now = Date.now();
    const preTimeout = watcher.deadline - PRE_TIMEOUT_BOOKMARK_MS;
    const at = preTimeout > now ? Math.min(now + this.settings.bookmarkIntervalMs, preTimeout) : now + this.settings.bookmarkIntervalMs;
    watcher.timers.bookmark = setTimeout(() => {
      if (watcher.closed) return;
      const current = Number(this.ctx.store.resourceVersion);
      // Every change up to `current` has been sent (changes go out as they happen), so a client may resume from it.
      if (current >= watcher.afterVersion) {
        const bookmark = { kind: watcher.def.kind, apiVersion: watcher.def.apiVersion, metadata: { resourceVersion: String(current) } };
        this.write(watcher, `${JSON.stringify({ type: 'BOOKMARK', object: bookmark })}\n`);
      }
      this.scheduleBookmark(watcher);
    }, at - now);
  }

  private add(watcher: Watcher): void {
    const key = kindKey(watcher.def);
    let set = this.watchers.get(key);
    if (!set) this.watchers.set(key, (set = new Set()));
    set.add(watcher);
  }

  /** Ends the stream cleanly (the chunked terminator): the client's watch is done without an error. */
  private end(watcher: Watcher): void {
    this.forget(watcher);
    if (!watcher.res.destroyed) watcher.res.end();
  }

  private forget(watcher: Watcher): void {
    if (watcher.closed) return;
    watcher.closed = true;
    for (const timer of Object.values(watcher.timers)) clearTimeout(timer);
    this.watchers.get(kindKey(watcher.def))?.delete(watcher);
  }

  private timeoutMsOf(value: string | undefined): number {
    if (value !== undefined && value !== '') {
      if (!/^\d+$/.test(value)) throw badRequest(`invalid timeoutSeconds: ${JSON.stringify(value)}: must be a non-negative integer`);
      if (Number(value) > 0) return Number(value) * 1000;
    }
    const min = this.settings.minRequestTimeoutSeconds * 1000;
    return Math.round(min * (1 + Math.random()));
  }
}

/** undefined for "start from the current state" (absent, empty or `"0"`). @throws KubeStatusError 400 otherwise unparsable. */
function parseResourceVersion(value: string | undefined): number | undefined {
  if (value === undefined || value === '' || value === '0') return undefined;
  if (!/^\d+$/.test(value))
    throw badRequest(`resourceVersion: Invalid value: ${JSON.stringify(value)}: must be a decimal resource version`);
  return Number(value);
}
