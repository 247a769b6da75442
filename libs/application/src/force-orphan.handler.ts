/**
 * The force-orphan break-glass (seed 003): adapters skip cleanup and report Finalized=True/Orphaned.
 */
import { CommandHandler } from '@nestjs/cqrs';
import { decideForceOrphan, type ForceOrphan, type ResourceEvent, type TreeState } from '@decom/domain';
import { TreeCommand } from './tree-command.js';
import { OperatorCommandHandler } from './operator-command.handler.js';

export class ForceOrphanCommand extends TreeCommand<ForceOrphan> {}

@CommandHandler(ForceOrphanCommand)
export class ForceOrphanHandler extends OperatorCommandHandler<ForceOrphan> {
  protected decide(payload: ForceOrphan, state: TreeState): ResourceEvent[] {
    return decideForceOrphan(payload, state);
  }
}
