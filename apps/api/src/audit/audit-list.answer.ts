import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** One force delete or force orphan (`AuditEntry`). */
class AuditEntryAnswer {
  @ApiProperty({ type: 'integer' }) position!: number;
  @ApiProperty({ enum: ['ForceDeleted', 'ForceOrphaned'] }) type!: string;
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiPropertyOptional() name?: string;
  @ApiProperty() caller!: string;
  @ApiProperty() reason!: string;
  @ApiProperty({ format: 'date-time' }) time!: string;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) subresources!: object[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'adapter → its statuses at the time' }) adapter_statuses!: Record<string, unknown>;
}

/** `GET /api/decom/v1/audit`, newest first. */
@ApiSchema({ name: 'AuditList' })
export class AuditListAnswer {
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: [AuditEntryAnswer] }) items!: AuditEntryAnswer[];
}
