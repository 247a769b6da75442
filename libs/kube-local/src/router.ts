/**
 * Resolves request paths to what the local API server serves, the way kube-apiserver's
 * `RequestInfoFactory` reads them: `/api/v1/...` (core group) or `/apis/<group>/<version>/...`, then
 * `[namespaces/<ns>/]<plural>[/<name>[/<subresource>]]`, with `namespaces/<name>/status|finalize`
 * being subresources of the namespace itself.
 * Hand-rolled: the URL grammar is fixed and resolving it needs the kind registry, which a router
 * framework's path patterns cannot express more simply.
 */
import type { KindDef, KindRegistry } from './kinds.js';

export type Route =
  | { readonly type: 'apiVersions' }
  | { readonly type: 'groupList' }
  | { readonly type: 'group'; readonly group: string }
  | { readonly type: 'resourceList'; readonly group: string; readonly version: string }
  | { readonly type: 'version' }
  | { readonly type: 'health' }
  /** `/openapi/v2`, `/openapi/v3` (`gvPath` absent) or `/openapi/v3/<api/v1|apis/group/version>`. */
  | { readonly type: 'openapi'; readonly version: 'v2' | 'v3'; readonly gvPath?: string }
  | {
      readonly type: 'resource';
      readonly def: KindDef;
      readonly namespace?: string;
      readonly name?: string;
      readonly subresource?: 'status' | 'finalize';
    }
  | { readonly type: 'notFound' };

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const HEALTH_PATHS = new Set(['healthz', 'livez', 'readyz']);

/** Maps a URL path (no query) to a route; unknown paths and kinds give `notFound`. */
export function resolveRoute(path: string, kinds: KindRegistry): Route {
  let parts: string[];
  try {
    parts = path
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent);
  } catch {
    return { type: 'notFound' };
  }
  if (parts.length === 1 && parts[0] === 'version') return { type: 'version' };
  if (parts.length === 1 && HEALTH_PATHS.has(parts[0]!)) return { type: 'health' };
  if (parts[0] === 'openapi') {
    if (parts.length === 2 && parts[1] === 'v2') return { type: 'openapi', version: 'v2' };
    if (parts[1] === 'v3')
      return parts.length === 2 ? { type: 'openapi', version: 'v3' } : { type: 'openapi', version: 'v3', gvPath: parts.slice(2).join('/') };
    return { type: 'notFound' };
  }
  let group: string;
  let version: string | undefined;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length === 1) return { type: 'apiVersions' };
    [group, version, rest] = ['', parts[1], parts.slice(2)];
  } else if (parts[0] === 'apis') {
    if (parts.length === 1) return { type: 'groupList' };
    group = parts[1]!;
    if (parts.length === 2) return kinds.groups().some((g) => g.name === group) ? { type: 'group', group } : { type: 'notFound' };
    [version, rest] = [parts[2], parts.slice(3)];
  } else {
    return { type: 'notFound' };
  }
  if (!version || !kinds.hasVersion(group, version)) return { type: 'notFound' };
  if (rest.length === 0) return { type: 'resourceList', group, version };
  return resolveResource(kinds, group, version, rest);
}

function resolveResource(kinds: KindRegistry, group: string, version: string, parts: string[]): Route {
  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) {
    namespace = parts[1];
    parts = parts.slice(2);
  }
  if (parts.length > 3) return { type: 'notFound' };
  const [plural, name, subresource] = parts as [string, string | undefined, string | undefined];
  const def = kinds.byPlural(group, version, plural);
  if (!def) return { type: 'notFound' };
  if (namespace !== undefined && !def.namespaced) return { type: 'notFound' };
  if (namespace === undefined && def.namespaced && name !== undefined) return { type: 'notFound' };
  if (subresource !== undefined) {
    const allowed =
      subresource === 'status' ? def.statusSubresource : subresource === 'finalize' && def.builtIn && def.kind === 'Namespace';
    if (!allowed) return { type: 'notFound' };
  }
  return {
    type: 'resource',
    def,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource: subresource as 'status' | 'finalize' } : {}),
  };
}
