/**
 * Approves or rejects a break-glass request (two-person rule, break-glass.ts) in the stream that holds it
 * (the break-glass read model's `stream`). An approval appends `BreakGlassApproved` and the action's own
 * events atomically (or `BreakGlassVoided` when the target moved).
 */
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import {
  decideApproveBreakGlass,
  decideRejectBreakGlass,
  type ApproveBreakGlass,
  type KindRegistry,
  type RejectBreakGlass,
} from '@decom/domain';
import { KIND_REGISTRY } from './tokens.js';
import type { CommandContext } from './command-context.js';
import { OPERATOR_CONFLICT_RETRIES, ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';

export class DecideBreakGlassCommand implements ICommand {
  constructor(
    readonly payload: ApproveBreakGlass | RejectBreakGlass,
    /** The stream holding the request. */
    readonly stream: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(DecideBreakGlassCommand)
export class DecideBreakGlassHandler implements ICommandHandler<DecideBreakGlassCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  async execute({ payload, stream, context }: DecideBreakGlassCommand): Promise<DecisionOutcome> {
    const decideFn = payload.type === 'ApproveBreakGlass' ? decideApproveBreakGlass : decideRejectBreakGlass;
    return this.repository.decideAndAppend(stream, (state) => decideFn(payload as never, state, this.kinds), {
      ...context,
      maxConflictRetries: OPERATOR_CONFLICT_RETRIES,
    });
  }
}
