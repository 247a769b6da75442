/**
 * The kinds the local Kubernetes API server serves, and how each behaves on the wire.
 * A `KindDef` is what real Kubernetes spreads over a REST storage and its strategy: plural, scope,
 * status subresource, default deletion propagation.
 */

/** Deletion propagation policies, spelled as on the wire (`DeleteOptions.propagationPolicy`). */
export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export const PROPAGATION_POLICIES: readonly PropagationPolicy[] = ['Background', 'Foreground', 'Orphan'];

/** What `registerKind` takes: a CRD-like kind. */
export interface KindRegistration {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** Singular lower-case name for discovery; defaults to `kind.toLowerCase()`. */
  readonly singular?: string;
  /** Like a CRD's `subresources.status`: when true, `status` is written only through `/status`. Default false. */
  readonly statusSubresource?: boolean;
  readonly shortNames?: readonly string[];
}

export interface KindDef {
  readonly group: string;
  readonly version: string;
  /** `v1` for the core group, `<group>/<version>` otherwise. */
  readonly apiVersion: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly statusSubresource: boolean;
  readonly shortNames: readonly string[];
  /** Built-in kinds omit `apiVersion`/`kind` on list items and accept strategic merge patch; CRDs do neither. */
  readonly builtIn: boolean;
  /** Policy used when a DELETE names none (batch/v1 Job keeps `Orphan` for backward compatibility). */
  readonly defaultPropagation: PropagationPolicy;
  /** DELETE answers with the deleted object instead of a `Status` (true for Pods). */
  readonly returnsDeletedObject: boolean;
}

export const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

/** `apiVersion` string for a group and version (`''` is the core group). */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

function builtIn(
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
  extra: Partial<Pick<KindDef, 'statusSubresource' | 'shortNames' | 'defaultPropagation' | 'returnsDeletedObject'>> = {},
): KindDef {
  return {
    group,
    version,
    apiVersion: apiVersionOf(group, version),
    kind,
    plural,
    singular: kind.toLowerCase(),
    namespaced,
    statusSubresource: extra.statusSubresource ?? false,
    shortNames: extra.shortNames ?? [],
    builtIn: true,
    defaultPropagation: extra.defaultPropagation ?? 'Background',
    returnsDeletedObject: extra.returnsDeletedObject ?? false,
  };
}

/** The built-in set, as a fresh array (each server owns its registry). */
export function builtInKinds(): KindDef[] {
  return [
    builtIn('', 'v1', 'Namespace', 'namespaces', false, { statusSubresource: true, shortNames: ['ns'] }),
    builtIn('', 'v1', 'ConfigMap', 'configmaps', true, { shortNames: ['cm'] }),
    builtIn('', 'v1', 'Secret', 'secrets', true),
    builtIn('', 'v1', 'ServiceAccount', 'serviceaccounts', true, { shortNames: ['sa'] }),
    builtIn('', 'v1', 'Service', 'services', true, { statusSubresource: true, shortNames: ['svc'] }),
    builtIn('', 'v1', 'Pod', 'pods', true, { statusSubresource: true, shortNames: ['po'], returnsDeletedObject: true }),
    builtIn('', 'v1', 'Event', 'events', true, { shortNames: ['ev'] }),
    builtIn('apps', 'v1', 'Deployment', 'deployments', true, { statusSubresource: true, shortNames: ['deploy'] }),
    builtIn('apps', 'v1', 'ReplicaSet', 'replicasets', true, { statusSubresource: true, shortNames: ['rs'] }),
    // Real batch/v1 Jobs default to Orphan (pkg/registry/batch/job/strategy.go, "for back compatibility").
    builtIn('batch', 'v1', 'Job', 'jobs', true, { statusSubresource: true, defaultPropagation: 'Orphan' }),
    builtIn('rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true),
    builtIn('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true),
    builtIn('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false),
    // Upstream one event store served in two versions; here the recorder writes each event in both.
    builtIn('events.k8s.io', 'v1', 'Event', 'events', true, { shortNames: ['ev'] }),
    // A CRD in real clusters (open-cluster-management's work API) with the status subresource enabled.
    fromRegistration({
      group: 'work.open-cluster-management.io',
      version: 'v1',
      kind: 'ManifestWork',
      plural: 'manifestworks',
      namespaced: true,
      statusSubresource: true,
    }),
  ];
}

/** Turns a CRD-like registration into a `KindDef`. */
export function fromRegistration(def: KindRegistration): KindDef {
  return {
    group: def.group,
    version: def.version,
    apiVersion: apiVersionOf(def.group, def.version),
    kind: def.kind,
    plural: def.plural.toLowerCase(),
    singular: def.singular ?? def.kind.toLowerCase(),
    namespaced: def.namespaced,
    statusSubresource: def.statusSubresource ?? false,
    shortNames: def.shortNames ?? [],
    builtIn: false,
    defaultPropagation: 'Background',
    returnsDeletedObject: false,
  };
}

/** The kinds one server knows, looked up by URL (`plural`) or by object (`apiVersion` + `kind`). */
export class KindRegistry {
  private readonly defs: KindDef[] = [];

  constructor(initial: readonly KindDef[] = builtInKinds()) {
    for (const def of initial) this.add(def);
  }

  /**
   * Adds a kind, or replaces the one with the same group/version/kind.
   * @throws Error when another kind of that group/version already uses the plural.
   */
  add(def: KindDef): void {
    const clash = this.defs.find((d) => d.apiVersion === def.apiVersion && d.plural === def.plural && d.kind !== def.kind);
    if (clash) throw new Error(`plural '${def.plural}' is already served for ${clash.apiVersion} ${clash.kind}`);
    const index = this.defs.findIndex((d) => d.apiVersion === def.apiVersion && d.kind === def.kind);
    if (index >= 0) this.defs[index] = def;
    else this.defs.push(def);
  }

  byPlural(group: string, version: string, plural: string): KindDef | undefined {
    return this.defs.find((d) => d.group === group && d.version === version && d.plural === plural);
  }

  byKind(apiVersion: string, kind: string): KindDef | undefined {
    return this.defs.find((d) => d.apiVersion === apiVersion && d.kind === kind);
  }

  all(): readonly KindDef[] {
    return this.defs;
  }

  /** Non-core groups in registration order, each with its versions. */
  groups(): { name: string; versions: string[] }[] {
    const groups = new Map<string, string[]>();
    for (const d of this.defs) {
      if (d.group === '') continue;
      const versions = groups.get(d.group) ?? [];
      if (!versions.includes(d.version)) versions.push(d.version);
      groups.set(d.group, versions);
    }
    return [...groups].map(([name, versions]) => ({ name, versions }));
  }

  hasVersion(group: string, version: string): boolean {
    return this.defs.some((d) => d.group === group && d.version === version);
  }
}
