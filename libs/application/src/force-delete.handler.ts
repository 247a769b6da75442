/**
 * Force delete (seed 001): audit event plus children-first removal in one append.
 */
import { CommandHandler } from '@nestjs/cqrs';
import { decideForceDelete, type ForceDelete, type ResourceEvent, type TreeState } from '@decom/domain';
import { TreeCommand } from './tree-command.js';
import { OperatorCommandHandler } from './operator-command.handler.js';

export class ForceDeleteCommand extends TreeCommand<ForceDelete> {}

@CommandHandler(ForceDeleteCommand)
export class ForceDeleteHandler extends OperatorCommandHandler<ForceDelete> {
  protected decide(payload: ForceDelete, state: TreeState): ResourceEvent[] {
    return decideForceDelete(payload, state);
  }
}
