/**
 * The namespace controller of the local API server, after kube-controller-manager's
 * (`pkg/controller/namespace/deletion/namespaced_resources_deleter.go`): for each `Terminating`
 * namespace it deletes every object inside with `propagationPolicy: Background`, reports what is left in
 * `status.conditions` (`NamespaceContentRemaining`, `NamespaceFinalizersRemaining`), and once the
 * namespace is empty drops the `kubernetes` entry of `spec.finalizers`, which removes it.
 */
import { namespaceKind, rfc3339, type ApiContext } from './api-context.js';
import { deleteObject, NAMESPACE_FINALIZER, removeIfReleased } from './deletion.js';
import { jsonEqual } from './json-equal.js';
import type { KubeObject, StoredEntry } from './object-store.js';
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
  constructor(private readonly ctx: ApiContext) {}

  runOnce(): void {
    const nsDef = namespaceKind(this.ctx);
    for (const ns of this.ctx.store.list(nsDef)) {
      if (ns.metadata.deletionTimestamp) this.drain(ns);
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
    return this.ctx.store.entries().filter(({ def, object }) => def.namespaced && object.metadata.namespace === namespace);
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
      condition('NamespaceContentRemaining', true, 'SomeResourcesRemain', `Some resources are remaining: ${describeCounts(byResource, 'has %d resource instances')}`),
      byFinalizer.size > 0
        ? condition('NamespaceFinalizersRemaining', true, 'SomeFinalizersRemain', `Some content in the namespace has finalizers remaining: ${describeCounts(byFinalizer, 'in %d resource instances')}`)
        : condition('NamespaceFinalizersRemaining', false, 'ContentHasNoFinalizers', 'All content-preserving finalizers have been removed'),
    ];
    const comparable = (cs: NamespaceCondition[]) => cs.map(({ lastTransitionTime: _t, ...rest }) => rest);
    if (jsonEqual(comparable(conditions), comparable(previous)) && status.phase === 'Terminating') return;
    ns.status = { ...status, phase: 'Terminating', conditions };
    this.ctx.store.write(namespaceKind(this.ctx), ns);
  }
}
