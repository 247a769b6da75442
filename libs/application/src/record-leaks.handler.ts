/**
 * Leak records (libs/domain leaks.ts): an adapter's leak inventory after a force delete or
 * force orphan, and an operator's audited removal of leaked objects. Both append to the owning
 * resource's tree stream, also after the resource was hard-deleted (the stream is found through the
 * never-deleted resource index).
 */
import { CommandHandler } from '@nestjs/cqrs';
import {
  decideLeakCleanup,
  decideLeakInventory,
  type RecordLeakCleanup,
  type RecordLeakInventory,
  type ResourceEvent,
  type TreeState,
} from '@decom/domain';
import { TreeCommand } from './tree-command.js';
import { TreeCommandHandler } from './tree-command.handler.js';

export class RecordLeakInventoryCommand extends TreeCommand<RecordLeakInventory> {}

export class RecordLeakCleanupCommand extends TreeCommand<RecordLeakCleanup> {}

@CommandHandler(RecordLeakInventoryCommand)
export class RecordLeakInventoryHandler extends TreeCommandHandler<RecordLeakInventory> {
  protected decide(payload: RecordLeakInventory, state: TreeState): ResourceEvent[] {
    return decideLeakInventory(payload, state);
  }
}

@CommandHandler(RecordLeakCleanupCommand)
export class RecordLeakCleanupHandler extends TreeCommandHandler<RecordLeakCleanup> {
  protected decide(payload: RecordLeakCleanup, state: TreeState): ResourceEvent[] {
    return decideLeakCleanup(payload, state);
  }
}
