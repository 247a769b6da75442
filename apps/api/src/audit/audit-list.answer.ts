import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { AuditEntry, AuditType } from '@decom/projections';
import { AdapterStatusAnswer } from '../resources/answers/adapter-status.answer.js';

class SubresourceAnswer {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiProperty() name!: string;
}

/** One force delete or force orphan; the compiler holds it to the audit read model's `AuditEntry`. */
class AuditEntryAnswer implements AuditEntry {
  @ApiProperty({ type: 'integer' }) position!: number;
  @ApiProperty({ enum: ['ForceDeleted', 'ForceOrphaned'] }) type!: AuditType;
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiPropertyOptional() name?: string;
  @ApiProperty() caller!: string;
  @ApiProperty() reason!: string;
  @ApiProperty({ format: 'date-time' }) time!: string;
  @ApiProperty({ type: [SubresourceAnswer] }) subresources!: SubresourceAnswer[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: getSchemaPath(AdapterStatusAnswer) } },
    description: 'resource id → its adapter statuses at that moment (ForceDeleted; `{}` for ForceOrphaned)',
  })
  adapter_statuses!: Record<string, AdapterStatusAnswer[]>;
}

/** `GET /api/decom/v1/audit`, newest first. */
@ApiSchema({ name: 'AuditList' })
export class AuditListAnswer {
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: [AuditEntryAnswer] }) items!: AuditEntryAnswer[];
}
