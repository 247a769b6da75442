/**
 * Per-resource history for incident investigation, read from the event store (so it survives hard and
 * force delete): every event that concerns a resource (who did what, when, with which reason and
 * statuses), and the resource as it was at a past time (`?as_of=`).
 */
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/problem-responses.js';
import { ResourceAnswer } from '../resources/answers/resource.answer.js';
import { HistoryAnswer } from './history.answer.js';
import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { scopeOf } from '../auth/request-authentication.js';
import { EVENT_STORE, KIND_REGISTRY, RESOURCE_QUERIES } from '@decom/application';
import { ResourceNotFound, ValidationFailed, type KindRegistry } from '@decom/domain';
import type { EventStore } from '@decom/event-store';
import type { ResourceJson, ResourceQueries } from '@decom/projections';
import { createQueryValidationPipe } from '../problem-details/validation-pipe.js';
import { PageQueryDto } from '../resources/dto/page-query.dto.js';
import { ListQueryDto } from '../resources/dto/list-query.dto.js';
import { parseFields, selectFields } from '../resources/sparse-fields.js';
import { parseRfc3339, resourceAsOf } from './resource-as-of.js';
import { scanHistory } from './history-scan.js';

const pageQuery = createQueryValidationPipe(PageQueryDto);
const fieldsQuery = createQueryValidationPipe(ListQueryDto);

export interface HistoryEntry {
  readonly position: number;
  readonly revision: number;
  readonly type: string;
  readonly recorded_time: string;
  readonly caller?: string;
  /** The verified caller's token issuer and subject (null without a token); absent on events of the first schema. */
  readonly caller_issuer?: string | null;
  readonly caller_subject?: string | null;
  readonly data: unknown;
}

export interface HistoryPage {
  readonly id: string;
  readonly kind: string;
  readonly stream: string;
  /** 1-based page, its item count, and the number of events in all pages. */
  readonly page: number;
  readonly size: number;
  readonly total: number;
  readonly items: HistoryEntry[];
}

@Controller('api/hyperfleet/v1/resources')
export class HistoryController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  /**
   * One page of the resource's events, oldest first: `page` (default 1), `size` (default 100, max 1000).
   * The stream is read in chunks (history-scan.ts), so a long history is never held whole.
   */
  @ApiOperation({ operationId: 'getResourceEvents', summary: "A resource's history (also after hard delete)" })
  @ApiTags('Decom')
  @ApiQuery({ type: PageQueryDto })
  @ApiOkResponse({ type: HistoryAnswer, description: 'events, oldest first' })
  @ApiProblems(400, 404)
  @Get(':id/events')
  async events(@Param('id') id: string, @Query(pageQuery) query: Readonly<PageQueryDto>, @Req() req: FastifyRequest): Promise<HistoryPage> {
    const located = await this.locate(id, req);
    if (!located) throw new ResourceNotFound('Resource', id);
    const page = query.page ?? 1;
    const size = query.size ?? 100;
    const scan = await scanHistory(this.store, located.stream, id, page, size, true);
    const slice = scan.items.map((e) => ({
      position: e.position,
      revision: e.revision,
      type: e.type,
      recorded_time: e.recorded_time,
      ...(typeof e.metadata['caller'] === 'string' ? { caller: e.metadata['caller'] } : {}),
      ...(typeof e.metadata['trace_id'] === 'string' ? { trace_id: e.metadata['trace_id'] } : {}),
      ...('caller_issuer' in e.metadata
        ? {
            caller_issuer: (e.metadata['caller_issuer'] as string | null) ?? null,
            caller_subject: (e.metadata['caller_subject'] as string | null) ?? null,
          }
        : {}),
      data: e.data,
    }));
    return { id, kind: located.kind, stream: located.stream, page, size: slice.length, total: scan.total ?? 0, items: slice };
  }

  /**
   * `GET /resources/{id}`: this static route wins over `ResourcesController`'s `:plural/:id`, so it serves
   * the plain read too (same answers: 404 `Resource` when unknown or hard-deleted). With `as_of` (RFC 3339)
   * it answers the resource as it was then, 404 when it did not exist at that time, 400 for a bad `as_of`.
   */
  @ApiOperation({ operationId: 'getResourceById', summary: 'Get a resource of any kind; with `as_of`, as it was then' })
  @ApiTags('Resource')
  @ApiQuery({ type: ListQueryDto })
  @ApiQuery({
    name: 'as_of',
    required: false,
    type: String,
    format: 'date-time',
    description: 'RFC 3339: the resource as it was then (404 when it did not exist then)',
  })
  @ApiOkResponse({ type: ResourceAnswer, description: 'resource' })
  @ApiProblems(400, 404)
  @Get(':id')
  async get(
    @Param('id') id: string,
    @Query(fieldsQuery) query: Readonly<ListQueryDto>,
    @Req() req: FastifyRequest,
    @Query('as_of') asOf?: string,
  ): Promise<Partial<ResourceJson>> {
    if (asOf === undefined) return selectFields(await this.current(id, req), parseFields(query.fields));
    const at = parseRfc3339(asOf);
    if (!at) {
      throw new ValidationFailed(`as_of must be an RFC 3339 date-time, got "${asOf}"`, [
        {
          field: 'as_of',
          value: asOf,
          constraint: 'format',
          message: 'must be an RFC 3339 date-time with a time zone, e.g. 2026-11-29T10:00:00Z',
        },
      ]);
    }
    const located = await this.locate(id, req);
    const past = located ? await resourceAsOf(await this.store.readStream(located.stream), id, at, this.kinds) : undefined;
    if (!located || !past) throw new ResourceNotFound(located?.kind ?? 'Resource', id);
    return selectFields(past, parseFields(query.fields));
  }

  /** The resource's index row; undefined when unknown or outside the caller's tenancy (as HyperFleet scopes reads). */
  private async locate(id: string, req: FastifyRequest) {
    const located = await this.queries.locate(id);
    return located && (await this.queries.visible(id, scopeOf(req))) ? located : undefined;
  }

  private async current(id: string, req: FastifyRequest): Promise<ResourceJson> {
    const located = await this.locate(id, req);
    if (!located || located.hard_deleted_time) throw new ResourceNotFound('Resource', id);
    const resource = await this.queries.get(id);
    if (!resource || resource.kind !== located.kind) throw new ResourceNotFound(located.kind, id);
    return resource;
  }
}
