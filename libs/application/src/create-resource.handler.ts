/**
 * Creates a resource (generation 1) in its tree's stream. @throws MutationWhileFinalizing when the parent is deleting (seed 000 #12).
 * @throws NameAlreadyTaken (with the holder's id) when the name is taken, decided atomically by the store.
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { NameAlreadyTaken, decideCreate, type CreateResource, type KindRegistry } from '@decom/domain';
import { ReservationTaken } from '@decom/event-store';
import type { CommandContext } from './command-context.js';
import { KIND_REGISTRY } from './tokens.js';
import { ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class CreateResourceCommand implements ICommand {
  constructor(
    readonly payload: CreateResource,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(CreateResourceCommand)
export class CreateResourceHandler implements ICommandHandler<CreateResourceCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  async execute({ payload, context }: CreateResourceCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forNew(payload.kind, payload.id, payload.owner);
    try {
      return await this.repository.decideAndAppend(stream, (state) => decideCreate(payload as never, state, this.kinds), context);
    } catch (error) {
      // The store refused the name reservation: another top-level resource holds it (name-reservations.ts).
      if (error instanceof ReservationTaken) throw new NameAlreadyTaken(payload.kind, payload.name, error.holder);
      throw error;
    }
  }
}
