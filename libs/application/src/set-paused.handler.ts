/**
 * Pause/unpause a resource (seed 004 "Pause stops a deletion").
 */
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decideSetPaused, type SetPaused } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { OPERATOR_CONFLICT_RETRIES, ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class SetPausedCommand implements ICommand {
  constructor(
    readonly payload: SetPaused,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(SetPausedCommand)
export class SetPausedHandler implements ICommandHandler<SetPausedCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
  ) {}

  async execute({ payload, context }: SetPausedCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decideSetPaused(payload, state), { ...context, maxConflictRetries: OPERATOR_CONFLICT_RETRIES });
  }
}
