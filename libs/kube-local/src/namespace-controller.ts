/**
 * The namespace controller of the local API server, after kube-controller-manager's
 * (`pkg/controller/namespace/deletion/namespaced_resources_deleter.go`): for each `Terminating`
 * namespace it deletes every object inside with `propagationPolicy: Background`, reports what is left in
 * `status.conditions` (`NamespaceContentRemaining`, `NamespaceFinalizersRemaining`), and once the
 * namespace is empty drops the `kubernetes` entry of `spec.finalizers`, which removes it.
 * A pass looks only at the namespaces something happened to since the last (the namespace itself or
 * an object in it changed), and finds their content through the store's namespace index: a
 * terminating namespace nothing happened to has nothing new to delete or report.
 */
import { isNamespaceKind, namespaceKind, rfc3339, type ApiContext } from './api-context.js';
import { deleteObject, NAMESPACE_FINALIZER, removeIfReleased } from './deletion.js';
import { jsonEqual } from './json-equal.js';
import type { KubeObject, StoreEvent, StoredEntry } from './object-store.js';
import { KubeStatusError } from './status-errors.js';

interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime: string;
}

/** `<count> resource instances` per `plural.group`, worded as the real controller words them. */
function describeCounts(counts: Map<string, number>, suffix: string): string {
  return [...counts].map(([key, count]) => `${key} ${suffix.replace('%d', String(count))}`).join(', ');
}

export class NamespaceController {
  /** Namespaces to look at in the next pass. */
  private dirty = new Set<string>();

  constructor(private readonly ctx: ApiContext) {
    ctx.store.onChange((event) => this.queue(event));
  }

  /** One pass over the namespaces touched since the last, in name order (as a list of namespaces comes). */
  runOnce(): void {
    const nsDef = namespaceKind(this.ctx);
    const names = [...this.dirty].sort();
    this.dirty = new Set();
    for (const [i, name] of names.entries()) {
      try {
        const ns = this.ctx.store.read(nsDef, undefined, name);
        if (ns?.metadata.deletionTimestamp) this.drain(ns);
      } catch (error) {
        // Not done: look again next time.
        for (const rest of names.slice(i)) this.dirty.add(rest);
        throw error;
      }
    }
  }

  /** Looks at every namespace again. */
  resync(): void {
    for (const ns of this.ctx.store.list(namespaceKind(this.ctx))) this.dirty.add(ns.metadata.name);
  }

  private queue({ def, object }: StoreEvent): void {
    if (def.namespaced) {
      if (object.metadata.namespace !== undefined) this.dirty.add(object.metadata.namespace);
    } else if (isNamespaceKind(def)) {
      this.dirty.add(object.metadata.name);
    }
  }

  private drain(ns: KubeObject): void {
    const name = ns.metadata.name;
    for (const { def, object } of this.contents(name)) {
      if (object.metadata.deletionTimestamp) continue;
      try {
        deleteObject(this.ctx, def, name, object.metadata.name, { propagationPolicy: 'Background' });
      } catch (error) {
        if (!(error instanceof KubeStatusError && error.status.code === 404)) throw error;
      }
    }
    const remaining = this.contents(name);
    const nsDef = namespaceKind(this.ctx);
    const fresh = this.ctx.store.get(nsDef, undefined, name);
    if (!fresh) return;
    const spec = (fresh.spec ?? {}) as { finalizers?: string[] };
    if (remaining.length === 0) {
      if ((spec.finalizers ?? []).includes(NAMESPACE_FINALIZER)) {
        fresh.spec = { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== NAMESPACE_FINALIZER) };
        removeIfReleased(this.ctx, nsDef, this.ctx.store.write(nsDef, fresh));
      }
      return;
    }
    this.reportRemaining(fresh, remaining);
  }

  private contents(namespace: string): StoredEntry[] {
    return this.ctx.store.inNamespace(namespace);
  }

  private reportRemaining(ns: KubeObject, remaining: StoredEntry[]): void {
    const byResource = new Map<string, number>();
    const byFinalizer = new Map<string, number>();
    for (const { def, object } of remaining) {
      const key = `${def.plural}.${def.group}`;
      byResource.set(key, (byResource.get(key) ?? 0) + 1);
      for (const f of object.metadata.finalizers ?? []) byFinalizer.set(f, (byFinalizer.get(f) ?? 0) + 1);
    }
    const status = (ns.status ?? {}) as { phase?: string; conditions?: NamespaceCondition[] };
    const previous = status.conditions ?? [];
    const now = rfc3339(this.ctx.now());
    const condition = (type: string, isTrue: boolean, reason: string, message: string): NamespaceCondition => {
      const before = previous.find((c) => c.type === type);
      const value = isTrue ? 'True' : 'False';
      return { type, status: value, reason, message, lastTransitionTime: before?.status === value ? before.lastTransitionTime : now };
    };
    const conditions = [
      condition(
        'NamespaceContentRemaining',
        true,
        'SomeResourcesRemain',
        `Some resources are remaining: ${describeCounts(byResource, 'has %d resource instances')}`,
      ),
      byFinalizer.size > 0
        ? condition(
            'NamespaceFinalizersRemaining',
            true,
            'SomeFinalizersRemain',
            `Some content in the namespace has finalizers remaining: ${describeCounts(byFinalizer, 'in %d resource instances')}`,
          )
        : condition('NamespaceFinalizersRemaining', false, 'ContentHasNoFinalizers', 'All content-preserving finalizers have been removed'),
    ];
    const comparable = (cs: NamespaceCondition[]) => cs.map(({ lastTransitionTime: _t, ...rest }) => rest);
    if (jsonEqual(comparable(conditions), comparable(previous)) && status.phase === 'Terminating') return;
    ns.status = { ...status, phase: 'Terminating', conditions };
    const stored = this.ctx.store.write(namespaceKind(this.ctx), ns);
    // An event per condition that turned True or changed its message: what `kubectl describe ns` shows an
    // operator asking why the namespace is still there.
    for (const c of conditions) {
      const before = previous.find((p) => p.type === c.type);
      if (c.status !== 'True' || (before?.status === c.status && before.message === c.message)) continue;
      const type = c.type === 'NamespaceFinalizersRemaining' ? 'Warning' : 'Normal';
      this.ctx.events.record(namespaceKind(this.ctx), stored, type, c.type, c.message, 'namespace-controller');
    }
  }
}
