/**
 * Leak records (libs/domain leaks.ts): an adapter's leak inventory after a force delete or
 * force orphan, and an operator's audited removal of leaked objects. Both append to the owning
 * resource's tree stream, also after the resource was hard-deleted (the stream is found through the
 * never-deleted resource index).
 */
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decideLeakCleanup, decideLeakInventory, type RecordLeakCleanup, type RecordLeakInventory } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class RecordLeakInventoryCommand implements ICommand {
  constructor(
    readonly payload: RecordLeakInventory,
    readonly context: CommandContext,
  ) {}
}

export class RecordLeakCleanupCommand implements ICommand {
  constructor(
    readonly payload: RecordLeakCleanup,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(RecordLeakInventoryCommand)
export class RecordLeakInventoryHandler implements ICommandHandler<RecordLeakInventoryCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
  ) {}

  async execute({ payload, context }: RecordLeakInventoryCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decideLeakInventory(payload, state), context);
  }
}

@CommandHandler(RecordLeakCleanupCommand)
export class RecordLeakCleanupHandler implements ICommandHandler<RecordLeakCleanupCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
  ) {}

  async execute({ payload, context }: RecordLeakCleanupCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decideLeakCleanup(payload, state), context);
  }
}
