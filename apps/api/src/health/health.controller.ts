import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { LivenessAnswer, ReadinessAnswer } from './readiness.answer.js';
import type { FastifyReply } from 'fastify';
import { READINESS, type Readiness, type ReadinessReport } from '../tokens.js';

/**
 * `/healthz`: liveness (the process answers HTTP; load balancers, the CLI's start wait).
 * `/readyz`: readiness (README "Readiness"): 200 with `status: ready` when every dependency answered its
 * last background probe (event store and read models, Redis with `noeviction`, the JWKS), every projection
 * and reactor runs within its lag bound and writes are accepted; 503 with the same JSON shape, whose
 * `failing[]` names each dependency with reason and since, otherwise. The source answers from cached probe
 * results (dependency-probes.ts), so this never waits on a network call. Without a source it is `/healthz`.
 */
@Controller()
@ApiTags('Decom', 'Health')
export class HealthController {
  constructor(@Optional() @Inject(READINESS) private readonly readiness?: Readiness) {}

  @ApiOperation({ operationId: 'getHealthz', summary: 'Liveness' })
  @ApiOkResponse({ type: LivenessAnswer, description: 'alive' })
  @Get('healthz')
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @ApiOperation({
    operationId: 'getReadyz',
    summary:
      'Readiness from cached probes: event store and read models, Redis (noeviction), JWKS, loops within their lag bound, writes accepted',
  })
  @ApiOkResponse({ type: ReadinessAnswer, description: 'ready' })
  @ApiServiceUnavailableResponse({ type: ReadinessAnswer, description: 'not ready (same shape, naming what is not ready)' })
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessReport> {
    const report = this.readiness ? await this.readiness.check() : { status: 'ready' as const };
    void reply.status(report.status === 'ready' ? 200 : 503).header('cache-control', 'no-store');
    return report;
  }
}
