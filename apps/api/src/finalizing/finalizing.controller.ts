/**
 * The stuck-deletion dashboard (seed 000 edge case #5, seed 001 "Timeout and Stuck Detection"): resources
 * in Finalizing, oldest first, with the adapters they wait on and the unhealthy ones. Decom-specific route.
 */
import { BadRequestException, Controller, Get, Inject, Query } from '@nestjs/common';
import { KIND_REGISTRY, RESOURCE_QUERIES } from '@decom/application';
import { ResourceNotFound, type KindRegistry } from '@decom/domain';
import type { FinalizingJson, ResourceQueries } from '@decom/projections';
import { CLOCK, type Clock } from '../tokens.js';

@Controller('api/decom/v1/finalizing')
export class FinalizingController {
  constructor(
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  /** `older_than_seconds` (default 0) filters to deletions pending at least that long; `kind` filters by kind. */
  @Get()
  async list(@Query('older_than_seconds') olderThan?: string, @Query('kind') kind?: string): Promise<{ total: number; items: FinalizingJson[] }> {
    const seconds = olderThan === undefined ? 0 : Number(olderThan);
    if (!Number.isInteger(seconds) || seconds < 0) throw new BadRequestException('older_than_seconds must be a non-negative integer');
    if (kind !== undefined && !this.kinds.find(kind)) throw new ResourceNotFound('Kind', kind);
    const items = await this.queries.finalizing(this.clock.now(), seconds, kind);
    return { total: items.length, items };
  }
}
