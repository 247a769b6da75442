/**
 * Ingests an adapter report (HyperFleet's status ingestion rules); no events when discarded (204).
 */
import { CommandHandler } from '@nestjs/cqrs';
import { decideReport, type ReportAdapterStatus, type ResourceEvent, type TreeState } from '@decom/domain';
import { TreeCommand } from './tree-command.js';
import { TreeCommandHandler } from './tree-command.handler.js';

export class ReportAdapterStatusCommand extends TreeCommand<ReportAdapterStatus> {}

@CommandHandler(ReportAdapterStatusCommand)
export class ReportAdapterStatusHandler extends TreeCommandHandler<ReportAdapterStatus> {
  protected decide(payload: ReportAdapterStatus, state: TreeState): ResourceEvent[] {
    return decideReport(payload, state);
  }
}
