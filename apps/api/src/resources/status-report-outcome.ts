/**
 * What a status report's command came to, as the report route answers it: the status stored (200/201), or a
 * discard (204) with the rule that discarded it.
 */
import type { DecisionOutcome } from '@decom/application';
import { discardMessage, discardReason, isSameReport, type AdapterStatus, type ReportAdapterStatus } from '@decom/domain';

/** A report stored, or discarded (204) with the rule that discarded it, when one did (`undefined`: nothing to say). */
export type StatusReportOutcome =
  | { readonly stored: true; readonly status: AdapterStatus }
  | { readonly stored: false; readonly discarded?: { readonly reason: string; readonly message: string } };

/** `command`'s outcome read from the events it recorded or, when it recorded none, from the resource's decided state. */
export function statusReportOutcome(outcome: DecisionOutcome, command: ReportAdapterStatus): StatusReportOutcome {
  const reported = outcome.events.find((e) => e.type === 'AdapterStatusReported');
  if (reported && reported.type === 'AdapterStatusReported') return { stored: true, status: reported.data.status };
  // An identical repeat records nothing new (transitions only) but is not a discard: answer the stored
  // status. Unless the report is one HyperFleet discards anyway (a repeated Available=Unknown): 204.
  const resource = outcome.state.resources.get(command.id);
  const stored = resource?.adapter_statuses[command.adapter];
  if (stored && isSameReport(stored, command) && discardReason(resource!, command) === undefined) return { stored: true, status: stored };
  const recorded = outcome.events.find((e) => e.type === 'AdapterStatusDiscarded');
  if (recorded && recorded.type === 'AdapterStatusDiscarded')
    return { stored: false, discarded: { reason: recorded.data.reason, message: recorded.data.message } };
  const reason = resource && discardReason(resource, command);
  return reason ? { stored: false, discarded: { reason, message: discardMessage(reason, resource, command) } } : { stored: false };
}
