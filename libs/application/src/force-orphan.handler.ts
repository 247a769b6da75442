/**
 * The force-orphan break-glass (seed 003): adapters skip cleanup and report Finalized=True/Orphaned.
 */
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decideForceOrphan, type ForceOrphan } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { OPERATOR_CONFLICT_RETRIES, ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class ForceOrphanCommand implements ICommand {
  constructor(
    readonly payload: ForceOrphan,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(ForceOrphanCommand)
export class ForceOrphanHandler implements ICommandHandler<ForceOrphanCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
  ) {}

  async execute({ payload, context }: ForceOrphanCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decideForceOrphan(payload, state), { ...context, maxConflictRetries: OPERATOR_CONFLICT_RETRIES });
  }
}
