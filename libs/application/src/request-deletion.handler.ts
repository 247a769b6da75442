/**
 * Marks a resource and its subresources for deletion in one append (seed 000 Step 1).
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decideDeletion, type RequestDeletion, type KindRegistry } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { KIND_REGISTRY } from './tokens.js';
import { OPERATOR_CONFLICT_RETRIES, ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { resolveReferences } from './resolve-references.js';
import { StreamLocator } from './stream-locator.js';

export class RequestDeletionCommand implements ICommand {
  constructor(
    readonly payload: RequestDeletion,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(RequestDeletionCommand)
export class RequestDeletionHandler implements ICommandHandler<RequestDeletionCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  async execute({ payload, context }: RequestDeletionCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    const command = await resolveReferences(payload, this.locator, this.repository);
    return this.repository.decideAndAppend(stream, (state) => decideDeletion(command, state, this.kinds), { ...context, maxConflictRetries: OPERATOR_CONFLICT_RETRIES });
  }
}
