/**
 * Ingests an adapter report (HyperFleet's status ingestion rules); no events when discarded (204).
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decideReport, type ReportAdapterStatus, type KindRegistry } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { KIND_REGISTRY } from './tokens.js';
import { ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class ReportAdapterStatusCommand implements ICommand {
  constructor(
    readonly payload: ReportAdapterStatus,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(ReportAdapterStatusCommand)
export class ReportAdapterStatusHandler implements ICommandHandler<ReportAdapterStatusCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  async execute({ payload, context }: ReportAdapterStatusCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decideReport(payload as never, state), context);
  }
}
