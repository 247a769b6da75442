/**
 * Pause/unpause a resource (seed 004 "Pause stops a deletion").
 */
import { CommandHandler } from '@nestjs/cqrs';
import { decideSetPaused, type ResourceEvent, type SetPaused, type TreeState } from '@decom/domain';
import { TreeCommand } from './tree-command.js';
import { OperatorCommandHandler } from './operator-command.handler.js';

export class SetPausedCommand extends TreeCommand<SetPaused> {}

@CommandHandler(SetPausedCommand)
export class SetPausedHandler extends OperatorCommandHandler<SetPaused> {
  protected decide(payload: SetPaused, state: TreeState): ResourceEvent[] {
    return decideSetPaused(payload, state);
  }
}
