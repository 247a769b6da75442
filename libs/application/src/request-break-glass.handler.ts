/**
 * Records a break-glass request (two-person rule, break-glass.ts): in the target's tree stream, or for a leak
 * deletion in its own `breakglass-<request_id>` stream.
 */
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import { breakGlassStreamName, decideRequestBreakGlass, type KindRegistry, type RequestBreakGlass } from '@decom/domain';
import { KIND_REGISTRY } from './tokens.js';
import type { CommandContext } from './command-context.js';
import { OPERATOR_CONFLICT_RETRIES, ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class RequestBreakGlassCommand implements ICommand {
  constructor(
    readonly payload: RequestBreakGlass,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(RequestBreakGlassCommand)
export class RequestBreakGlassHandler implements ICommandHandler<RequestBreakGlassCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  async execute({ payload, context }: RequestBreakGlassCommand): Promise<DecisionOutcome> {
    const stream =
      payload.action === 'delete_leaks'
        ? breakGlassStreamName(payload.request_id)
        : await this.locator.forExisting(payload.kind, payload.id);
    return this.repository.decideAndAppend(stream, (state) => decideRequestBreakGlass(payload, state, this.kinds), {
      ...context,
      maxConflictRetries: OPERATOR_CONFLICT_RETRIES,
    });
  }
}
