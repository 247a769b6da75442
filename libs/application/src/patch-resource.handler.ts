/**
 * Changes spec/labels (generation + 1). @throws MutationWhileFinalizing (seed 000 #12).
 */
import { CommandHandler } from '@nestjs/cqrs';
import { decidePatch, type PatchResource, type ResourceEvent, type TreeState } from '@decom/domain';
import { TreeCommand } from './tree-command.js';
import { TreeCommandHandler } from './tree-command.handler.js';

export class PatchResourceCommand extends TreeCommand<PatchResource> {}

@CommandHandler(PatchResourceCommand)
export class PatchResourceHandler extends TreeCommandHandler<PatchResource> {
  protected decide(payload: PatchResource, state: TreeState): ResourceEvent[] {
    return decidePatch(payload, state);
  }
}
