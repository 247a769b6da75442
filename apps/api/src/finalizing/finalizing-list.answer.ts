import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BLOCKER_TYPES, type FinalizingBlocker } from '@decom/domain';
import type { FinalizingJson } from '@decom/projections';

class BlockerConditionAnswer {
  @ApiProperty() status!: string;
  @ApiPropertyOptional() reason?: string;
  @ApiPropertyOptional() message?: string;
}

class ResourceRefAnswer {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
}

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
class LeftoverObjectAnswer {
  @ApiProperty() adapter!: string;
  @ApiProperty() apiVersion!: string;
  @ApiProperty() kind!: string;
  @ApiPropertyOptional() namespace?: string;
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ description: 'delete requested, the object still there' }) terminating?: boolean;
}

class UnverifiedAdapterAnswer {
  @ApiProperty() adapter!: string;
  @ApiProperty() reason!: string;
}

class BlockerAnswer {
  @ApiProperty({ enum: BLOCKER_TYPES }) type!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({
    type: [ReferrerAnswer],
    description: 'InUse: each resource that references this one, whether it is deleting, and (one level) its own blockers',
  })
  referrers?: ReferrerAnswer[];
  @ApiPropertyOptional({ type: [CycleMemberAnswer], description: 'DependencyCycle: the members in order, the first repeated last' })
  members?: CycleMemberAnswer[];
  @ApiPropertyOptional({ type: [CycleEdgeAnswer], description: "DependencyCycle: `from`'s hard delete waits for `to`'s" })
  edges?: CycleEdgeAnswer[];
  @ApiPropertyOptional({ type: 'integer', description: 'DependentsRemaining' }) count?: number;
  @ApiPropertyOptional({ type: [String], description: 'DependentsRemaining' }) ids?: string[];
  @ApiPropertyOptional({ description: 'DependentsRemaining: Foreground, the dependents hold the adapters too, not only the record' })
  holds_adapters?: boolean;
  @ApiPropertyOptional({
    type: [HeldObjectAnswer],
    description:
      "AdapterNotFinalized: the Kubernetes objects the adapter's last report (its `data.holding`) says it waits on; `since` is the object's deletionTimestamp",
  })
  holding?: HeldObjectAnswer[];
  @ApiPropertyOptional({
    description: "AdapterNotFinalized: true while no process consumes the adapter's job queue (no `decom worker` for it)",
  })
  no_worker?: boolean;
  @ApiPropertyOptional({ description: 'AdapterNotFinalized: the adapter' }) adapter?: string;
  @ApiPropertyOptional({ description: 'AdapterNotFinalized: false when the adapter never reported on this resource' }) reported?: boolean;
  @ApiPropertyOptional({ type: 'integer', description: "AdapterNotFinalized: the generation of the adapter's last report" })
  observed_generation?: number;
  @ApiPropertyOptional({ type: 'integer', description: "AdapterNotFinalized: the deletion's generation" }) generation?: number;
  @ApiPropertyOptional({ type: BlockerConditionAnswer, description: 'AdapterNotFinalized: its Finalized condition' })
  finalized?: BlockerConditionAnswer;
  @ApiPropertyOptional({ type: BlockerConditionAnswer, description: 'AdapterNotFinalized: its Health condition' })
  health?: BlockerConditionAnswer;
  @ApiPropertyOptional({ format: 'date-time', description: "AdapterNotFinalized: the adapter's last report" }) last_report_time?: string;
  @ApiPropertyOptional({ description: 'AdapterNotFinalized: a pause holds the deletion (the adapter waits for it, not failing)' })
  held_by_pause?: boolean;
  @ApiPropertyOptional({ enum: ['self', 'parent', 'dependent'], description: 'Paused: who pauses it' }) source?: string;
  @ApiPropertyOptional({ type: ResourceRefAnswer, description: 'Paused: the paused resource' }) resource?: ResourceRefAnswer;
  @ApiPropertyOptional({ description: 'Paused: the caller that paused it' }) paused_by?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Paused' }) paused_time?: string;
  @ApiPropertyOptional({ description: 'Paused, JobQueueUnavailable, DeletionBlocked: why' }) reason?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'JobQueueUnavailable, TimedOut: since when' }) since?: string;
  @ApiPropertyOptional({ type: 'integer', description: "TimedOut: the kind's deletion_timeout_seconds" }) timeout_seconds?: number;
  @ApiPropertyOptional({ description: 'DeadLettered: the queue' }) queue?: string;
  @ApiPropertyOptional({ description: 'DeadLettered: the job id' }) job_id?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'DeadLettered: attempts made' }) attempts?: number;
  @ApiPropertyOptional({ description: "DeadLettered: the last attempt's error" }) error?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'DeadLettered' }) failed_time?: string;
  @ApiPropertyOptional({
    type: [LeftoverObjectAnswer],
    description:
      'LeftoverObjects (verify before hard delete): every adapter reported Finalized=True, but these objects a hosted adapter created or adopted for the resource still carry its ownership marker; the resource stays Finalizing until they are gone',
  })
  objects?: LeftoverObjectAnswer[];
  @ApiPropertyOptional({
    type: [UnverifiedAdapterAnswer],
    description:
      'CleanupUnverified (verify before hard delete): hosted adapters whose objects could not be listed, and why; never taken for clean',
  })
  adapters?: UnverifiedAdapterAnswer[];
  @ApiPropertyOptional({ format: 'date-time', description: 'LeftoverObjects, CleanupUnverified: when the verification that found it ran' })
  checked_time?: string;
}

class UnhealthyAdapterAnswer {
  @ApiProperty() adapter!: string;
  @ApiProperty() reason!: string;
  @ApiProperty() message!: string;
}

class ReasonMessageAnswer {
  @ApiProperty() reason!: string;
  @ApiProperty() message!: string;
}

/** One pending deletion; the compiler holds it to the read model's `FinalizingJson`. */
class FinalizingAnswer implements FinalizingJson {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiProperty() name!: string;
  @ApiProperty() href!: string;
  @ApiProperty({ type: 'integer' }) generation!: number;
  @ApiProperty({ format: 'date-time' }) deleted_time!: string;
  @ApiProperty() deleted_by!: string;
  @ApiProperty({ type: 'integer' }) finalizing_seconds!: number;
  @ApiProperty({ type: [String] }) waiting_on_adapters!: string[];
  @ApiProperty({ type: [UnhealthyAdapterAnswer] }) unhealthy_adapters!: UnhealthyAdapterAnswer[];
  @ApiProperty({ type: 'integer' }) children_remaining!: number;
  @ApiProperty({ type: ReasonMessageAnswer, description: 'its Reconciled condition' }) reconciled!: ReasonMessageAnswer;
  @ApiPropertyOptional({ type: ReasonMessageAnswer, description: 'its DeletionBlocked condition while True' })
  deletion_blocked?: ReasonMessageAnswer;
  @ApiProperty({ type: [BlockerAnswer], description: 'root causes first; empty: hard delete due' }) blockers!: readonly FinalizingBlocker[];
  @ApiPropertyOptional({ type: 'integer', description: "the kind's deletion_timeout_seconds, when it has one" })
  deletion_timeout_seconds?: number;
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
