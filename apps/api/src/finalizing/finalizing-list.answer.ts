import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BLOCKER_TYPES } from '@decom/domain';

class BlockerBriefAnswer {
  @ApiProperty() type!: string;
  @ApiProperty() message!: string;
}

class ReferrerAnswer {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiProperty() name!: string;
  @ApiPropertyOptional() deleting?: boolean;
  @ApiPropertyOptional({ type: [BlockerBriefAnswer] }) blockers?: BlockerBriefAnswer[];
}

class CycleMemberAnswer {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiProperty() name!: string;
}

class CycleEdgeAnswer {
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
  @ApiProperty({ enum: ['InUse', 'RecordWait'] }) kind!: string;
}

class HeldObjectAnswer {
  @ApiProperty() kind!: string;
  @ApiPropertyOptional() namespace?: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) finalizers!: string[];
  @ApiProperty({ format: 'date-time' }) since!: string;
}

/**
 * Why a deletion is pending, root causes first: the stored deletion status (libs/domain deletion-status.ts)
 * plus DeadLettered and TimedOut. Which optional fields are present depends on `type`.
 */
class BlockerAnswer {
  @ApiProperty({ enum: BLOCKER_TYPES }) type!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({ type: [ReferrerAnswer], description: 'InUse: each resource that references this one, whether it is deleting, and (one level) its own blockers' })
  referrers?: ReferrerAnswer[];
  @ApiPropertyOptional({ type: [CycleMemberAnswer], description: 'DependencyCycle: the members in order, the first repeated last' }) members?: CycleMemberAnswer[];
  @ApiPropertyOptional({ type: [CycleEdgeAnswer], description: "DependencyCycle: `from`'s hard delete waits for `to`'s" }) edges?: CycleEdgeAnswer[];
  @ApiPropertyOptional({ type: 'integer', description: 'DependentsRemaining' }) count?: number;
  @ApiPropertyOptional({ type: [String], description: 'DependentsRemaining' }) ids?: string[];
  @ApiPropertyOptional({ description: 'DependentsRemaining: Foreground, the dependents hold the adapters too, not only the record' }) holds_adapters?: boolean;
  @ApiPropertyOptional({
    type: [HeldObjectAnswer],
    description: "AdapterNotFinalized: the Kubernetes objects the adapter's last report (its `data.holding`) says it waits on; `since` is the object's deletionTimestamp",
  })
  holding?: HeldObjectAnswer[];
  @ApiPropertyOptional({ description: "AdapterNotFinalized: true while no process consumes the adapter's job queue (no `decom worker` for it)" }) no_worker?: boolean;
}

/** One pending deletion (`FinalizingJson`). */
class FinalizingAnswer {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiProperty() name!: string;
  @ApiProperty() href!: string;
  @ApiPropertyOptional({ type: 'integer' }) generation?: number;
  @ApiProperty({ format: 'date-time' }) deleted_time!: string;
  @ApiPropertyOptional() deleted_by?: string;
  @ApiPropertyOptional({ type: [String] }) waiting_on_adapters?: string[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } }) unhealthy_adapters?: object[];
  @ApiPropertyOptional({ type: 'integer' }) finalizing_seconds?: number;
  @ApiPropertyOptional({ type: 'integer' }) deletion_timeout_seconds?: number;
  @ApiPropertyOptional({ type: [BlockerAnswer] }) blockers?: BlockerAnswer[];
}

/** Whether the job queue's dead letters could be read (`QueueAvailability`). */
class DeadLetterAvailabilityAnswer {
  @ApiProperty({ enum: ['available', 'unavailable'] }) status!: string;
  @ApiPropertyOptional() reason?: string;
  @ApiPropertyOptional({ format: 'date-time' }) since?: string;
}

/** `GET /api/decom/v1/finalizing`: pending deletions and what they wait on. */
@ApiSchema({ name: 'FinalizingList' })
export class FinalizingListAnswer {
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: [FinalizingAnswer] }) items!: FinalizingAnswer[];
  @ApiPropertyOptional({ type: DeadLetterAvailabilityAnswer }) dead_letters?: DeadLetterAvailabilityAnswer;
}
