/**
 * `GET /api/decom/v1/audit`: force deletes and force orphans fleet-wide, newest first, with caller,
 * reason, removed subresources and the adapter statuses of that moment (seed 001 "Audit Logging
 * Approach"). Reads the `audit_log` projection, which outlives the resources.
 */
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/problem-responses.js';
import { AuditListAnswer } from './audit-list.answer.js';
import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RESOURCE_QUERIES } from '@decom/application';
import type { AuditEntry, AuditType, ResourceQueries } from '@decom/projections';
import { AUDIT_LOG, type AuditLog } from '../tokens.js';
import { scopeOf } from '../auth/request-authentication.js';
import { visibleAudit } from './visible-audit.js';
import { AuditQueryDto } from './dto/audit-query.dto.js';

@Controller('api/decom/v1/audit')
@ApiTags('Decom')
export class AuditController {
  constructor(
    @Inject(AUDIT_LOG) private readonly audit: AuditLog,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
  ) {}

  /** @throws ValidationFailed (400) for a bad `type` or `limit`, or an unknown parameter. */
  @ApiOperation({ operationId: 'getAudit', summary: 'Force deletes and force orphans fleet-wide, newest first' })
  @ApiOkResponse({ type: AuditListAnswer, description: 'audit entries' })
  @ApiProblems(400)
  @Get()
  async list(@Query() query: AuditQueryDto, @Req() req: FastifyRequest): Promise<{ total: number; items: AuditEntry[] }> {
    const all = await this.audit.list({
      ...(query.type ? { types: query.type.split(',') as AuditType[] } : {}),
      limit: query.limit ?? 100,
    });
    const items = await visibleAudit(all, this.queries, scopeOf(req));
    return { total: items.length, items };
  }
}
