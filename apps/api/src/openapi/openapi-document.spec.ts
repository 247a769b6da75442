/**
 * The generated document's Decom-specific steps: every operation declares the security it needs (public
 * routes `security: []`, the others the configured scheme with their 403, and 401 when a token is
 * required), the generic kind routes become each kind's paths, and a generic route the expansion cannot
 * name is refused rather than documented wrongly.
 */
import { KindRegistry } from '@decom/domain';
import { loadEntitiesConfig } from '@decom/config';
import { PUBLIC_ROUTES } from '../auth/public-routes.js';
import { expandKindPaths } from './kind-paths.js';
import { standaloneOpenApiDocument } from './standalone-document.js';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Every operation with its full Fastify-style route (`GET /api/decom/v1/finalizing`). */
function operations(doc: Json): { route: string; operation: Json }[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]: [string, Json]) => {
    const server = item.servers?.[0]?.url ?? doc.servers[0].url;
    return METHODS.filter((m) => item[m]).map((m) => ({
      route: `${m.toUpperCase()} ${server === '/' ? '' : server}${path}`,
      operation: item[m] as Json,
    }));
  });
}

describe('the generated OpenAPI document', () => {
  let kinds: KindRegistry;
  let headerMode: Json;
  let jwtMode: Json;

  beforeAll(async () => {
    kinds = new KindRegistry(await loadEntitiesConfig('config/entities.yaml'));
    headerMode = await standaloneOpenApiDocument(kinds);
    jwtMode = await standaloneOpenApiDocument(kinds, { jwt: true, anonymousReads: false });
  });

  it('declares the security of every operation: public routes none, the others the configured scheme, 403, and 401 with JWT on', () => {
    const publicOps = operations(headerMode)
      .filter((o) => o.operation.security.length === 0)
      .map((o) => o.route);
    expect(publicOps.sort()).toEqual(['GET /healthz', 'GET /readyz']);
    expect(publicOps.every((route) => PUBLIC_ROUTES.includes(route))).toBe(true);
    expect(headerMode.components.securitySchemes).toEqual({
      HyperFleetIdentity: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-HyperFleet-Identity' }),
    });
    expect(jwtMode.components.securitySchemes).toEqual({
      BearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    });
    const problem = {
      description: expect.any(String),
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    for (const { route, operation } of operations(headerMode).filter((o) => !publicOps.includes(o.route))) {
      expect({ route, security: operation.security, 403: operation.responses['403'], 401: operation.responses['401'] }).toEqual({
        route,
        security: [{ HyperFleetIdentity: [] }, {}],
        403: problem,
        401: undefined,
      });
    }
    for (const { route, operation } of operations(jwtMode).filter((o) => !publicOps.includes(o.route))) {
      expect({ route, security: operation.security, 401: operation.responses['401'], 403: operation.responses['403'] }).toEqual({
        route,
        security: [{ BearerAuth: [] }],
        401: problem,
        403: problem,
      });
    }
    for (const route of publicOps) expect(operations(jwtMode).find((o) => o.route === route)?.operation.security).toEqual([]);
  });

  it('names the 400 of /finalizing and /audit, whose parameters are validated', () => {
    expect(Object.keys(headerMode.paths['/finalizing'].get.responses)).toContain('400');
    expect(Object.keys(headerMode.paths['/audit'].get.responses)).toContain('400');
    // The parameters come from the DTO that validates them.
    expect(headerMode.paths['/audit'].get.parameters.find((p: Json) => p.name === 'limit').schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 100,
    });
  });

  it("expands the generic kind routes into each configured kind's paths, with HyperFleet's operationIds", () => {
    const ids = (path: string) =>
      Object.fromEntries(METHODS.filter((m) => headerMode.paths[path]?.[m]).map((m) => [m, headerMode.paths[path][m].operationId]));
    expect(ids('/clusters')).toEqual({ get: 'getClusters', post: 'postCluster' });
    // Children are created under their parent: the flat collection lists only.
    expect(ids('/nodepools')).toEqual({ get: 'getNodePools' });
    expect(ids('/clusters/{cluster_id}/nodepools/{nodepool_id}/statuses')).toEqual({
      get: 'getNodePoolsStatuses',
      put: 'putNodePoolStatuses',
    });
    expect(ids('/nodepools/{nodepool_id}')).toEqual({
      get: 'getNodePoolByIdFlat',
      patch: 'patchNodePoolByIdFlat',
      delete: 'deleteNodePoolByIdFlat',
    });
    // The static `GET /resources/{id}` (HistoryController, with `as_of`) wins over the generic read.
    expect(headerMode.paths['/resources/{id}'].get.parameters.map((p: Json) => p.name)).toContain('as_of');
    expect(
      headerMode.paths['/clusters/{cluster_id}/nodepools/{nodepool_id}/adapters/{adapter}/abandon'].post.parameters
        .filter((p: Json) => p.in === 'path')
        .map((p: Json) => p.name),
    ).toEqual(['cluster_id', 'nodepool_id', 'adapter']);
    expect(JSON.stringify(headerMode)).not.toMatch(/\{(Kind|Kinds|Parent|Flat|plural|childPlural|pid)\}/);
  });

  it('refuses a generic route whose operationId would be the same for every kind', () => {
    const paths = { '/api/hyperfleet/v1/{plural}/{id}/archive': { post: { operationId: 'archive', responses: {} } } };
    expect(() => expandKindPaths(paths, kinds)).toThrow(/\{Kind\} or \{Kinds\}/);
    expect(() =>
      expandKindPaths({ '/api/hyperfleet/v1/{plural}/{a}/{b}/{c}/{d}/{e}': { get: { operationId: 'get{Kind}', responses: {} } } }, kinds),
    ).toThrow(/no expansion/);
  });
});
