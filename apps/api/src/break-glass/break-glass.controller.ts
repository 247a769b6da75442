/**
 * The break-glass approval queue (two-person rule, docs/policies.md): `GET /api/decom/v1/break-glass-requests`
 * (newest first, `status`, `limit`), `GET .../{request_id}`, and for administrators `POST .../{request_id}/approve`
 * (`reason` optional; runs the action) and `POST .../{request_id}/reject` (`reason` required).
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards, Inject } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/problem-responses.js';
import { BreakGlassApprovalDoc, BreakGlassRequestDoc, BreakGlassRequestListDoc } from './break-glass-request.answer.js';
import type { BreakGlassStatus } from '@decom/domain';
import { RefuseDryRunOnWrites } from '../resources/refuse-dry-run-on-writes.guard.js';
import { commandContextOf } from '../caller/caller.js';
import { requireFleetWide } from '../auth/fleet-wide.js';
import { scopeOf } from '../auth/request-authentication.js';
import type { AccessPolicy } from '../auth/access-policy.js';
import { ACCESS_POLICY } from '../tokens.js';
import { BreakGlassActions, type BreakGlassApproval } from './break-glass-actions.js';
import type { BreakGlassRequestAnswer } from './break-glass-accepted.js';
import { BreakGlassQueryDto } from './dto/break-glass-query.dto.js';
import { BreakGlassDecisionDto } from './dto/break-glass-decision.dto.js';

@ApiTags('Decom')
@Controller('api/decom/v1/break-glass-requests')
@UseGuards(RefuseDryRunOnWrites)
export class BreakGlassController {
  constructor(
    private readonly breakGlass: BreakGlassActions,
    @Inject(ACCESS_POLICY) private readonly access: AccessPolicy,
  ) {}

  /** Requests name resources of any tenant: with tenants on, for system callers and administrators only. */
  @ApiOperation({ operationId: 'getBreakGlassRequests', summary: 'Break-glass requests under the two-person rule, newest first' })
  @ApiOkResponse({ type: BreakGlassRequestListDoc })
  @ApiProblems(400)
  @Get()
  async list(@Query() query: BreakGlassQueryDto, @Req() req: FastifyRequest): Promise<{ total: number; items: BreakGlassRequestAnswer[] }> {
    requireFleetWide(req, this.access, 'break-glass requests');
    const items = await this.breakGlass.list(
      {
        ...(query.status && { status: query.status as BreakGlassStatus }),
        limit: query.limit ?? 100,
      },
      scopeOf(req),
    );
    return { total: items.length, items };
  }

  @ApiOperation({ operationId: 'getBreakGlassRequestById', summary: 'One break-glass request' })
  @ApiOkResponse({ type: BreakGlassRequestDoc })
  @ApiProblems(404)
  @Get(':request_id')
  async get(@Param('request_id') requestId: string, @Req() req: FastifyRequest): Promise<BreakGlassRequestAnswer> {
    requireFleetWide(req, this.access, 'break-glass requests');
    return this.breakGlass.get(requestId, scopeOf(req));
  }

  @ApiOperation({
    operationId: 'approveBreakGlassRequest',
    summary: "Approve another administrator's request: the action runs against the requested generation",
  })
  @ApiOkResponse({ type: BreakGlassApprovalDoc })
  // The reason is optional to approve, so is the body.
  @ApiBody({ type: BreakGlassDecisionDto, required: false })
  @ApiProblems(400, 404, 409)
  @Post(':request_id/approve')
  @HttpCode(200)
  async approve(
    @Param('request_id') requestId: string,
    @Body() body: BreakGlassDecisionDto,
    @Req() req: FastifyRequest,
  ): Promise<BreakGlassApproval> {
    return this.breakGlass.approve(requestId, body?.reason, commandContextOf(req));
  }

  @ApiOperation({ operationId: 'rejectBreakGlassRequest', summary: 'Reject (or, the requester, withdraw) a request; a reason is required' })
  @ApiOkResponse({ type: BreakGlassRequestDoc })
  @ApiProblems(400, 404, 409)
  @Post(':request_id/reject')
  @HttpCode(200)
  async reject(
    @Param('request_id') requestId: string,
    @Body() body: BreakGlassDecisionDto,
    @Req() req: FastifyRequest,
  ): Promise<BreakGlassRequestAnswer> {
    return this.breakGlass.reject(requestId, body?.reason, commandContextOf(req));
  }
}
