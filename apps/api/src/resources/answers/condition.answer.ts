import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** A Kubernetes-style condition of a resource or an adapter status (`Reconciled`, `Finalized`, `Applied`, ...). */
@ApiSchema({ name: 'Condition' })
export class ConditionAnswer {
  @ApiProperty() type!: string;
  @ApiProperty({ enum: ['True', 'False', 'Unknown'] }) status!: string;
  @ApiPropertyOptional() reason?: string;
  @ApiPropertyOptional() message?: string;
  @ApiPropertyOptional({ type: 'integer' }) observed_generation?: number;
  @ApiPropertyOptional({ format: 'date-time' }) created_time?: string;
  @ApiPropertyOptional({ format: 'date-time' }) last_updated_time?: string;
  @ApiPropertyOptional({ format: 'date-time' }) last_transition_time?: string;
}
