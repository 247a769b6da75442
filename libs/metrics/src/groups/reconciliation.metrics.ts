/**
 * HyperFleet's reconciliation metrics: Reconciled→False transitions, and at scrape the resources pending
 * reconciliation, those stuck longer than the threshold, and the longest stuck age (seconds).
 */
import { Counter, Gauge } from 'prom-client';
import type { ScrapeContext } from './scrape-context.js';

/** Ages in seconds of pending resources, grouped by HyperFleet's label set (`fresh`: read again, not the cached read). */
export type PendingGroups = (fresh?: boolean) => Promise<[Record<string, string>, number[]][]>;

export function reconciliationMetrics({ registers, guarded }: ScrapeContext, pendingGroups: PendingGroups, stuckThresholdSeconds: number) {
  const reconcileLabels = ['resource_type', 'is_delete', 'component', 'version'] as const;
  const reconciliationStarted = new Counter({
    name: 'hyperfleet_api_reconciliation_started_total',
    help: 'Reconciled→False transitions persisted (create, spec change, deletion request).',
    labelNames: reconcileLabels,
    registers,
  });
  /** A gauge of the pending groups: `value` of one group's ages, no series where it is undefined. */
  const pendingGauge = (name: string, help: string, value: (ages: number[]) => number | undefined, fresh = false) =>
    new Gauge({
      name,
      help,
      labelNames: reconcileLabels,
      registers,
      async collect() {
        const groups = await guarded(name, () => pendingGroups(fresh));
        if (!groups) return;
        this.reset();
        for (const [labels, ages] of groups) {
          const v = value(ages);
          if (v !== undefined) this.set(labels, v);
        }
      },
    });
  const stuckAges = (ages: number[]) => ages.filter((age) => age > stuckThresholdSeconds);
  // Registered first, so its collect starts first in a scrape: it reads afresh, the two stuck gauges reuse it.
  pendingGauge(
    'hyperfleet_api_resource_pending_reconciliation',
    'Resources with Reconciled=False (or deleting), computed at scrape; series absent at zero.',
    (ages) => ages.length,
    true,
  );
  pendingGauge(
    'hyperfleet_api_resource_pending_reconciliation_stuck',
    'Pending resources older than the stuck threshold (DECOM_STUCK_THRESHOLD_SECONDS, default 600).',
    (ages) => stuckAges(ages).length || undefined,
  );
  pendingGauge(
    'hyperfleet_api_resource_pending_reconciliation_stuck_duration_seconds',
    'Longest time a stuck resource has been pending, in seconds; series absent when none is stuck.',
    (ages) => {
      const stuck = stuckAges(ages);
      return stuck.length > 0 ? Math.max(...stuck) : undefined;
    },
  );
  return { reconciliationStarted };
}
