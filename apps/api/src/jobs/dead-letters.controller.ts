/**
 * The job queue's dead-letter set over the API, so operators need no Redis credentials to see it and only
 * administrators can send a job back (before, `decom jobs retry` went to Redis directly and no role was
 * checked: docs/security.md "Jobs").
 * - `GET /api/decom/v1/jobs/failed[?queue=adapter-run.validation]` → `{total, items: FailedJob[]}` (404 for an
 *   unknown queue, as on retry)
 *   (`queue`, `id`, `attempts`, `error`, `failed_time` RFC 3339, `data` the job's payload).
 * - `POST /api/decom/v1/jobs/retry {"queue","id","reason"?}` → 200 `{queue, id, retried: true}`; 403 unless
 *   an administrator (the access policy's `retry_job`), 404 for an unknown queue (naming the known ones) or
 *   a job that is not in the dead-letter set. Each retry is logged with the caller, reason and trace id.
 * Dead letters span every tenant, so with tenants on they are for administrators and system callers only
 * (as the leak scan). Works on both queues: BullMQ (Redis) and the embedded in-process queue.
 */
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/problem-responses.js';
import { ItemListAnswer } from '../leaks/item-list.answer.js';
import { JobRetriedAnswer } from './job-retried.answer.js';
import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, UseGuards } from '@nestjs/common';
import { RefuseDryRunOnWrites } from '../resources/refuse-dry-run-on-writes.guard.js';
import type { FastifyRequest } from 'fastify';
import type { AccessPolicy } from '../auth/access-policy.js';
import { requireFleetWide } from '../auth/fleet-wide.js';
import { principalOf } from '../auth/request-authentication.js';
import { HttpProblem, Problems } from '../problem-details/problem.js';
import { ACCESS_POLICY, DEAD_LETTERS, OPERATOR_LOG, type DeadLetterSource, type OperatorLog } from '../tokens.js';
import { FailedJobsQueryDto, RetryJobDto } from './dto/dead-letters.dto.js';

@Controller('api/decom/v1/jobs')
@ApiTags('Decom')
@UseGuards(RefuseDryRunOnWrites)
export class DeadLettersController {
  constructor(
    @Inject(DEAD_LETTERS) private readonly deadLetters: DeadLetterSource,
    @Inject(ACCESS_POLICY) private readonly access: AccessPolicy,
    @Inject(OPERATOR_LOG) private readonly log: OperatorLog,
  ) {}

  /** @throws 403 with tenants on for a tenant-scoped non-admin; 400 for an unknown parameter. */
  @ApiOperation({ operationId: 'getFailedJobs', summary: "The job queue's dead-letter set (jobs that failed for good)" })
  @ApiOkResponse({ type: ItemListAnswer, description: 'dead-lettered jobs' })
  @ApiProblems(400, 404)
  @Get('failed')
  async failed(@Query() query: FailedJobsQueryDto, @Req() req: FastifyRequest): Promise<{ total: number; items: unknown[] }> {
    this.requireFleetWide(req);
    if (query.queue !== undefined) await this.requireKnownQueue(query.queue);
    const items = [...(await this.deadLetters.list(query.queue))];
    return { total: items.length, items };
  }

  /** @throws 400 (no queue/id), 403 (not an administrator), 404 (unknown queue, or no such dead letter), 501 (not retryable here). */
  @ApiOperation({ operationId: 'retryJob', summary: 'Send a dead-lettered job back to its queue with fresh attempts (administrators)' })
  @ApiOkResponse({ type: JobRetriedAnswer, description: 'retried' })
  @ApiProblems(400, 404, 501)
  @Post('retry')
  @HttpCode(200)
  async retry(@Body() body: RetryJobDto, @Req() req: FastifyRequest): Promise<{ queue: string; id: string; retried: true }> {
    const principal = principalOf(req);
    const decision = this.access.can(principal, 'retry_job');
    if (!decision.allowed) throw Problems.forbidden(`retrying a job: ${decision.reason}`);
    this.requireFleetWide(req);
    const { queue, id } = body;
    if (!this.deadLetters.retry)
      throw new HttpProblem(
        501,
        'HYPERFLEET-SVC-002',
        'Not Implemented',
        'not-implemented',
        'this process has no job queue whose dead letters can be retried',
      );
    await this.requireKnownQueue(queue);
    if (!(await this.deadLetters.retry(queue, id))) {
      throw new HttpProblem(404, 'HYPERFLEET-NTF-001', 'Resource Not Found', 'not-found', `no failed job ${id} in ${queue}`);
    }
    // Retrying is an operator action on the queue, not a resource decision: it is logged, attributable to
    // the verified caller, and the job's own run records its outcome in the resource's history.
    this.log.info(
      { queue, job_id: id, caller: principal.identity, issuer: principal.issuer, reason: body.reason ?? null, trace_id: String(req.id) },
      'dead-lettered job retried',
    );
    return { queue, id, retried: true };
  }

  /** @throws 404 naming the known queues when the store has never used `queue`. */
  private async requireKnownQueue(queue: string): Promise<void> {
    if (!this.deadLetters.queues) return;
    const known = await this.deadLetters.queues();
    if (!known.includes(queue)) {
      throw new HttpProblem(
        404,
        'HYPERFLEET-NTF-001',
        'Resource Not Found',
        'not-found',
        `unknown queue ${queue}; known queues: ${known.join(', ') || '(none yet)'}`,
      );
    }
  }

  private requireFleetWide(req: FastifyRequest): void {
    requireFleetWide(req, this.access, 'dead letters');
  }
}
