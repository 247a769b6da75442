/**
 * Changes spec/labels (generation + 1). @throws MutationWhileFinalizing (seed 000 #12).
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decidePatch, type PatchResource, type KindRegistry } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { KIND_REGISTRY } from './tokens.js';
import { ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class PatchResourceCommand implements ICommand {
  constructor(
    readonly payload: PatchResource,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(PatchResourceCommand)
export class PatchResourceHandler implements ICommandHandler<PatchResourceCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  async execute({ payload, context }: PatchResourceCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decidePatch(payload as never, state), context);
  }
}
