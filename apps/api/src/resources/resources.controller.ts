/**
 * HyperFleet REST routes for every configured kind, thin: resolve the target, call
 * `ResourceActions` or the read side, pick the status code. Static segments (`statuses`, `force-delete`)
 * win over `:childPlural` in the router.
 */
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { BreakGlassAcceptedInterceptor, type BreakGlassAccepted } from '../break-glass/break-glass-accepted.js';
import { ApiBreakGlassAccepted } from '../break-glass/break-glass-request.answer.js';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { RefuseDryRunOnWrites } from './refuse-dry-run-on-writes.guard.js';
import { ApiProblems, problemResponse } from '../openapi/problem-responses.js';
import { ResourceAnswer } from './answers/resource.answer.js';
import { ResourceListAnswer } from './answers/resource-list.answer.js';
import { AdapterStatusAnswer, AdapterStatusListAnswer } from './answers/adapter-status.answer.js';
import { DeletionPreviewAnswer } from './answers/deletion-preview.answer.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ResourceNotFound, ValidationFailed, type KindDescriptor, type KindRegistry } from '@decom/domain';
import { KIND_REGISTRY, RESOURCE_QUERIES, type CommandContext } from '@decom/application';
import type { Page, ResourceJson, ResourceQueries } from '@decom/projections';
import type { AdapterStatus } from '@decom/domain';
import { commandContextOf } from '../caller/caller.js';
import { scopeOf } from '../auth/request-authentication.js';
import { Problems } from '../problem-details/problem.js';
import { AdapterStatusDto } from './dto/adapter-status.dto.js';
import { validCreateBody } from './dto/create-body.js';
import { CreateResourceDto } from './dto/create-resource.dto.js';
import { ForceDeleteDto } from './dto/force-delete.dto.js';
import { OperatorActionDto } from './dto/operator-action.dto.js';
import { ListQueryDto } from './dto/list-query.dto.js';
import { PatchResourceDto } from './dto/patch-resource.dto.js';
import { createQueryValidationPipe } from '../problem-details/validation-pipe.js';
import { ResourceActions } from './resource-actions.js';
import type { DeletionPreviewJson } from './deletion-preview-answer.js';
import { isDryRun } from './dry-run.js';
import { DeleteQueryDto, refuseUnknownDeleteParameters } from './dto/delete-query.dto.js';
import { ResourceTargets, type ResourceRouteParams, type ResourceTarget } from './resource-target.js';
import { parseFields, selectFields } from './sparse-fields.js';
import { listOptions, sparse } from './list-options.js';

/**
 * List query parameters: validated, unknown ones dropped (HyperFleet ignores them). Typed `Readonly<...>`
 * (no class in the decorator metadata) so the strict global pipe leaves them to this one.
 */
const listQuery = createQueryValidationPipe(ListQueryDto);
type ListQuery = Readonly<ListQueryDto>;
/** DELETE query parameters (dto/delete-query.dto.ts): validated by the class that documents them, unknown ones dropped. */
const deleteQuery = createQueryValidationPipe(DeleteQueryDto);
type DeleteQuery = Readonly<DeleteQueryDto>;
/** Create bodies (create-body.ts): read-only and unknown fields (`id`, `href`, `created_time`, ...) are ignored, as HyperFleet does. */
type CreateBody = Readonly<CreateResourceDto>;
import { reportFence } from './fence-header.js';

@Controller('api/hyperfleet/v1')
@ApiTags('{Kind}')
@UseGuards(RefuseDryRunOnWrites)
@UseInterceptors(BreakGlassAcceptedInterceptor)
export class ResourcesController {
  private readonly targets: ResourceTargets;

  constructor(
    private readonly actions: ResourceActions,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
  ) {
    this.targets = new ResourceTargets(kinds, queries);
  }

  // ── collections ────────────────────────────────────────────────────────────
  // `GET /{plural}` (and `GET /resources`) and `GET /{plural}/{id}` are plain Fastify routes (resource-read-routes.ts).

  /** `POST /{plural}`, and `POST /resources` where the body's `kind` picks the (top-level) kind. */
  @ApiOperation({ operationId: 'post{Kind}', summary: 'Create a {Kind}' })
  @ApiBody({ type: CreateResourceDto })
  @ApiCreatedResponse({ type: ResourceAnswer, description: 'created; `Location` names it' })
  @ApiProblems(400, 404, 409)
  @Post(':plural')
  async create(
    @Param('plural') plural: string,
    @Body() raw: unknown,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResourceJson> {
    // `/resources`: the body's kind picks the kind (an unknown one is refused after the body, with every violation).
    const routeKind = plural === 'resources' ? this.kinds.find(bodyField(raw, 'kind') ?? '') : this.targets.descriptor(plural, req.url);
    requireBody(raw);
    if (routeKind?.parent_kind) {
      throw Problems.childKindCreate(routeKind.kind, this.kinds.get(routeKind.parent_kind).plural, routeKind.plural);
    }
    const body = await validCreateBody(raw, routeKind);
    const descriptor = routeKind ?? this.bodyKind(body);
    return created(reply, await this.actions.create(descriptor.kind, body, undefined, context(req)));
  }

  @ApiOperation({ operationId: 'get{Kinds}By{Parent}Id', summary: 'List the {Kind}s of a {Parent}' })
  @ApiQuery({ type: ListQueryDto })
  @ApiOkResponse({ type: ResourceListAnswer, description: 'page' })
  @ApiProblems(400, 404)
  @Get(':plural/:id/:childPlural')
  async listChildren(
    @Param('plural') plural: string,
    @Param('id') id: string,
    @Param('childPlural') childPlural: string,
    @Query(listQuery) query: ListQuery,
    @Req() req: FastifyRequest,
  ): Promise<Page<Partial<ResourceJson>>> {
    const { descriptor, owner } = await this.targets.collection(plural, id, childPlural, req.url, scopeOf(req));
    return sparse(await this.queries.list({ kind: descriptor.kind, ownerId: owner!.id, ...listOptions(query) }), parseFields(query.fields));
  }

  @ApiOperation({ operationId: 'create{Kind}', summary: 'Create a {Kind} under its {Parent}' })
  @ApiBody({ type: CreateResourceDto })
  @ApiCreatedResponse({ type: ResourceAnswer, description: 'created; `Location` names it' })
  @ApiProblems(400, 404, 409)
  @Post(':plural/:id/:childPlural')
  async createChild(
    @Param('plural') plural: string,
    @Param('id') id: string,
    @Param('childPlural') childPlural: string,
    @Body() raw: unknown,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResourceJson> {
    const { descriptor, owner } = await this.targets.collection(plural, id, childPlural, req.url, scopeOf(req));
    requireBody(raw);
    const body = await validCreateBody(raw, descriptor);
    return created(reply, await this.actions.create(descriptor.kind, body, owner, context(req)));
  }

  // ── one resource: each operation serves both addresses (`resourcePaths`), flat (`/clusters/{id}`,
  // `/nodepools/{id}`, `/resources/{id}`) and nested under the parent (`/clusters/{cid}/nodepools/{id}`);
  // kind-paths.ts gives each its operationId (`{Flat}` on a child kind's flat address).
  // `GET /{plural}/{id}` is a plain Fastify route (resource-read-routes.ts); only the nested GET is here.
  @ApiOperation({ operationId: 'get{Kind}ById', summary: 'Get a {Kind} under its {Parent}' })
  @ApiQuery({ type: ListQueryDto })
  @ApiOkResponse({ type: ResourceAnswer, description: '{Kind}' })
  @ApiProblems(400, 404)
  @Get(':plural/:pid/:childPlural/:id')
  async getChild(
    @Param() route: ResourceRouteParams,
    @Query(listQuery) query: ListQuery,
    @Req() req: FastifyRequest,
  ): Promise<Partial<ResourceJson>> {
    return selectFields(await this.read(await this.target(route, req)), parseFields(query.fields));
  }

  @ApiOperation({ operationId: 'patch{Kind}ById{Flat}', summary: 'Patch a {Kind} (409 while deleting)' })
  @ApiOkResponse({ type: ResourceAnswer, description: 'patched' })
  @ApiProblems(400, 404, 409)
  @Patch(resourcePaths())
  async patch(@Param() route: ResourceRouteParams, @Body() body: PatchResourceDto, @Req() req: FastifyRequest): Promise<ResourceJson> {
    requireBody(req.body);
    return this.actions.patch(await this.target(route, req), body ?? {}, context(req));
  }

  /** 202 with the marked resource; `?dryRun=All`: 200 with the preview, nothing recorded (dry-run.ts). */
  @ApiOperation({
    operationId: 'delete{Kind}ById{Flat}',
    summary: 'Request deletion of a {Kind} (seed 000): sets deleted_time, cascades to children',
  })
  @ApiQuery({ type: DeleteQueryDto })
  @ApiOkResponse({ type: DeletionPreviewAnswer, description: 'dryRun=All: what the DELETE would do, nothing recorded' })
  @ApiAcceptedResponse({ type: ResourceAnswer, description: 'deletion requested' })
  @ApiProblems(400, 404, 409)
  @ApiTooManyRequestsResponse({
    description:
      'deletion budget exceeded (limits.deletions): Retry-After in seconds; the problem names the budget (`budget: {kind, name, limit, used, tenant?}`)',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
    content: problemResponse(429).content,
  })
  @Delete(resourcePaths())
  @HttpCode(202)
  async delete(
    @Param() route: ResourceRouteParams,
    @Query(deleteQuery) query: DeleteQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResourceJson | DeletionPreviewJson> {
    const dryRun = isDryRun(req.query, req.body);
    refuseUnknownDeleteParameters(req.query);
    const { propagationPolicy, deletion_budget_override: budgetOverride } = query;
    const deleteForMove = query.delete_for_move === 'true';
    const target = await this.target(route, req);
    if (dryRun)
      return previewed(reply, await this.actions.previewDelete(target, context(req), deleteForMove, propagationPolicy, budgetOverride));
    return this.actions.delete(target, context(req), deleteForMove, propagationPolicy, budgetOverride);
  }

  @ApiOperation({ operationId: 'pause{Kind}{Flat}', summary: 'Pause (seed 004): adapters hold destructive work' })
  @ApiTags('Decom')
  @ApiOkResponse({ type: ResourceAnswer, description: '{Kind}' })
  @ApiProblems(400, 404)
  @Post(resourcePaths('/pause'))
  async pause(
    @Param() route: ResourceRouteParams,
    @Body() body: OperatorActionDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResourceJson | BreakGlassAccepted> {
    void reply.status(200);
    return this.actions.setPaused(await this.target(route, req), true, body?.reason, context(req));
  }

  @ApiOperation({ operationId: 'unpause{Kind}{Flat}', summary: 'Unpause' })
  @ApiBreakGlassAccepted()
  @ApiTags('Decom')
  @ApiOkResponse({ type: ResourceAnswer, description: '{Kind}' })
  @ApiProblems(400, 404)
  @Post(resourcePaths('/unpause'))
  async unpause(
    @Param() route: ResourceRouteParams,
    @Body() body: OperatorActionDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResourceJson | BreakGlassAccepted> {
    void reply.status(200);
    return this.actions.setPaused(await this.target(route, req), false, body?.reason, context(req));
  }

  @ApiOperation({
    operationId: 'forceOrphan{Kind}{Flat}',
    summary: 'Force orphan (seed 003): finish the deletion leaving objects in place',
  })
  @ApiBreakGlassAccepted()
  @ApiTags('Decom')
  @ApiOkResponse({ type: ResourceAnswer, description: '{Kind}' })
  @ApiProblems(400, 404, 409)
  @Post(resourcePaths('/force-orphan'))
  async forceOrphan(
    @Param() route: ResourceRouteParams,
    @Body() body: OperatorActionDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResourceJson | BreakGlassAccepted> {
    void reply.status(200);
    return this.actions.forceOrphan(await this.target(route, req), body?.reason, context(req));
  }

  /** Abandon one adapter of the deletion (admin; `reason` required): 200 with the resource. */
  @ApiBreakGlassAccepted()
  @ApiOperation({
    operationId: 'abandon{Kind}Adapter{Flat}',
    summary:
      'Abandon one adapter of the deletion (admin): AdapterFinalized forced, with caller and reason, and a leak inventory of its objects; 409 unless Finalizing with that adapter pending',
  })
  @ApiTags('Decom')
  @ApiOkResponse({ type: ResourceAnswer, description: '{Kind}' })
  @ApiProblems(400, 403, 404, 409)
  @Post(resourcePaths('/adapters/:adapter/abandon'))
  async abandonAdapter(
    @Param() route: ResourceRouteParams & { readonly adapter: string },
    @Body() body: OperatorActionDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResourceJson | BreakGlassAccepted> {
    void reply.status(200);
    return this.actions.abandonAdapter(await this.target(route, req), route.adapter, body?.reason, context(req));
  }

  @ApiOperation({
    operationId: 'forceDelete{Kind}{Flat}',
    summary: 'Force delete (seed 001): remove a Finalizing {Kind} and its subresources now',
  })
  @ApiBreakGlassAccepted()
  @ApiNoContentResponse({ description: 'removed' })
  @ApiProblems(400, 404, 409)
  @Post(resourcePaths('/force-delete'))
  @HttpCode(204)
  async forceDelete(
    @Param() route: ResourceRouteParams,
    @Body() body: ForceDeleteDto,
    @Req() req: FastifyRequest,
  ): Promise<void | BreakGlassAccepted> {
    return this.actions.forceDelete(await this.target(route, req), body?.reason, context(req));
  }

  /** HyperFleet names the nested operation in the plural (`getNodePoolsStatuses`), the flat one not (`getClusterStatuses`). */
  @ApiOperation({ operationId: 'get{KindsIfNested}Statuses{Flat}', summary: 'Adapter statuses of a {Kind}' })
  @ApiQuery({ type: ListQueryDto })
  @ApiOkResponse({ type: AdapterStatusListAnswer, description: 'statuses, ordered by adapter' })
  @ApiProblems(400, 404)
  @Get(resourcePaths('/statuses'))
  async statuses(
    @Param() route: ResourceRouteParams,
    @Query(listQuery) query: ListQuery,
    @Req() req: FastifyRequest,
  ): Promise<Page<Partial<AdapterStatus>>> {
    const target = await this.target(route, req);
    await this.read(target);
    return sparse(await this.queries.statuses(target.id, query.page ?? 1, query.size ?? 20, query.search), parseFields(query.fields));
  }

  /**
   * 201 with the stored status, or 204 when the report was discarded (hyperfleet-api
   * `pkg/handlers/resource_status_handler.go`). A discard carries a
   * Kubernetes-style `Warning: 299 decom "<Reason>: <message>"` header (HyperFleet's answer stays 204, so
   * its adapters are unaffected; one that reads warnings learns why, e.g. a generation from the future),
   * and the request's access-log line carries it as `warning`.
   */
  @ApiOperation({ operationId: 'put{Kind}Statuses{Flat}', summary: 'Report an adapter status for a {Kind}' })
  @ApiCreatedResponse({ type: AdapterStatusAnswer, description: 'stored' })
  @ApiNoContentResponse({
    description: 'discarded (future or stale generation, Available=Unknown over a stored report); a `Warning` header says why',
  })
  @ApiProblems(400, 404, 409)
  @Put(resourcePaths('/statuses'))
  async report(
    @Param() route: ResourceRouteParams,
    @Body() body: AdapterStatusDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdapterStatus | undefined> {
    const outcome = await this.actions.reportStatus(await this.target(route, req), body, context(req), reportFence(req));
    if (!outcome.stored) {
      if (outcome.discarded)
        void reply.header('warning', `299 decom ${JSON.stringify(`${outcome.discarded.reason}: ${outcome.discarded.message}`)}`);
      void reply.status(204);
      return undefined;
    }
    void reply.status(201);
    return outcome.status;
  }

  // ── shared ──────────────────────────────────────────────────────────────────
  /** `POST /resources`: the kind named by the body. @throws ValidationFailed for an unknown kind. */
  private bodyKind(body: CreateBody): KindDescriptor {
    const descriptor = this.kinds.find(body.kind);
    if (descriptor) return descriptor;
    const known = this.kinds.descriptors.map((k) => k.kind);
    throw new ValidationFailed(`kind must be one of ${known.join(', ')}, got '${body.kind}'`, [
      { field: 'kind', value: body.kind, constraint: 'enum', message: `kind must be one of ${known.join(', ')}` },
    ]);
  }

  /** The resource a one-resource route names (`ResourceTargets.of`), in the caller's tenancy. */
  private target(route: ResourceRouteParams, req: FastifyRequest): Promise<ResourceTarget> {
    return this.targets.of(route, req.url, scopeOf(req));
  }

  private async read(target: ResourceTarget): Promise<ResourceJson> {
    const resource = await this.queries.get(target.id);
    if (!resource || resource.kind !== target.kind) throw new ResourceNotFound(target.kind, target.id);
    return resource;
  }
}

/**
 * The two addresses of a one-resource operation: flat `:plural/:id<tail>` (a top-level kind, a child kind
 * by its own plural, `/resources`) and nested `:plural/:pid/:childPlural/:id<tail>` under the parent.
 */
function resourcePaths(tail = ''): string[] {
  return [`:plural/:id${tail}`, `:plural/:pid/:childPlural/:id${tail}`];
}

/**
 * The raw body of a create or PATCH (`req.body`, before the validation pipe makes an object of nothing)
 * must be there: an empty one (no bytes) is unreadable JSON to HyperFleet, 400 `HYPERFLEET-VAL-006`
 * (`{}` is a body, refused by validation instead).
 */
function requireBody(raw: unknown): void {
  if (raw === undefined) throw Problems.malformed('the request body is empty: a JSON object is required');
}

/** A top-level string field of a body not yet validated (undefined otherwise). */
function bodyField(raw: unknown, field: string): string | undefined {
  const value = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** 201 with `Location` naming the new resource (RFC 9110 §15.3.2); `href` is its path under the API. */
function created(reply: FastifyReply, resource: ResourceJson): ResourceJson {
  void reply.status(201).header('location', resource.href);
  return resource;
}

/** A preview answers 200 (nothing was accepted for later, unlike the DELETE's 202). */
function previewed(reply: FastifyReply, preview: DeletionPreviewJson): DeletionPreviewJson {
  void reply.status(200);
  return preview;
}

function context(req: FastifyRequest): CommandContext {
  return commandContextOf(req);
}
