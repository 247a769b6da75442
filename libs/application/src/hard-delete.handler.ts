/**
 * Hard-deletes bottom-up when the gate holds (seed 000 API Hard-Delete Signal); run by the hard-delete job.
 */
import { CommandHandler } from '@nestjs/cqrs';
import { decideHardDelete, type HardDelete, type ResourceEvent, type TreeState } from '@decom/domain';
import { TreeCommand } from './tree-command.js';
import { TreeCommandHandler } from './tree-command.handler.js';

export class HardDeleteCommand extends TreeCommand<HardDelete> {}

@CommandHandler(HardDeleteCommand)
export class HardDeleteHandler extends TreeCommandHandler<HardDelete> {
  protected decide(payload: HardDelete, state: TreeState): ResourceEvent[] {
    return decideHardDelete(payload, state, this.kinds);
  }
}
