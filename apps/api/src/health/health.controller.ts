import { Controller, Get } from '@nestjs/common';

/** Liveness for load balancers and the CLI's readiness wait. */
@Controller()
export class HealthController {
  @Get('healthz')
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
