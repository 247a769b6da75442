/**
 * Every Prometheus metric Decom exports, on one `prom-client` registry handed in by the composition root
 * (no module-level default registry, so tests and several engines in one process never share series).
 *
 * - HyperFleet's API metrics with their exact names, labels and buckets (hyperfleet-api docs/metrics.md), so
 *   HyperFleet dashboards and alerts work unchanged.
 * - Decom's deletion metrics (`decom_*`, seed 000 §Observability): deletions by outcome, `deleted_time` →
 *   hard delete, Finalizing, adapter runs, queues, lag, event-store appends. The leak scan registers its own
 *   `decom_leaked_objects` gauge on the same registry (apps/api/src/process/leak-work.ts).
 *
 * Scrape-time gauges (pending reconciliation, Finalizing, queue depth, lag) read their sources in
 * `collect()`; sources are attached with `watch*` once the engine built them. Units: seconds, counts.
 * A source that needs a dependency (PostgreSQL, SQLite, Redis) is read under a bound (`collectorTimeoutMs`)
 * and at most once at a time: when it fails or does not answer, its gauge keeps its last values, the scrape
 * still answers with every other metric, and `decom_scrape_collector_errors_total{collector}` counts it.
 * `decom_dependency_up` is fed from the same cached probe results as `/readyz` (`watchDependencies`).
 * docs/operations.md lists every metric with PromQL examples.
 */
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { adapterMetrics } from './groups/adapter.metrics.js';
import { deletionMetrics } from './groups/deletion.metrics.js';
import { eventLogMetrics, type LagSource } from './groups/event-log.metrics.js';
import { httpMetrics } from './groups/http.metrics.js';
import { queueMetrics, type QueueDepth, type QueueWorkers } from './groups/queue.metrics.js';
import { reconciliationMetrics } from './groups/reconciliation.metrics.js';
import type { ScrapeContext } from './groups/scrape-context.js';
import { scrapeHealthMetrics, type DependencyState } from './groups/scrape-health.metrics.js';

export interface BuildInfo {
  /** HyperFleet's `component` label: `api` (API roles) or `worker` (`decom worker`). */
  readonly component: string;
  readonly version: string;
  readonly commit: string;
}

/** A resource whose `Reconciled` is False or that is deleting (HyperFleet's "pending reconciliation"). */
export interface PendingResource {
  readonly kind: string;
  readonly deleting: boolean;
  /** Epoch ms since when it is pending (Reconciled's `last_updated_time`, or `deleted_time` while deleting). */
  readonly sinceMs: number;
}

export type AdapterOperation = 'apply' | 'delete' | 'orphan';
export type AdapterOutcome = 'success' | 'in_progress' | 'transient_error' | 'terminal_error' | 'gone';

/** Default bound of one collector's read at scrape time, ms: the whole scrape stays well under 1 s. */
export const COLLECTOR_TIMEOUT_MS = 500;

/** How many hard-deleted resource ids the deletions-in-progress gauge remembers (see `resourceGone`). */
const GONE_REMEMBERED = 10_000;
/** Distinct HTTP request series whose labels objects are kept (observeRequest). */
const MAX_REQUEST_SERIES = 1_000;

export class DecomMetrics {
  private readonly base: { component: string; version: string };
  /** observeRequest's labels, per `method code path`. */
  private readonly requestLabels = new Map<string, Readonly<Record<string, string>>>();
  private pendingSource?: () => Promise<readonly PendingResource[]>;
  private finalizingSource?: () => Promise<readonly { kind: string }[]>;
  private queueSource?: () => Promise<readonly QueueDepth[]>;
  private queueWorkersSource?: () => Promise<readonly QueueWorkers[]>;
  private readonly lagSources: LagSource[] = [];
  private kubeWatchSource?: () => readonly { name: string; state: string }[];
  private dependencySource?: () => readonly DependencyState[];
  /** Reads still running, by collector (and source): a source that hangs is not asked again meanwhile. */
  private readonly reading = new Map<string, Promise<unknown>>();
  private readonly deletionsInProgress = new Map<string, Set<string>>();
  /** Recently hard-deleted resources (insertion order, at most GONE_REMEMBERED): a late run's report must not count them again. */
  private readonly gone = new Set<string>();

  readonly requests: Counter<'component' | 'version' | 'method' | 'path' | 'code'>;
  readonly requestDuration: Histogram<'component' | 'version' | 'method' | 'path' | 'code'>;
  readonly reconciliationStarted: Counter<'resource_type' | 'is_delete' | 'component' | 'version'>;
  readonly deletionsRequested: Counter<'kind'>;
  readonly deletionsCompleted: Counter<'kind'>;
  readonly forceDeleted: Counter<'kind'>;
  readonly forceOrphaned: Counter<'kind'>;
  /** DELETEs checked against a deletion budget, by kind and outcome (`allowed`, `refused`, `overridden`). */
  readonly deletionBudgetChecks: Counter<'kind' | 'outcome'>;
  /** At the last check of a kind: the budget's use (`in_flight`, `per_hour`) for the tenant checked. */
  readonly deletionBudgetUsed: Gauge<'kind' | 'budget'>;
  /** The configured bound of each kind's budget (`in_flight`, `per_hour`), set at its first check. */
  readonly deletionBudgetLimit: Gauge<'kind' | 'budget'>;
  readonly deletionDuration: Histogram<'kind'>;
  readonly adapterRuns: Counter<'adapter' | 'operation' | 'outcome'>;
  readonly adapterRunDuration: Histogram<'adapter' | 'operation' | 'outcome'>;
  readonly jobRetries: Counter<'queue'>;
  readonly deadLettered: Counter<'queue'>;
  /** Dead letters removed because their work was done since (dead-letter-pruner.ts), by queue and reason. */
  readonly deadLettersPruned: Counter<'queue' | 'reason'>;
  readonly appendDuration: Histogram<string>;
  readonly watchTriggeredRuns: Counter<'adapter'>;
  /** Scrapes in which a collector could not read its source (it served its last value), by collector (metric name). */
  readonly collectorErrors: Counter<'collector'>;
  /** When a collector last read its source successfully, epoch seconds, by collector. */
  readonly collectorLastSuccess: Gauge<'collector'>;

  /**
   * @param registry where every metric registers (a fresh `new Registry()` per engine).
   * @param stuckThresholdSeconds pending longer than this counts as stuck (default 600, as in HyperFleet).
   * @param now epoch ms clock (tests).
   * @param collectorTimeoutMs bound of one source read at scrape time (default `COLLECTOR_TIMEOUT_MS`).
   */
  constructor(
    readonly registry: Registry,
    info: BuildInfo,
    stuckThresholdSeconds = 600,
    private readonly now: () => number = Date.now,
    private readonly collectorTimeoutMs = COLLECTOR_TIMEOUT_MS,
  ) {
    this.base = { component: info.component, version: info.version };
    const scrape: ScrapeContext = { registers: [registry], guarded: (collector, read, key) => this.guarded(collector, read, key) };
    // Registration order is the exposition order; the pending-reconciliation gauges' first reads afresh.
    ({ collectorErrors: this.collectorErrors, collectorLastSuccess: this.collectorLastSuccess } = scrapeHealthMetrics(
      scrape,
      () => this.dependencySource?.() ?? [],
    ));
    ({ requests: this.requests, requestDuration: this.requestDuration } = httpMetrics(scrape, this.base, info.commit));
    ({ reconciliationStarted: this.reconciliationStarted } = reconciliationMetrics(
      scrape,
      (fresh) => this.pendingGroups(fresh),
      stuckThresholdSeconds,
    ));
    ({
      deletionsRequested: this.deletionsRequested,
      deletionsCompleted: this.deletionsCompleted,
      forceDeleted: this.forceDeleted,
      forceOrphaned: this.forceOrphaned,
      deletionBudgetChecks: this.deletionBudgetChecks,
      deletionBudgetUsed: this.deletionBudgetUsed,
      deletionBudgetLimit: this.deletionBudgetLimit,
      deletionDuration: this.deletionDuration,
    } = deletionMetrics(scrape, () => this.finalizingSource));
    ({
      adapterRuns: this.adapterRuns,
      adapterRunDuration: this.adapterRunDuration,
      watchTriggeredRuns: this.watchTriggeredRuns,
    } = adapterMetrics(scrape, this.deletionsInProgress, () => this.kubeWatchSource?.() ?? []));
    ({
      jobRetries: this.jobRetries,
      deadLettered: this.deadLettered,
      deadLettersPruned: this.deadLettersPruned,
    } = queueMetrics(
      scrape,
      () => this.queueSource,
      () => this.queueWorkersSource,
    ));
    ({ appendDuration: this.appendDuration } = eventLogMetrics(scrape, this.lagSources));
  }

  /** One answered HTTP request; `path` is the route with ids replaced by `-`. */
  observeRequest(method: string, path: string, code: number, seconds: number): void {
    // One labels object per series, reused (this runs on every request); series are bounded
    // (routes × methods × codes), the cap only guards misuse.
    const key = `${method} ${code} ${path}`;
    let labels = this.requestLabels.get(key);
    if (!labels) {
      if (this.requestLabels.size >= MAX_REQUEST_SERIES) this.requestLabels.clear();
      labels = { ...this.base, method, path, code: String(code) };
      this.requestLabels.set(key, labels);
    }
    this.requests.inc(labels);
    this.requestDuration.observe(labels, seconds);
  }

  /** A Reconciled→False transition was persisted for a resource of `kind`. */
  reconciliationStartedFor(kind: string, isDelete: boolean): void {
    this.reconciliationStarted.inc({ resource_type: kind, is_delete: String(isDelete), ...this.base });
  }

  /** An adapter run ended; `resourceId` tracks the deletions-in-progress gauge. */
  observeAdapterRun(run: {
    adapter: string;
    resourceId: string;
    operation: AdapterOperation;
    outcome: AdapterOutcome;
    seconds: number;
  }): void {
    const labels = { adapter: run.adapter, operation: run.operation, outcome: run.outcome };
    this.adapterRuns.inc(labels);
    this.adapterRunDuration.observe(labels, run.seconds);
    const ids = this.deletionsInProgress.get(run.adapter) ?? new Set<string>();
    this.deletionsInProgress.set(run.adapter, ids);
    if (
      run.operation === 'delete' &&
      (run.outcome === 'in_progress' || run.outcome === 'transient_error') &&
      !this.gone.has(run.resourceId)
    )
      ids.add(run.resourceId);
    else ids.delete(run.resourceId);
  }

  /**
   * A resource was hard-deleted (by its gate or a force delete): it has no deletion in progress any more,
   * whatever its last adapter run said (a run cut short by a force delete never reports success).
   */
  resourceGone(resourceId: string): void {
    for (const ids of this.deletionsInProgress.values()) ids.delete(resourceId);
    this.gone.add(resourceId);
    // Bounded memory: a run finishing this long after its resource went is not worth remembering for.
    if (this.gone.size > GONE_REMEMBERED) this.gone.delete(this.gone.values().next().value!);
  }

  watchPending(source: () => Promise<readonly PendingResource[]>): void {
    this.pendingSource = source;
  }

  watchFinalizing(source: () => Promise<readonly { kind: string }[]>): void {
    this.finalizingSource = source;
  }

  watchQueues(source: () => Promise<readonly QueueDepth[]>): void {
    this.queueSource = source;
  }

  /** The consumers per queue (`decom_queue_workers`), including 0 for a queue nothing consumes. */
  watchQueueWorkers(source: () => Promise<readonly QueueWorkers[]>): void {
    this.queueWorkersSource = source;
  }

  /** The adapters' Kubernetes watches (`decom_kube_watch_up`). */
  watchKubeWatches(source: () => readonly { name: string; state: string }[]): void {
    this.kubeWatchSource = source;
  }

  /** The dependencies' last probe results (`decom_dependency_up`); read at scrape, never waits. */
  watchDependencies(source: () => readonly DependencyState[]): void {
    this.dependencySource = source;
  }

  /**
   * Reads a collector's source within `collectorTimeoutMs`; a read still running from an earlier scrape is
   * awaited again rather than started twice. Undefined when it fails or times out: the caller keeps its
   * last values, and the failure is counted under `collector`. `key` tells apart sources of one collector.
   */
  private async guarded<T>(collector: string, read: () => Promise<T>, key = collector): Promise<T | undefined> {
    let call = this.reading.get(key) as Promise<T> | undefined;
    if (!call) {
      call = Promise.resolve().then(read);
      this.reading.set(key, call);
      const done = () => void this.reading.delete(key);
      call.then(done, done);
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = Symbol('timedOut');
    try {
      const value = await Promise.race([
        call,
        new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), this.collectorTimeoutMs))),
      ]);
      if (value === timedOut) throw new Error(`no answer within ${this.collectorTimeoutMs} ms`);
      this.collectorLastSuccess.set({ collector }, Math.floor(this.now() / 1000));
      return value;
    } catch {
      this.collectorErrors.inc({ collector });
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** `lag` resolves to head position minus the subscriber's checkpoint. */
  watchLag(name: string, lag: () => Promise<number>): void {
    this.lagSources.push({ name, lag });
  }

  /** Ages in seconds of pending resources, grouped by HyperFleet's label set; one read per scrape. */
  private pendingCache?: { at: number; groups: Promise<[Record<string, string>, number[]][]> };
  private pendingGroups(fresh = false): Promise<[Record<string, string>, number[]][]> {
    const at = this.now();
    if (!fresh && this.pendingCache && at - this.pendingCache.at < 1_000) return this.pendingCache.groups;
    const groups = (async () => {
      const byKey = new Map<string, [Record<string, string>, number[]]>();
      for (const resource of this.pendingSource ? await this.pendingSource() : []) {
        const labels = { resource_type: resource.kind, is_delete: String(resource.deleting), ...this.base };
        const key = `${resource.kind}|${resource.deleting}`;
        const entry: [Record<string, string>, number[]] = byKey.get(key) ?? [labels, []];
        entry[1].push(Math.max(0, (at - resource.sinceMs) / 1000));
        byKey.set(key, entry);
      }
      return [...byKey.values()];
    })();
    this.pendingCache = { at, groups };
    return groups;
  }
}
