/**
 * Hard-deletes bottom-up when the gate holds (seed 000 API Hard-Delete Signal); run by the hard-delete job.
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decideHardDelete, type HardDelete, type KindRegistry } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { KIND_REGISTRY } from './tokens.js';
import { ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class HardDeleteCommand implements ICommand {
  constructor(
    readonly payload: HardDelete,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(HardDeleteCommand)
export class HardDeleteHandler implements ICommandHandler<HardDeleteCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  async execute({ payload, context }: HardDeleteCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decideHardDelete(payload as never, state, this.kinds), context);
  }
}
