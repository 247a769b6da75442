/**
 * Force delete (seed 001): audit event plus children-first removal in one append.
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decideForceDelete, type ForceDelete, type KindRegistry } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { KIND_REGISTRY } from './tokens.js';
import { OPERATOR_CONFLICT_RETRIES, ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class ForceDeleteCommand implements ICommand {
  constructor(
    readonly payload: ForceDelete,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(ForceDeleteCommand)
export class ForceDeleteHandler implements ICommandHandler<ForceDeleteCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  async execute({ payload, context }: ForceDeleteCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decideForceDelete(payload as never, state), { ...context, maxConflictRetries: OPERATOR_CONFLICT_RETRIES });
  }
}
