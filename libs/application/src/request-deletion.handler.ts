/**
 * Marks a resource and its subresources for deletion in one append (seed 000 Step 1).
 */
import { CommandHandler } from '@nestjs/cqrs';
import { decideDeletion, type RequestDeletion, type ResourceEvent, type TreeState } from '@decom/domain';
import { resolveReferences } from './resolve-references.js';
import { TreeCommand } from './tree-command.js';
import { OperatorCommandHandler } from './operator-command.handler.js';

export class RequestDeletionCommand extends TreeCommand<RequestDeletion> {}

@CommandHandler(RequestDeletionCommand)
export class RequestDeletionHandler extends OperatorCommandHandler<RequestDeletion> {
  /** The referrers the reference index names, with their facts read from their own trees (resolve-references.ts). */
  protected override resolve(payload: RequestDeletion): Promise<RequestDeletion> {
    return resolveReferences(payload, this.locator, this.repository);
  }

  protected decide(payload: RequestDeletion, state: TreeState): ResourceEvent[] {
    return decideDeletion(payload, state, this.kinds);
  }
}
