/**
 * The stuck-deletion dashboard (seed 000 edge case #5, seed 001 "Timeout and Stuck Detection"): resources
 * in Finalizing, oldest first, with the structured `blockers` of each and, for compatibility,
 * the adapters they wait on and the unhealthy ones. Decom-specific route.
 */
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/problem-responses.js';
import { FinalizingListAnswer } from './finalizing-list.answer.js';
import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { scopeOf } from '../auth/request-authentication.js';
import { KIND_REGISTRY, RESOURCE_QUERIES } from '@decom/application';
import { ResourceNotFound, type BlockerType, type KindRegistry } from '@decom/domain';
import type { FinalizingJson, ResourceQueries } from '@decom/projections';
import { CLOCK, DEAD_LETTERS, type Clock, type DeadLetterSource } from '../tokens.js';
import type { QueueAvailability } from '@decom/jobs';
import { FinalizingQueryDto } from './dto/finalizing-query.dto.js';
import { readDeadLetters } from './dead-letter-read.js';
import { readIdleAdapters } from './idle-adapters-read.js';

@Controller('api/decom/v1/finalizing')
@ApiTags('Decom')
export class FinalizingController {
  constructor(
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Inject(DEAD_LETTERS) private readonly deadLetters: DeadLetterSource,
  ) {}

  /**
   * `older_than_seconds` (default 0), `kind`, `blocker` (comma list of blocker types) and `search` (TSL) filter the list.
   * `dead_letters`: `{status: 'available'}`, or `{status: 'unavailable', reason, since}` while the job queue
   * cannot be read (the list is then the read model's, without `DeadLettered` blockers, which are unknown, and
   * each deletion's first blocker is `JobQueueUnavailable`: nothing is dispatched without the queue). An
   * `AdapterNotFinalized` blocker has `no_worker: true` while no process consumes that adapter's queue.
   * @throws ValidationFailed (400) for a bad value or an unknown parameter; ResourceNotFound (404) for an unknown kind.
   */
  @ApiOperation({ operationId: 'getFinalizing', summary: 'Pending deletions and what they wait on' })
  @ApiOkResponse({ type: FinalizingListAnswer, description: 'pending deletions' })
  @ApiProblems(400, 404)
  @Get()
  async list(
    @Query() query: FinalizingQueryDto,
    @Req() req: FastifyRequest,
  ): Promise<{ total: number; items: FinalizingJson[]; dead_letters: QueueAvailability }> {
    if (query.kind !== undefined && !this.kinds.find(query.kind)) throw new ResourceNotFound('Kind', query.kind);
    const { deadLetters, availability } = await readDeadLetters(this.deadLetters);
    const idleAdapters = await readIdleAdapters(this.deadLetters, this.kinds);
    const items = await this.queries.finalizing(this.clock.now(), query.older_than_seconds ?? 0, query.kind, {
      ...(query.blocker ? { blockerTypes: query.blocker.split(',') as BlockerType[] } : {}),
      ...(query.search !== undefined ? { search: query.search } : {}),
      deadLetters,
      idleAdapters,
      ...(availability.status === 'unavailable' && { jobQueueUnavailable: { reason: availability.reason, since: availability.since } }),
      tenant: scopeOf(req),
    });
    return { total: items.length, items, dead_letters: availability };
  }
}
