/**
 * Creates a resource (generation 1) in its tree's stream. @throws MutationWhileFinalizing when the parent is deleting (seed 000 #12).
 * @throws NameAlreadyTaken (with the holder's id) when the name is taken, decided atomically by the store.
 */
import { CommandHandler } from '@nestjs/cqrs';
import { NameAlreadyTaken, decideCreate, type CreateResource, type ResourceEvent, type TreeState } from '@decom/domain';
import { ReservationTaken } from '@decom/event-store';
import type { DecisionOutcome } from './resource-tree.repository.js';
import { TreeCommand } from './tree-command.js';
import { TreeCommandHandler } from './tree-command.handler.js';

export class CreateResourceCommand extends TreeCommand<CreateResource> {}

@CommandHandler(CreateResourceCommand)
export class CreateResourceHandler extends TreeCommandHandler<CreateResource> {
  override async execute(command: CreateResourceCommand): Promise<DecisionOutcome> {
    try {
      return await super.execute(command);
    } catch (error) {
      // The store refused the name reservation: another top-level resource holds it (name-reservations.ts).
      if (error instanceof ReservationTaken) throw new NameAlreadyTaken(command.payload.kind, command.payload.name, error.holder);
      throw error;
    }
  }

  /** A top-level resource roots its own stream; a child lives in its parent's. @throws ResourceNotFound (parent). */
  protected override streamOf(payload: CreateResource): Promise<string> {
    return this.locator.forNew(payload.kind, payload.id, payload.owner);
  }

  protected decide(payload: CreateResource, state: TreeState): ResourceEvent[] {
    return decideCreate(payload, state, this.kinds);
  }
}
