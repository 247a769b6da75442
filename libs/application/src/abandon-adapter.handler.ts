/**
 * Abandon one adapter of a deletion (abandon-adapter.ts): its status becomes Finalized=True/AdapterAbandoned and
 * `AdapterFinalized` records `forced` with caller and reason; the leak-inventory reactor then records what it owns.
 */
import { CommandHandler } from '@nestjs/cqrs';
import { decideAbandonAdapter, type AbandonAdapter, type ResourceEvent, type TreeState } from '@decom/domain';
import { TreeCommand } from './tree-command.js';
import { OperatorCommandHandler } from './operator-command.handler.js';

export class AbandonAdapterCommand extends TreeCommand<AbandonAdapter> {}

@CommandHandler(AbandonAdapterCommand)
export class AbandonAdapterHandler extends OperatorCommandHandler<AbandonAdapter> {
  protected decide(payload: AbandonAdapter, state: TreeState): ResourceEvent[] {
    return decideAbandonAdapter(payload, state, this.kinds);
  }
}
