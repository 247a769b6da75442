/**
 * Events of the local API server: what its garbage collector, namespace controller and deletions do
 * or wait for, written as `v1 Event` and `events.k8s.io/v1 Event` objects the way client-go's event
 * recorder writes them (`staging/src/k8s.io/client-go/tools/record/event.go`, `events_cache.go`):
 * - in the object's namespace, or `default` for cluster-scoped objects;
 * - a repeat of the same reason and message about the same object bumps `count` and
 *   `lastTimestamp` of one event instead of adding another (the recorder's aggregation);
 * - never into a namespace that is missing or terminating (NamespaceLifecycle admission refuses
 *   the create, and the recorder drops it); the namespace's own events say why it is stuck;
 * - at most `maxEvents` per kind are kept, oldest dropped, in place of kube-apiserver's `--event-ttl`
 *   (1 h), so a long-running embedded engine does not grow forever.
 */
import { createHash } from 'node:crypto';
import { namespaceKind, rfc3339, type ApiContext, type EventSink, type EventType } from './api-context.js';
import type { KindDef } from './kinds.js';
import type { KubeObject } from './object-store.js';

/** Events kept per kind when the server is not told otherwise. */
export const DEFAULT_MAX_EVENTS = 1000;

type StoreContext = Omit<ApiContext, 'events'>;

/** RFC 3339 UTC with microseconds, the `MicroTime` format of `eventTime`. */
function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export class EventRecorder implements EventSink {
  constructor(
    private readonly ctx: StoreContext,
    private readonly maxEvents = DEFAULT_MAX_EVENTS,
  ) {}

  record(def: KindDef, object: KubeObject, type: EventType, reason: string, message: string, component: string): void {
    const coreDef = this.ctx.kinds.byKind('v1', 'Event');
    const eventsDef = this.ctx.kinds.byKind('events.k8s.io/v1', 'Event');
    if (!coreDef || !eventsDef) return;
    const meta = object.metadata;
    const namespace = def.namespaced ? meta.namespace : 'default';
    if (namespace === undefined || !this.admits(namespace)) return;
    const key = createHash('sha256').update(`${meta.uid}\n${type}\n${reason}\n${message}`).digest('hex').slice(0, 16);
    const name = `${meta.name}.${key}`;
    const now = this.ctx.now();
    const stamp = rfc3339(now);
    const involved = {
      apiVersion: def.apiVersion,
      kind: def.kind,
      name: meta.name,
      ...(def.namespaced ? { namespace } : {}),
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
    };
    const previous = this.ctx.store.read(coreDef, namespace, name);
    const count = typeof previous?.count === 'number' ? previous.count + 1 : 1;
    const firstTimestamp = typeof previous?.firstTimestamp === 'string' ? previous.firstTimestamp : stamp;
    this.write(coreDef, previous, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: this.metadataOf(previous, name, namespace),
      involvedObject: involved,
      reason,
      message,
      source: { component },
      firstTimestamp,
      lastTimestamp: stamp,
      count,
      type,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: '',
    });
    const previousNew = this.ctx.store.read(eventsDef, namespace, name);
    this.write(eventsDef, previousNew, {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: this.metadataOf(previousNew, name, namespace),
      eventTime: typeof previousNew?.eventTime === 'string' ? previousNew.eventTime : microTime(now),
      reportingController: component,
      reportingInstance: component,
      action: reason,
      reason,
      regarding: involved,
      note: message,
      type,
      deprecatedSource: { component },
      deprecatedFirstTimestamp: firstTimestamp,
      deprecatedLastTimestamp: stamp,
      deprecatedCount: count,
    });
  }

  private admits(namespace: string): boolean {
    const ns = this.ctx.store.read(namespaceKind(this.ctx), undefined, namespace);
    return ns !== undefined && ns.metadata.deletionTimestamp === undefined;
  }

  private metadataOf(previous: KubeObject | undefined, name: string, namespace: string): KubeObject['metadata'] {
    if (previous) return structuredClone(previous.metadata);
    return {
      name,
      namespace,
      uid: this.ctx.newUid(),
      creationTimestamp: rfc3339(this.ctx.now()),
      generation: 1,
      resourceVersion: '',
    } as KubeObject['metadata'];
  }

  private write(def: KindDef, previous: KubeObject | undefined, event: KubeObject): void {
    this.ctx.store.write(def, event);
    if (previous) return;
    const all = this.ctx.store.list(def);
    if (all.length <= this.maxEvents) return;
    const oldest = [...all]
      .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
      .slice(0, all.length - this.maxEvents);
    for (const e of oldest) this.ctx.store.remove(def, e.metadata.namespace, e.metadata.name);
  }
}
