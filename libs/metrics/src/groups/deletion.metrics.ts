/**
 * Decom's deletion metrics (seed 000 §Observability): deletions requested, completed, forced, the deletion
 * budget's checks, `deleted_time` → hard delete, and at scrape the resources still Finalizing.
 */
import { Counter, Gauge } from 'prom-client';
import { scrapedGauge, secondsHistogram, type ScrapeContext } from './scrape-context.js';

/** `deleted_time` → hard delete, in seconds: 1 s to 1 day. */
export const DELETION_DURATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400];

export function deletionMetrics(context: ScrapeContext, finalizing: () => (() => Promise<readonly { kind: string }[]>) | undefined) {
  const { registers } = context;
  const byKind = (name: string, help: string) => new Counter({ name, help, labelNames: ['kind'], registers });
  const deletionsRequested = byKind(
    'decom_deletions_requested_total',
    'Resources whose deletion was requested (DeletionRequested), by kind.',
  );
  const deletionsCompleted = byKind(
    'decom_deletions_completed_total',
    'Resources hard-deleted through the gate (all adapters Finalized), by kind.',
  );
  const forceDeleted = byKind(
    'decom_deletions_force_deleted_total',
    'Resources removed by force delete (with their subresources), by kind.',
  );
  const forceOrphaned = byKind('decom_deletions_force_orphaned_total', 'Resources force-orphaned, by kind.');
  const deletionBudgetChecks = new Counter({
    name: 'decom_deletion_budget_checks_total',
    help: 'Top-level DELETEs checked against a deletion budget (limits.deletions), by kind and outcome: allowed, refused (429), overridden (an administrator with a reason).',
    labelNames: ['kind', 'outcome'],
    registers,
  });
  const byKindAndBudget = (name: string, help: string) => new Gauge({ name, help, labelNames: ['kind', 'budget'], registers });
  const deletionBudgetUsed = byKindAndBudget(
    'decom_deletion_budget_used',
    'Deletion budget use seen by the last check of a kind, for the tenant checked: in_flight (top-level deletions still Finalizing) or per_hour (requested in the last hour).',
  );
  const deletionBudgetLimit = byKindAndBudget(
    'decom_deletion_budget_limit',
    'The configured deletion budget of a kind (limits.deletions): in_flight or per_hour; per tenant.',
  );
  const deletionDuration = secondsHistogram(
    context,
    'decom_deletion_duration_seconds',
    'Time from deleted_time to hard delete (gate or force), in seconds, by kind.',
    ['kind'],
    DELETION_DURATION_BUCKETS,
  );
  scrapedGauge(context, {
    name: 'decom_resources_finalizing',
    help: 'Resources with deleted_time set that are not hard-deleted yet, by kind (computed at scrape).',
    label: 'kind',
    source: finalizing,
    series: (rows) => {
      const counts = new Map<string, number>();
      for (const row of rows) counts.set(row.kind, (counts.get(row.kind) ?? 0) + 1);
      return counts;
    },
  });
  return {
    deletionsRequested,
    deletionsCompleted,
    forceDeleted,
    forceOrphaned,
    deletionBudgetChecks,
    deletionBudgetUsed,
    deletionBudgetLimit,
    deletionDuration,
  };
}
