/**
 * `GET /api/decom/v1/audit`: force deletes and force orphans fleet-wide, newest first, with caller,
 * reason, removed subresources and the adapter statuses of that moment (seed 001 "Audit Logging
 * Approach"; issue #14). Reads the `audit_log` projection, which outlives the resources.
 */
import { Controller, Get, Inject, Query } from '@nestjs/common';
import type { AuditEntry, AuditType } from '@decom/projections';
import { AUDIT_LOG, type AuditLog } from '../tokens.js';
import { AuditQueryDto } from './dto/audit-query.dto.js';

@Controller('api/decom/v1/audit')
export class AuditController {
  constructor(@Inject(AUDIT_LOG) private readonly audit: AuditLog) {}

  /** @throws ValidationFailed (400) for a bad `type` or `limit`, or an unknown parameter. */
  @Get()
  async list(@Query() query: AuditQueryDto): Promise<{ total: number; items: AuditEntry[] }> {
    const items = await this.audit.list({ ...(query.type ? { types: query.type.split(',') as AuditType[] } : {}), limit: query.limit ?? 100 });
    return { total: items.length, items };
  }
}
