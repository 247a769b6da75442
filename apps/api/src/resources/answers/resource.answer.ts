import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { ConditionAnswer } from './condition.answer.js';
import { ObjectReferenceAnswer } from './object-reference.answer.js';
import type { ResourceJson } from '@decom/projections';

const POLICIES = ['Delete', 'Orphan'];
type Policy = 'Delete' | 'Orphan';
const PROPAGATIONS = ['Foreground', 'Background'];

class ResourceStatusAnswer {
  @ApiProperty({ type: [ConditionAnswer] }) conditions!: ConditionAnswer[];
}

class EffectiveDeletionPolicyAnswer {
  @ApiProperty({ enum: POLICIES }) policy!: Policy;
  @ApiProperty() source!: string;
}

/** Once deleting: what dispatch may do, from the stored deletion status (libs/domain deletion-status.ts). */
class DeletionDispatchAnswer {
  @ApiProperty({ enum: ['run', 'hold'] }) action!: string;
  @ApiPropertyOptional({ type: [String] }) adapters?: string[];
  @ApiPropertyOptional({ enum: ['DependencyCycle', 'InUse', 'DependentsExist'] }) reason?: string;
}

class ProtectionSetAnswer {
  @ApiProperty() caller!: string;
  @ApiProperty({ description: 'empty when no reason was given' }) reason!: string;
  @ApiProperty({ format: 'date-time' }) time!: string;
}

/**
 * A HyperFleet resource (cluster, nodepool, any registered kind) as the read model presents it; the
 * compiler holds it to `ResourceJson` (resource-presenter.ts), so the document cannot miss a field it sends.
 */
@ApiSchema({ name: 'Resource' })
export class ResourceAnswer implements ResourceJson {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiProperty() href!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) spec!: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) labels?: Record<string, string>;
  @ApiProperty({ type: 'integer', minimum: 1 }) generation!: number;
  @ApiProperty({ type: ResourceStatusAnswer }) status!: ResourceJson['status'];
  @ApiPropertyOptional({ type: ObjectReferenceAnswer }) owner_references?: ResourceJson['owner_references'];
  @ApiProperty({ format: 'date-time' }) created_time!: string;
  @ApiProperty({ format: 'date-time' }) updated_time!: string;
  @ApiProperty() created_by!: string;
  @ApiProperty() updated_by!: string;
  @ApiPropertyOptional({ format: 'date-time' }) deleted_time?: string;
  @ApiPropertyOptional() deleted_by?: string;
  @ApiProperty({ enum: POLICIES }) deletion_policy!: Policy;
  @ApiProperty({ type: EffectiveDeletionPolicyAnswer }) effective_deletion_policy!: EffectiveDeletionPolicyAnswer;
  @ApiPropertyOptional({ enum: PROPAGATIONS }) deletion_propagation?: 'Foreground' | 'Background';
  @ApiPropertyOptional({ type: [String] }) deletion_required_adapters?: string[];
  @ApiPropertyOptional({ type: DeletionDispatchAnswer }) deletion_dispatch?: ResourceJson['deletion_dispatch'];
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'array', items: { $ref: getSchemaPath(ObjectReferenceAnswer) } } })
  references?: Record<string, ObjectReferenceAnswer[]>;
  @ApiPropertyOptional({
    type: 'boolean',
    enum: [true],
    description:
      "Present while deletion protection is set: a DELETE reaching this resource (itself or an ancestor's cascade) answers 409 naming it",
  })
  deletion_protection?: true;
  @ApiPropertyOptional({ type: ProtectionSetAnswer, description: 'Who set the protection, why and when' })
  deletion_protection_set?: ProtectionSetAnswer;
}
