/**
 * One info log line per domain transition and the deletion counters (seed 000
 * §Observability), fed by every successful append (`ResourceTreeRepository`'s observer), so each fact is
 * counted and logged exactly once, by the process that recorded it.
 *
 * Log line fields: `transition` (event type), `resource_id`, `kind`, `caller`, `trace_id`, plus the
 * transition's own (`generation`, `adapter`, `reason`, `cause`, `deletion_seconds`). Adapter status
 * reports are not transitions (debug level); `AdapterFinalized` is.
 */
import type { Logger } from 'pino';
import type { AppendedDecision, AppendObserver } from '@decom/application';
import type { ResourceEvent } from '@decom/domain';
import type { DecomMetrics } from '@decom/metrics';

export function domainTransitionObserver(logger: Logger | undefined, metrics: DecomMetrics | undefined): AppendObserver {
  return (appended: AppendedDecision) => {
    metrics?.appendDuration.observe(appended.appendSeconds);
    for (const event of appended.events) {
      const line = describe(event, appended);
      if (metrics) count(metrics, event, appended);
      if (!line || !logger) continue;
      const fields = {
        transition: event.type,
        resource_id: event.data.id,
        kind: event.data.kind,
        caller: appended.caller,
        ...(appended.traceId ? { trace_id: appended.traceId } : {}),
        ...line.fields,
      };
      if (line.level === 'debug') logger.debug(fields, line.message);
      else logger.info(fields, line.message);
    }
  };
}

function deletionSeconds(appended: AppendedDecision, id: string, at: string): number | undefined {
  const deleted = appended.before.resources.get(id)?.deleted_time;
  if (!deleted) return undefined;
  return Math.max(0, (Date.parse(at) - Date.parse(deleted)) / 1000);
}

function count(metrics: DecomMetrics, event: ResourceEvent, appended: AppendedDecision): void {
  const kind = event.data.kind;
  switch (event.type) {
    case 'ResourceCreated':
    case 'SpecChanged':
      metrics.reconciliationStartedFor(kind, false);
      return;
    case 'DeletionRequested':
      metrics.reconciliationStartedFor(kind, true);
      metrics.deletionsRequested.inc({ kind });
      return;
    case 'HardDeleted': {
      metrics.resourceGone(event.data.id);
      if (event.data.cause === 'Reconciled') metrics.deletionsCompleted.inc({ kind });
      const seconds = deletionSeconds(appended, event.data.id, event.data.hard_deleted_time);
      if (seconds !== undefined) metrics.deletionDuration.observe({ kind }, seconds);
      return;
    }
    case 'ForceDeleted':
      metrics.forceDeleted.inc({ kind });
      return;
    case 'ForceOrphaned':
      metrics.forceOrphaned.inc({ kind });
      return;
    default:
      return;
  }
}

function describe(
  event: ResourceEvent,
  appended: AppendedDecision,
): { message: string; fields: Record<string, unknown>; level?: 'debug' } | undefined {
  switch (event.type) {
    case 'ResourceCreated':
      return { message: 'resource created', fields: { name: event.data.name, generation: event.data.generation } };
    case 'SpecChanged':
      return { message: 'spec changed', fields: { generation: event.data.generation } };
    case 'DeletionRequested':
      return {
        message: 'deletion requested',
        fields: {
          generation: event.data.generation,
          deleted_time: event.data.deleted_time,
          ...(event.data.cascaded_from ? { cascaded_from: event.data.cascaded_from } : {}),
        },
      };
    case 'DeletionStarted':
      return { message: 'deletion started', fields: { adapter: event.data.adapter, generation: event.data.generation } };
    case 'AdapterFinalized':
      return { message: 'adapter finalized', fields: { adapter: event.data.adapter, observed_generation: event.data.observed_generation } };
    case 'Orphaned':
      return { message: 'orphaned by adapter', fields: { adapter: event.data.adapter } };
    case 'HardDeleted': {
      const seconds = deletionSeconds(appended, event.data.id, event.data.hard_deleted_time);
      return {
        message: 'hard deleted',
        fields: { cause: event.data.cause, ...(seconds !== undefined ? { deletion_seconds: seconds } : {}) },
      };
    }
    case 'ForceDeleted':
      return { message: 'force deleted', fields: { reason: event.data.reason, subresources: event.data.subresources.length } };
    case 'ForceOrphaned':
      return { message: 'force orphaned', fields: { reason: event.data.reason } };
    case 'ResourcePaused':
      return { message: 'paused', fields: { reason: event.data.reason } };
    case 'ResourceUnpaused':
      return { message: 'unpaused', fields: { reason: event.data.reason } };
    case 'AdapterStatusReported':
      return {
        message: 'adapter status reported',
        fields: { adapter: event.data.status.adapter, observed_generation: event.data.status.observed_generation },
        level: 'debug',
      };
    default:
      return undefined;
  }
}
