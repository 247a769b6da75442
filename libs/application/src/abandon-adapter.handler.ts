/**
 * Abandon one adapter of a deletion (abandon-adapter.ts): its status becomes Finalized=True/AdapterAbandoned and
 * `AdapterFinalized` records `forced` with caller and reason; the leak-inventory reactor then records what it owns.
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decideAbandonAdapter, type AbandonAdapter, type KindRegistry } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { KIND_REGISTRY } from './tokens.js';
import { OPERATOR_CONFLICT_RETRIES, ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class AbandonAdapterCommand implements ICommand {
  constructor(
    readonly payload: AbandonAdapter,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(AbandonAdapterCommand)
export class AbandonAdapterHandler implements ICommandHandler<AbandonAdapterCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  async execute({ payload, context }: AbandonAdapterCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decideAbandonAdapter(payload, state, this.kinds), { ...context, maxConflictRetries: OPERATOR_CONFLICT_RETRIES });
  }
}
