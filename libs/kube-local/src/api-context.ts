/**
 * What the server's operations and controllers share: the store, the kinds, and the injected clock
 * and uid source (time and ids are providers, so tests may fix them).
 */
import type { KindDef, KindRegistry } from './kinds.js';
import type { KubeObject, ObjectStore } from './object-store.js';

/** `Normal` or `Warning`, as `Event.type` spells them. */
export type EventType = 'Normal' | 'Warning';

/**
 * Where the server's controllers and deletions report what they did or wait for (the role of
 * client-go's `record.EventRecorder`): one `Event` about `object`, from `component`.
 */
export interface EventSink {
  record(def: KindDef, object: KubeObject, type: EventType, reason: string, message: string, component: string): void;
}

export interface ApiContext {
  readonly store: ObjectStore;
  readonly kinds: KindRegistry;
  readonly now: () => Date;
  readonly newUid: () => string;
  readonly events: EventSink;
}

/** RFC 3339 UTC with whole seconds, the format of `metadata.creationTimestamp` and `deletionTimestamp`. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The namespace an object of `def` lives in: the given one when namespaced, none when cluster-scoped. */
export function scopeOf(def: KindDef, namespace: string | undefined): string | undefined {
  return def.namespaced ? namespace : undefined;
}

/** The served `v1 Namespace` kind. @throws Error if the registry lost it (it is built in). */
export function namespaceKind(ctx: Pick<ApiContext, 'kinds'>): KindDef {
  const def = ctx.kinds.byKind('v1', 'Namespace');
  if (!def) throw new Error('the v1 Namespace kind is not registered');
  return def;
}

/** True for the built-in `v1 Namespace` kind. */
export function isNamespaceKind(def: KindDef): boolean {
  return def.builtIn && def.apiVersion === 'v1' && def.kind === 'Namespace';
}
