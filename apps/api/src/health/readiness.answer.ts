import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** A dependency that makes the process unready, from the cached background probes. */
class FailingDependencyAnswer {
  @ApiProperty() dependency!: string;
  @ApiProperty({ enum: ['down', 'unknown'] }) status!: string;
  @ApiProperty() reason!: string;
  @ApiProperty({ format: 'date-time' }) since!: string;
}

/** `GET /readyz` (`ReadinessReport`, libs/health). */
@ApiSchema({ name: 'Readiness' })
export class ReadinessAnswer {
  @ApiProperty({ enum: ['ready', 'not_ready'] }) status!: string;
  @ApiPropertyOptional({ type: [FailingDependencyAnswer] }) failing?: FailingDependencyAnswer[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) checks?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'whether commands are accepted now, and why not' }) writes?: unknown;
}

/** `GET /healthz`. */
@ApiSchema({ name: 'Liveness' })
export class LivenessAnswer {
  @ApiProperty({ enum: ['ok'] }) status!: string;
}
