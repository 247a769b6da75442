import { ApiAcceptedResponse, ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BREAK_GLASS_ACTIONS, BREAK_GLASS_STATUSES } from '@decom/domain';
import type { BreakGlassRequestAnswer } from './break-glass-accepted.js';
import { ItemListAnswer } from '../leaks/item-list.answer.js';

class BreakGlassTargetAnswer {
  @ApiProperty() kind!: string;
  @ApiProperty() id!: string;
}

class BreakGlassDecisionAnswer {
  @ApiProperty({ enum: ['Approved', 'Rejected', 'Voided'] }) status!: 'Approved' | 'Rejected' | 'Voided';
  @ApiProperty({ description: 'the administrator who decided (or, Voided, who tried to approve)' }) by!: string;
  @ApiProperty({ format: 'date-time' }) time!: string;
  @ApiPropertyOptional() reason?: string;
  @ApiPropertyOptional({ type: 'integer', description: "Voided: the target's generation at the approval (absent: the target was gone)" })
  current_generation?: number;
}

/** A break-glass request (two-person rule); the compiler holds it to what the API answers. */
@ApiSchema({ name: 'BreakGlassRequest' })
export class BreakGlassRequestDoc implements Omit<BreakGlassRequestAnswer, 'objects' | 'decision' | 'action' | 'status'> {
  @ApiProperty() request_id!: string;
  @ApiProperty({ enum: BREAK_GLASS_ACTIONS }) action!: string;
  @ApiProperty({ type: BreakGlassTargetAnswer, description: 'the resource (for delete_leaks: kind `Leaks`, id the request id)' })
  target!: BreakGlassTargetAnswer;
  @ApiProperty({ type: 'integer', description: "the target's generation when asked: the action runs against it only" }) generation!: number;
  @ApiProperty() reason!: string;
  @ApiProperty() requested_by!: string;
  @ApiProperty({ format: 'date-time' }) requested_time!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ enum: BREAK_GLASS_STATUSES }) status!: string;
  @ApiPropertyOptional({ description: 'abandon_adapter: the adapter whose cleanup the approval counts as done' }) adapter?: string;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, description: 'delete_leaks: the exact objects asked for' })
  objects?: object[];
  @ApiPropertyOptional({ type: BreakGlassDecisionAnswer }) decision?: BreakGlassDecisionAnswer;
  @ApiProperty() href!: string;
}

@ApiSchema({ name: 'BreakGlassRequestList' })
export class BreakGlassRequestListDoc {
  @ApiProperty({ type: 'integer', minimum: 0 }) total!: number;
  @ApiProperty({ type: [BreakGlassRequestDoc] }) items!: BreakGlassRequestDoc[];
}

@ApiSchema({ name: 'BreakGlassApproval' })
export class BreakGlassApprovalDoc {
  @ApiProperty({ type: BreakGlassRequestDoc }) request!: BreakGlassRequestDoc;
  @ApiPropertyOptional({ type: ItemListAnswer, description: 'delete_leaks: the objects deleted' }) deleted_leaks?: ItemListAnswer;
}

/**
 * The 202 a break-glass action answers under the two-person rule (`authorization.break_glass.approvals: 1`):
 * nothing ran, a request was recorded; `Location` names it.
 */
export function ApiBreakGlassAccepted(): MethodDecorator {
  return ApiAcceptedResponse({
    type: BreakGlassRequestDoc,
    description: 'two-person rule on: a break-glass request was recorded for another administrator to approve',
    headers: { Location: { description: 'the request', schema: { type: 'string' } } },
  });
}
