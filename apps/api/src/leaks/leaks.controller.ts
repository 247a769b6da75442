/**
 * `GET /api/decom/v1/leaks`: objects whose Decom owner marker names a resource that no longer exists (a
 * live scan of the managed cluster), with the last periodic scan's summary. `POST /api/decom/v1/leaks/delete
 * {"reason"}`: deletes them, administrators only (the access policy's `force_delete`, docs/security.md), recorded per former owner as
 * `LeakedObjectsDeleted` (caller, reason, objects) in that resource's history. Under the two-person rule
 * (`authorization.break_glass`) it records a `delete_leaks` request naming the objects listed now (202).
 * 503 when this process has no Kubernetes connection (role `api` without KUBECONFIG).
 */
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/problem-responses.js';
import { ItemListAnswer } from './item-list.answer.js';
import { ApiBreakGlassAccepted } from '../break-glass/break-glass-request.answer.js';
import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, UseGuards, UseInterceptors } from '@nestjs/common';
import { RefuseDryRunOnWrites } from '../resources/refuse-dry-run-on-writes.guard.js';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { requireReason } from '@decom/domain';
import type { AccessPolicy } from '../auth/access-policy.js';
import { requireFleetWide } from '../auth/fleet-wide.js';
import { principalOf } from '../auth/request-authentication.js';
import { commandContextOf } from '../caller/caller.js';
import { HttpProblem, Problems } from '../problem-details/problem.js';
import { ForceDeleteDto } from '../resources/dto/force-delete.dto.js';
import { LeaksQueryDto } from './dto/leaks-query.dto.js';
import { ACCESS_POLICY, CLOCK, type Clock } from '../tokens.js';
import { LEAK_SCANNER } from './leak-tokens.js';
import type { LeakJson, LeakScanner, LeakScannerSlot, LeakScanSummary } from './leak-scanner.js';
import { deleteLeaks, requestedLeak } from './leak-deletion.js';
import { BreakGlassActions } from '../break-glass/break-glass-actions.js';
import { BreakGlassAccepted, BreakGlassAcceptedInterceptor } from '../break-glass/break-glass-accepted.js';

@Controller('api/decom/v1/leaks')
@ApiTags('Decom')
@UseGuards(RefuseDryRunOnWrites)
export class LeaksController {
  constructor(
    @Inject(LEAK_SCANNER) private readonly slot: LeakScannerSlot,
    @Inject(ACCESS_POLICY) private readonly access: AccessPolicy,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commandBus: CommandBus,
    private readonly breakGlass: BreakGlassActions,
  ) {}

  /** Leaks are fleet-wide (their owners are gone): with tenants on, for system callers and admins only. */
  private requireFleetWide(req: FastifyRequest): void {
    requireFleetWide(req, this.access, 'leaks');
  }

  @ApiOperation({ operationId: 'getLeaks', summary: 'Objects whose Decom owner no longer exists (leak scan)' })
  @ApiOkResponse({ type: ItemListAnswer, description: 'leaked objects' })
  @ApiProblems(400, 503)
  @Get()
  async list(
    @Query() _query: LeaksQueryDto,
    @Req() req: FastifyRequest,
  ): Promise<{ total: number; items: LeakJson[]; last_scan?: LeakScanSummary }> {
    this.requireFleetWide(req);
    const scanner = this.scanner();
    const items = await scanner.scan();
    return { total: items.length, items, ...(scanner.lastScan && { last_scan: scanner.lastScan }) };
  }

  /**
   * @returns what was deleted; 400 without a reason, 403 for a caller the access policy would not let
   * force-delete (administrators only, docs/security.md): deleting leaked objects is as destructive.
   */
  @ApiBreakGlassAccepted()
  @ApiOperation({ operationId: 'deleteLeaks', summary: 'Delete the leaked objects (administrators; a reason is required)' })
  @ApiOkResponse({ type: ItemListAnswer, description: 'deleted' })
  @ApiProblems(400, 503)
  @Post('delete')
  @HttpCode(200)
  @UseInterceptors(BreakGlassAcceptedInterceptor)
  async remove(
    @Body() body: ForceDeleteDto,
    @Req() req: FastifyRequest,
  ): Promise<{ total: number; items: LeakJson[] } | BreakGlassAccepted> {
    const context = commandContextOf(req);
    const reason = requireReason(body?.reason);
    this.requireFleetWide(req);
    const decision = this.access.can(principalOf(req), 'force_delete');
    if (!decision.allowed) throw Problems.forbidden(`deleting leaked objects: ${decision.reason}`);
    const scanner = this.scanner();
    // Two-person rule: the exact objects listed now are what a second administrator approves (202).
    const leaks = await scanner.scan();
    if (this.breakGlass.required && leaks.length > 0) {
      const requested = await this.breakGlass.request('delete_leaks', { objects: leaks.map(requestedLeak) }, reason, context);
      // Never deleted at once under the rule, whatever the decision recorded.
      return requested instanceof BreakGlassAccepted ? requested : { total: 0, items: [] };
    }
    const removed = await deleteLeaks(
      scanner,
      leaks,
      { reason, caller: context.caller, now: this.clock.now().toISOString(), context },
      this.commandBus,
    );
    return { total: removed.length, items: removed };
  }

  private scanner(): LeakScanner {
    if (!this.slot.current) {
      throw new HttpProblem(
        503,
        'HYPERFLEET-SVC-001',
        'Service Unavailable',
        'service-unavailable',
        'no Kubernetes connection in this process: run the leak scan where KUBECONFIG is set (decom start, or decom api with KUBECONFIG)',
      );
    }
    return this.slot.current;
  }
}
