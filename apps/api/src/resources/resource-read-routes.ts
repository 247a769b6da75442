/**
 * The two hottest reads, `GET /api/hyperfleet/v1/{plural}` (and `/resources`) and
 * `GET /api/hyperfleet/v1/{plural}/{id}`, as plain Fastify routes below Nest: Nest's
 * router, pipes and response handling cost more than the read itself. Hand-rolled on purpose, with the
 * very same answers as the Nest routes they replace (ResourcesController keeps every other route):
 * - an empty path parameter (`/clusters/`) goes to the not-found handler, as Nest's Fastify adapter does;
 * - every Fastify hook still runs (trace id, authentication, rate limit, 405 checks, access log, metrics);
 * - the query string goes through the same validation pipe (`ListQueryDto`, unknown parameters ignored);
 * - targets resolve through `ResourceTargets` (unknown plural: 404 endpoint; other tenant: 404);
 * - `fields=` answers the object reduced by `selectFields`; otherwise the presented JSON text is sent as is
 *   (`ResourceQueries.getJson` / `listJson`, exactly what serialising the object gives);
 * - errors are answered by the same `ProblemDetailsFilter` as Nest's routes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ResourceNotFound, type KindRegistry } from '@decom/domain';
import type { ListOptions, ResourceQueries } from '@decom/projections';
import { scopeOf } from '../auth/request-authentication.js';
import type { ProblemDetailsFilter } from '../problem-details/problem-details.filter.js';
import { Problems } from '../problem-details/problem.js';
import { createQueryValidationPipe } from '../problem-details/validation-pipe.js';
import { ListQueryDto } from './dto/list-query.dto.js';
import { listOptions, sparse } from './list-options.js';
import { ResourceTargets } from './resource-target.js';
import { parseFields, selectFields } from './sparse-fields.js';

/** What Fastify's serializer sets for an object payload (and what Nest's routes answered). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const QUERY_METADATA = { type: 'query', metatype: Object, data: undefined } as const;

export interface ResourceReadDeps {
  readonly kinds: KindRegistry;
  readonly queries: ResourceQueries;
  readonly problems: ProblemDetailsFilter;
}

/** Registers both routes on `fastify` (after its hooks, before Nest registers its own routes). */
export function registerResourceReadRoutes(fastify: FastifyInstance, deps: ResourceReadDeps): void {
  const { kinds, queries, problems } = deps;
  const targets = new ResourceTargets(kinds, queries);
  const pipe = createQueryValidationPipe(ListQueryDto);
  const validQuery = (request: FastifyRequest) => pipe.transform(request.query, QUERY_METADATA) as Promise<Readonly<ListQueryDto>>;

  async function list(request: ListRequest, reply: FastifyReply): Promise<FastifyReply> {
    try {
      const query = await validQuery(request);
      const { plural } = request.params;
      const kind = plural === 'resources' ? kindFilter(query.kind) : targets.descriptor(plural, request.url).kind;
      const options: ListOptions = { ...(kind !== undefined && { kind }), ...listOptions(query), tenant: scopeOf(request) };
      const paths = parseFields(query.fields);
      if (paths) return reply.send(sparse(await queries.list(options), paths));
      return reply.header('content-type', JSON_CONTENT_TYPE).send(await queries.listJson(options));
    } catch (error) {
      problems.send(error, request, reply);
      return reply;
    }
  }

  /**
   * The answer of `list` when everything it needs is kept (validated query, total, page, items) and no
   * `fields=`: synchronous, no promise. Undefined otherwise, and for anything `list` would
   * refuse (it then answers the problem).
   */
  function keptList(request: ListRequest): string | undefined {
    const query = pipe.keptResult(request.query) as Readonly<ListQueryDto> | undefined;
    if (!query || query.fields !== undefined) return undefined;
    const { plural } = request.params;
    const filter = plural === 'resources' ? query.kind || undefined : undefined;
    const kind = filter !== undefined ? kinds.find(filter)?.kind : plural === 'resources' ? undefined : kinds.byPluralName(plural)?.kind;
    if ((plural !== 'resources' || filter !== undefined) && kind === undefined) return undefined;
    try {
      return queries.keptListJson({ ...(kind !== undefined && { kind }), ...listOptions(query), tenant: scopeOf(request) });
    } catch {
      return undefined;
    }
  }

  /**
   * `GET /resources?kind=X` (HyperFleet's root resource list): only kind X; absent or empty: every kind.
   * @throws HttpProblem 400 `HYPERFLEET-VAL-000` naming the configured kinds when X is none of them.
   */
  function kindFilter(kind: string | undefined): string | undefined {
    if (!kind) return undefined;
    const descriptor = kinds.find(kind);
    if (descriptor) return descriptor.kind;
    const known = kinds.descriptors.map((k) => k.kind);
    throw Problems.validation(`Unknown entity kind: ${kind.slice(0, 100)}`, [
      { field: 'kind', value: kind.slice(0, 100), constraint: 'enum', message: `kind must be one of ${known.join(', ')}` },
    ]);
  }

  async function get(request: GetRequest, reply: FastifyReply): Promise<FastifyReply> {
    try {
      const query = await validQuery(request);
      const { plural, id } = request.params;
      const target = await targets.single(plural, id, request.url, scopeOf(request));
      const paths = parseFields(query.fields);
      if (paths) {
        const resource = await queries.get(target.id);
        if (!resource || resource.kind !== target.kind) throw new ResourceNotFound(target.kind, target.id);
        return reply.send(selectFields(resource, paths));
      }
      const presented = await queries.getJson(target.id);
      if (!presented || presented.kind !== target.kind) throw new ResourceNotFound(target.kind, target.id);
      return reply.header('content-type', JSON_CONTENT_TYPE).send(presented.text);
    } catch (error) {
      problems.send(error, request, reply);
      return reply;
    }
  }

  /**
   * The answer of `get` for a GET without query parameters, of a kind's own route, by an unscoped caller,
   * when the resource's JSON is kept: synchronous, no promise. Undefined otherwise.
   */
  function keptGet(request: GetRequest): string | undefined {
    const { plural, id } = request.params;
    if (plural === 'resources' || !isEmpty(request.query) || scopeOf(request) !== null) return undefined;
    const kind = kinds.byPluralName(plural)?.kind;
    const kept = kind === undefined ? undefined : queries.keptJson(id);
    return kept && kept.kind === kind ? kept.text : undefined;
  }

  // Plain (not async) handlers: a kept answer is sent at once; anything else goes the full way.
  fastify.get('/api/hyperfleet/v1/:plural', (request: ListRequest, reply: FastifyReply) => {
    if (request.params.plural === '') return void reply.callNotFound();
    const kept = keptList(request);
    if (kept === undefined) return list(request, reply);
    void reply.header('content-type', JSON_CONTENT_TYPE).send(kept);
    return undefined;
  });

  fastify.get('/api/hyperfleet/v1/:plural/:id', (request: GetRequest, reply: FastifyReply) => {
    if (request.params.plural === '' || request.params.id === '') return void reply.callNotFound();
    const kept = keptGet(request);
    if (kept === undefined) return get(request, reply);
    void reply.header('content-type', JSON_CONTENT_TYPE).send(kept);
    return undefined;
  });
}

type ListRequest = FastifyRequest<{ Params: { plural: string } }>;
type GetRequest = FastifyRequest<{ Params: { plural: string; id: string } }>;

function isEmpty(query: unknown): boolean {
  if (query === null || typeof query !== 'object') return true;
  for (const _ in query) return false;
  return true;
}
