/**
 * What the adapters of one process watch: one watch per
 * (apiVersion, kind, namespace scope) their task configs' Kubernetes resources use, label-selected by
 * `decom.io/managed-by in (<adapters>)` (ownership.ts). A literal `discovery.namespace` is watched in
 * that namespace; a templated one (`{{ .clusterId | lower }}`), `"*"` or none (cluster-scoped kinds)
 * across all namespaces, which then also covers that kind's literal namespaces. Maestro resources are
 * left out (their status feed is not watched: the backoff re-runs cover them); so are manifests whose
 * `apiVersion` or `kind` is templated, and adapters whose name is not a valid label value.
 */
import type { ResourceSpec, TaskConfig } from '../config/task-config.types.js';
import { managedKindOf } from '../leaks/marked-objects.js';
import { MANAGED_BY_LABEL, managedByValue } from '../executor/ownership.js';

export interface WatchScope {
  readonly apiVersion: string;
  readonly kind: string;
  /** Undefined: every namespace (or a cluster-scoped kind). */
  readonly namespace?: string;
  /** The adapters whose objects this watch delivers, sorted. */
  readonly adapters: readonly string[];
  /** `decom.io/managed-by in (a,b)`. */
  readonly labelSelector: string;
}

/** The literal namespace a resource's objects live in, or undefined (templated, `*`, none). */
function literalNamespace(spec: ResourceSpec): string | undefined {
  const namespace = spec.discovery.namespace;
  if (!namespace || namespace.compiled) return undefined;
  const text = namespace.source.trim();
  return text === '' || text === '*' || text.includes('{{') ? undefined : text;
}

/** `a/b` + namespace → one key; `*` = all namespaces. */
const keyOf = (apiVersion: string, kind: string, namespace: string | undefined) => `${apiVersion}\u0000${kind}\u0000${namespace ?? '*'}`;

/** The watches for `adapters` (name → task config), in a stable order. */
export function watchScopes(adapters: readonly { readonly name: string; readonly task: TaskConfig }[]): WatchScope[] {
  const scopes = new Map<string, { apiVersion: string; kind: string; namespace?: string; adapters: Set<string> }>();
  for (const { name, task } of adapters) {
    if (managedByValue(name) === undefined) continue;
    for (const spec of task.resources) {
      const kind = managedKindOf(spec);
      if (!kind) continue;
      const namespace = literalNamespace(spec);
      const key = keyOf(kind.apiVersion, kind.kind, namespace);
      const scope =
        scopes.get(key) ?? scopes.set(key, { ...kind, ...(namespace !== undefined && { namespace }), adapters: new Set() }).get(key)!;
      scope.adapters.add(name);
    }
  }
  // A watch of every namespace already delivers the kind's objects of each single namespace.
  for (const [key, scope] of scopes) {
    if (scope.namespace === undefined) continue;
    const wide = scopes.get(keyOf(scope.apiVersion, scope.kind, undefined));
    if (!wide) continue;
    scope.adapters.forEach((a) => wide.adapters.add(a));
    scopes.delete(key);
  }
  return [...scopes.values()]
    .map((s) => {
      const names = [...s.adapters].sort();
      return {
        apiVersion: s.apiVersion,
        kind: s.kind,
        ...(s.namespace !== undefined && { namespace: s.namespace }),
        adapters: names,
        labelSelector: `${MANAGED_BY_LABEL} in (${names.join(',')})`,
      };
    })
    .sort((a, b) => keyOf(a.apiVersion, a.kind, a.namespace).localeCompare(keyOf(b.apiVersion, b.kind, b.namespace)));
}

/** `v1 ConfigMap (all namespaces)`, `batch/v1 Job in ns-1`: for logs and `/readyz`. */
export function describeScope(scope: Pick<WatchScope, 'apiVersion' | 'kind' | 'namespace'>): string {
  return `${scope.apiVersion} ${scope.kind} ${scope.namespace !== undefined ? `in ${scope.namespace}` : '(all namespaces)'}`;
}
