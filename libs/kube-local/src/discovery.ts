/**
 * Discovery documents of the local API server (`/api`, `/apis`, `/apis/<group>`, `/api/v1`,
 * `/apis/<group>/<version>`, `/version`), built from the kind registry. `KubernetesObjectApi` reads
 * `APIResourceList` to find a kind's plural and scope, taking the first entry with that `kind`, so
 * main resources are listed before their subresources, as real servers list them.
 */
import { apiVersionOf, VERBS, type KindRegistry } from './kinds.js';

/** Served kinds in the `all` category (`kubectl get all`), as their registries list them (`Categories()`). */
const ALL_CATEGORY = new Set(['Pod', 'Service', 'Deployment', 'ReplicaSet', 'Job']);

/** `/api`: the core group's versions. */
export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupBody(name: string, versions: string[]): Record<string, unknown> {
  const entries = versions.map((version) => ({ groupVersion: apiVersionOf(name, version), version }));
  return { name, versions: entries, preferredVersion: entries[0] };
}

/** `/apis`: every non-core group. */
export function apiGroupList(kinds: KindRegistry): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: kinds.groups().map((g) => groupBody(g.name, g.versions)) };
}

/** `/apis/<group>`. */
export function apiGroup(kinds: KindRegistry, group: string): Record<string, unknown> {
  const found = kinds.groups().find((g) => g.name === group);
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupBody(group, found?.versions ?? []) };
}

/** `/api/v1` or `/apis/<group>/<version>`: resources with plural, scope, kind and verbs (every kind serves `watch`). */
export function apiResourceList(kinds: KindRegistry, group: string, version: string): Record<string, unknown> {
  const defs = kinds.all().filter((d) => d.group === group && d.version === version);
  const main = defs.map((d) => ({
    name: d.plural,
    singularName: d.singular,
    namespaced: d.namespaced,
    kind: d.kind,
    verbs: [...VERBS],
    ...(d.shortNames.length > 0 ? { shortNames: [...d.shortNames] } : {}),
    ...(d.builtIn && ALL_CATEGORY.has(d.kind) ? { categories: ['all'] } : {}),
  }));
  const subresources = defs.flatMap((d) => [
    ...(d.statusSubresource
      ? [{ name: `${d.plural}/status`, singularName: '', namespaced: d.namespaced, kind: d.kind, verbs: ['get', 'patch', 'update'] }]
      : []),
    ...(d.builtIn && d.kind === 'Namespace'
      ? [{ name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] }]
      : []),
  ]);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources: [...main, ...subresources] };
}

/** `/version`: a version.Info naming this server. */
export function versionInfo(): Record<string, unknown> {
  return {
    major: '1',
    minor: '31',
    gitVersion: 'v1.31.0+kube-local',
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: 'none',
    compiler: 'node',
    platform: `${process.platform}/${process.arch}`,
  };
}
