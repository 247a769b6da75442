import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ConditionAnswer } from './condition.answer.js';

/** An adapter's stored status report for one resource (hyperfleet-api pkg/handlers/resource_status_handler.go). */
@ApiSchema({ name: 'AdapterStatus' })
export class AdapterStatusAnswer {
  @ApiProperty() adapter!: string;
  @ApiProperty({ type: 'integer' }) observed_generation!: number;
  @ApiPropertyOptional({ format: 'date-time' }) observed_time?: string;
  @ApiProperty({ type: [ConditionAnswer] }) conditions!: ConditionAnswer[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) metadata?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "Free JSON. Decom's executor adds `holding` while deleting: `[{kind, namespace?, name, finalizers, deletion_timestamp}]`, the objects it waits on; `/finalizing` shows them on the adapter's AdapterNotFinalized blocker",
  })
  data?: Record<string, unknown>;
  @ApiPropertyOptional({ format: 'date-time' }) created_time?: string;
  @ApiPropertyOptional({ format: 'date-time' }) last_report_time?: string;
}

/** One page of a resource's adapter statuses, ordered by adapter. */
@ApiSchema({ name: 'AdapterStatusList' })
export class AdapterStatusListAnswer {
  @ApiPropertyOptional() kind?: string;
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) size!: number;
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: [AdapterStatusAnswer] }) items!: AdapterStatusAnswer[];
}
