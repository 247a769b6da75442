/**
 * The Decom-specific step of the OpenAPI document: the kind routes are generic (`:plural`, `:id`,
 * `:childPlural`, `:pid`), so the document Nest's scanner produces has `/api/hyperfleet/v1/{plural}/...`
 * templates. This expands each into the concrete paths of every configured kind, as a client calls them:
 * - `/{plural}`: each top-level kind (`/clusters`, list and create), each child kind's flat list
 *   (`/nodepools`, list only: children are created under their parent) and `/resources` (every kind);
 * - `/{plural}/{id}...`: each top-level kind (`/clusters/{cluster_id}`), each child kind flat
 *   (`/nodepools/{nodepool_id}`, operationIds end in `Flat`) and `/resources/{id}`;
 * - `/{plural}/{id}/{childPlural}`: each child kind under its parent (`/clusters/{cluster_id}/nodepools`);
 * - `/{plural}/{pid}/{childPlural}/{id}...`: each child kind nested (`/clusters/{cluster_id}/nodepools/{nodepool_id}`).
 * A static route at the same path and method (e.g. `GET /resources/{id}`, HistoryController) wins, as in the router.
 *
 * One handler may serve a flat and a nested template (`:plural/:id/pause` and `:plural/:pid/:childPlural/:id/pause`):
 * the nested expansions come after the flat ones whatever order Nest scanned them in, so the document's paths
 * keep one order (flat addresses, then nested ones).
 *
 * A generic operation names its operationId, summary and tags with placeholders, filled per kind:
 * `{Kind}` (`Cluster`; `Resource` on `/resources`), `{Kinds}` (`Clusters`), `{Parent}` (the parent kind),
 * `{Flat}` (`Flat` on a child kind's flat address, else empty) and `{KindsIfNested}` (`{Kinds}` on an address
 * under the parent, else `{Kind}`: HyperFleet's `getNodePoolsStatuses` beside `getClusterStatuses`). So every kind keeps
 * HyperFleet's operationIds (`getClusters`, `postCluster`, `getClusterById`, `getNodePoolsByClusterId`,
 * `createNodePool`, `putResourceStatuses`, ...). A generic operation without a kind placeholder in its
 * operationId is an error.
 */
import type { KindDescriptor, KindRegistry } from '@decom/domain';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const HF = '/api/hyperfleet/v1';
const GENERIC = `${HF}/{plural}`;
/** The rest of a generic template naming a child under its parent (`/{pid}/{childPlural}/{id}...`). */
const NESTED = /^\/\{pid\}\/\{childPlural\}\/\{id\}(\/.*)?$/;
/** An operationId's kind placeholder (`{Kind}`, `{Kinds}`, `{KindsIfNested}`). */
const KIND_PLACEHOLDER = /\{Kinds?(IfNested)?\}/;

/** What fills one expansion's placeholders, and how its path parameters are renamed. */
interface Expansion {
  readonly path: string;
  readonly names: { Kind: string; Kinds: string; KindsIfNested: string; Parent?: string; Flat: string };
  /** Generic path parameter → the concrete one (`id` → `cluster_id`) and the kind it names. */
  readonly params: Readonly<Record<string, { name: string; kind: string }>>;
  /** Methods served at this address (a child kind's flat collection takes no POST). */
  readonly methods?: readonly string[];
  /** `/resources` only: the `kind` query parameter filters by kind. */
  readonly root: boolean;
}

/** `Cluster` → `Clusters`, `NodePool` → `NodePools`; a plural that is not `<kind>s` is used capitalised. */
export function pluralName(kind: KindDescriptor): string {
  return kind.plural === `${kind.kind.toLowerCase()}s` ? `${kind.kind}s` : kind.plural.charAt(0).toUpperCase() + kind.plural.slice(1);
}

const idName = (kind: KindDescriptor) => `${kind.kind.toLowerCase()}_id`;
const ROOT: KindDescriptor = { kind: 'Resource', plural: 'resources', required_adapters: [] };

/**
 * @param paths the scanned document's paths (full paths, `/api/...`)
 * @returns the paths with every `/api/hyperfleet/v1/{plural}...` template replaced by its concrete paths
 * @throws Error for a generic template of no known shape, or a generic operation without a kind placeholder
 */
export function expandKindPaths(paths: Readonly<Record<string, Json>>, kinds: KindRegistry): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) if (!isGeneric(path)) out[path] = item;
  const generic = Object.entries(paths).filter(([path]) => isGeneric(path));
  const isNested = ([path]: [string, Json]) => NESTED.test(path.slice(GENERIC.length));
  for (const [path, item] of [...generic.filter((entry) => !isNested(entry)), ...generic.filter(isNested)]) {
    for (const expansion of expansionsOf(path.slice(GENERIC.length), kinds)) {
      const concrete = expand(item, expansion);
      if (Object.keys(concrete).length === 0) continue;
      // A static route at the same path and method wins (Fastify prefers static segments).
      out[expansion.path] = { ...concrete, ...out[expansion.path] };
    }
  }
  return out;
}

function isGeneric(path: string): boolean {
  return path === GENERIC || path.startsWith(`${GENERIC}/`);
}

function expansionsOf(rest: string, kinds: KindRegistry): Expansion[] {
  const tops = kinds.descriptors.filter((k) => !k.parent_kind);
  const children = kinds.descriptors.filter((k) => k.parent_kind).map((child) => ({ child, parent: kinds.get(child.parent_kind!) }));
  const nested = NESTED.exec(rest);
  if (nested) {
    return children.map(({ child, parent }) => ({
      path: `${HF}/${parent.plural}/{${idName(parent)}}/${child.plural}/{${idName(child)}}${nested[1] ?? ''}`,
      names: { Kind: child.kind, Kinds: pluralName(child), KindsIfNested: pluralName(child), Parent: parent.kind, Flat: '' },
      params: { pid: { name: idName(parent), kind: parent.kind }, id: { name: idName(child), kind: child.kind } },
      root: false,
    }));
  }
  if (rest === '/{id}/{childPlural}') {
    return children.map(({ child, parent }) => ({
      path: `${HF}/${parent.plural}/{${idName(parent)}}/${child.plural}`,
      names: { Kind: child.kind, Kinds: pluralName(child), KindsIfNested: pluralName(child), Parent: parent.kind, Flat: '' },
      params: { id: { name: idName(parent), kind: parent.kind } },
      root: false,
    }));
  }
  const single = /^\/\{id\}(\/.*)?$/.exec(rest);
  if (single) {
    const tail = single[1] ?? '';
    return [
      ...kinds.descriptors.map((kind) => ({
        path: `${HF}/${kind.plural}/{${idName(kind)}}${tail}`,
        names: { Kind: kind.kind, Kinds: pluralName(kind), KindsIfNested: kind.kind, Flat: kind.parent_kind ? 'Flat' : '' },
        params: { id: { name: idName(kind), kind: kind.kind } },
        root: false,
      })),
      {
        path: `${HF}/resources/{id}${tail}`,
        names: { Kind: 'Resource', Kinds: 'Resources', KindsIfNested: 'Resource', Flat: '' },
        params: { id: { name: 'id', kind: 'Resource' } },
        root: false,
      },
    ];
  }
  if (rest === '') {
    return [
      ...tops.map((kind) => ({
        path: `${HF}/${kind.plural}`,
        names: { Kind: kind.kind, Kinds: pluralName(kind), KindsIfNested: kind.kind, Flat: '' },
        params: {},
        root: false,
      })),
      ...children.map(({ child }) => ({
        path: `${HF}/${child.plural}`,
        names: { Kind: child.kind, Kinds: pluralName(child), KindsIfNested: child.kind, Flat: '' },
        params: {},
        methods: ['get'],
        root: false,
      })),
      {
        path: `${HF}/${ROOT.plural}`,
        names: { Kind: 'Resource', Kinds: 'Resources', KindsIfNested: 'Resource', Flat: '' },
        params: {},
        root: true,
      },
    ];
  }
  throw new Error(`OpenAPI: no expansion for the generic route ${GENERIC}${rest}; extend kind-paths.ts with its shape`);
}

/** The operations of `item` for one kind address, placeholders filled and path parameters renamed. */
function expand(item: Json, expansion: Expansion): Json {
  const out: Json = {};
  for (const method of METHODS) {
    const operation = item[method] as Json | undefined;
    if (!operation || (expansion.methods && !expansion.methods.includes(method))) continue;
    const id = String(operation['operationId'] ?? '');
    if (!KIND_PLACEHOLDER.test(id)) {
      throw new Error(
        `OpenAPI: ${method.toUpperCase()} ${GENERIC}... serves every kind: give it @ApiOperation({ operationId }) with {Kind} or {Kinds} (got '${id}')`,
      );
    }
    const filled = fill(operation, expansion) as Json;
    // Path parameters from the concrete path itself (a handler taking `@Param() p` declares none by name).
    const others = ((filled['parameters'] ?? []) as Json[]).filter(
      (p) => p['in'] !== 'path' && !(p['in'] === 'query' && p['name'] === 'kind' && !expansion.root),
    );
    filled['parameters'] = [...pathParameters(expansion), ...others];
    out[method] = filled;
  }
  return out;
}

function fill(operation: Json, expansion: Expansion): unknown {
  const { Kind, Kinds, KindsIfNested, Parent, Flat } = expansion.names;
  const text = JSON.stringify(operation)
    .replaceAll('{KindsIfNested}', KindsIfNested)
    .replaceAll('{Kinds}', Kinds)
    .replaceAll('{Kind}', Kind)
    .replaceAll('{Flat}', Flat);
  if (text.includes('{Parent}') && Parent === undefined)
    throw new Error(`OpenAPI: {Parent} used on an address without a parent: ${expansion.path}`);
  return JSON.parse(Parent === undefined ? text : text.replaceAll('{Parent}', Parent));
}

/** The `{name}` parameters of the concrete path: ids of the kinds it names, and any other (`{adapter}`). */
function pathParameters(expansion: Expansion): Json[] {
  const ids = new Map(Object.values(expansion.params).map((p) => [p.name, p.kind]));
  return [...expansion.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    ...(ids.has(name!) && { description: `${ids.get(name!)} id (UUID v7)` }),
    schema: { type: 'string' },
  }));
}
