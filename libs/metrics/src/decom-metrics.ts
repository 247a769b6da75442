/**
 * Every Prometheus metric Decom exports, on one `prom-client` registry handed in by the composition root
 * (no module-level default registry, so tests and several engines in one process never share series).
 *
 * - HyperFleet's API metrics with their exact names, labels and buckets (hyperfleet-api docs/metrics.md), so
 *   HyperFleet dashboards and alerts work unchanged.
 * - Decom's deletion metrics (`decom_*`, seed 000 §Observability): deletions by outcome, `deleted_time` →
 *   hard delete, Finalizing, adapter runs, queues, lag, event-store appends. The leak scan registers its own
 *   `decom_leaked_objects` gauge on the same registry (apps/cli/src/engine/leak-work.ts).
 *
 * Scrape-time gauges (pending reconciliation, Finalizing, queue depth, lag) read their sources in
 * `collect()`; sources are attached with `watch*` once the engine built them. Units: seconds, counts.
 * A source that needs a dependency (PostgreSQL, SQLite, Redis) is read under a bound (`collectorTimeoutMs`)
 * and at most once at a time: when it fails or does not answer, its gauge keeps its last values, the scrape
 * still answers with every other metric, and `decom_scrape_collector_errors_total{collector}` counts it.
 * `decom_dependency_up` is fed from the same cached probe results as `/readyz` (`watchDependencies`).
 * docs/operations.md lists every metric with PromQL examples.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** HyperFleet's request-duration buckets, in seconds. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** `deleted_time` → hard delete, in seconds: 1 s to 1 day. */
export const DELETION_DURATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400];
/** One adapter run, in seconds. */
export const ADAPTER_RUN_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** One event-store append, in seconds. */
export const APPEND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

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

export interface QueueDepth {
  readonly queue: string;
  readonly waiting: number;
  readonly delayed: number;
  readonly active: number;
  /** Dead letters (failed set). */
  readonly failed: number;
}

/** How many processes consume one queue (`decom_queue_workers`); 0 for a known queue nothing consumes. */
export interface QueueWorkers {
  readonly queue: string;
  readonly workers: number;
}

export type AdapterOperation = 'apply' | 'delete' | 'orphan';
export type AdapterOutcome = 'success' | 'in_progress' | 'transient_error' | 'terminal_error' | 'gone';

/** Default bound of one collector's read at scrape time, ms: the whole scrape stays well under 1 s. */
export const COLLECTOR_TIMEOUT_MS = 500;

/** A dependency's last probed state, for `decom_dependency_up` (a `DependencyProbes` result fits). */
export interface DependencyState {
  readonly dependency: string;
  readonly status: 'up' | 'down' | 'unknown';
}

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
  private lagSources: { name: string; lag: () => Promise<number> }[] = [];
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
    private readonly stuckThresholdSeconds = 600,
    private readonly now: () => number = Date.now,
    private readonly collectorTimeoutMs = COLLECTOR_TIMEOUT_MS,
  ) {
    this.base = { component: info.component, version: info.version };
    const registers = [registry];
    const self = this;
    this.collectorErrors = new Counter({
      name: 'decom_scrape_collector_errors_total',
      help: 'Scrapes in which a collector could not read its source (a dependency down) and served its last value, by collector (metric name).',
      labelNames: ['collector'],
      registers,
    });
    this.collectorLastSuccess = new Gauge({
      name: 'decom_scrape_collector_last_success_timestamp_seconds',
      help: 'When a scrape-time collector last read its source successfully (epoch seconds), by collector (metric name): its values are as old as this.',
      labelNames: ['collector'],
      registers,
    });
    new Gauge({
      name: 'decom_dependency_up',
      help: 'Whether a dependency of this process answered its last background probe (1) or not (0), by dependency (postgres, sqlite, eventstoredb, redis, kubernetes, jwks): the same results /readyz serves.',
      labelNames: ['dependency'],
      registers,
      collect() {
        this.reset();
        for (const state of self.dependencySource?.() ?? []) this.set({ dependency: state.dependency }, state.status === 'up' ? 1 : 0);
      },
    });
    const build = new Gauge({
      name: 'hyperfleet_api_build_info',
      help: 'Build information; always 1 (go_version carries the Node.js version: Decom runs on Node.js).',
      labelNames: ['component', 'version', 'commit', 'go_version'],
      registers,
    });
    build.set({ ...this.base, commit: info.commit, go_version: process.version }, 1);
    const httpLabels = ['component', 'version', 'method', 'path', 'code'] as const;
    this.requests = new Counter({ name: 'hyperfleet_api_requests_total', help: 'HTTP requests answered, by method, route (ids replaced by -) and status code.', labelNames: httpLabels, registers });
    this.requestDuration = new Histogram({
      name: 'hyperfleet_api_request_duration_seconds',
      help: 'HTTP request duration in seconds, by method, route (ids replaced by -) and status code.',
      labelNames: httpLabels,
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    });
    const reconcileLabels = ['resource_type', 'is_delete', 'component', 'version'] as const;
    this.reconciliationStarted = new Counter({
      name: 'hyperfleet_api_reconciliation_started_total',
      help: 'Reconciled→False transitions persisted (create, spec change, deletion request).',
      labelNames: reconcileLabels,
      registers,
    });
    new Gauge({
      name: 'hyperfleet_api_resource_pending_reconciliation',
      help: 'Resources with Reconciled=False (or deleting), computed at scrape; series absent at zero.',
      labelNames: reconcileLabels,
      registers,
      async collect() {
        // Registered first, so its collect starts first in a scrape: it reads afresh, the two stuck gauges reuse it.
        const groups = await self.guarded('hyperfleet_api_resource_pending_reconciliation', () => self.pendingGroups(true));
        if (!groups) return;
        this.reset();
        for (const [labels, group] of groups) this.set(labels, group.length);
      },
    });
    new Gauge({
      name: 'hyperfleet_api_resource_pending_reconciliation_stuck',
      help: 'Pending resources older than the stuck threshold (DECOM_STUCK_THRESHOLD_SECONDS, default 600).',
      labelNames: reconcileLabels,
      registers,
      async collect() {
        const groups = await self.guarded('hyperfleet_api_resource_pending_reconciliation_stuck', () => self.pendingGroups());
        if (!groups) return;
        this.reset();
        for (const [labels, group] of groups) {
          const stuck = group.filter((age) => age > self.stuckThresholdSeconds).length;
          if (stuck > 0) this.set(labels, stuck);
        }
      },
    });
    new Gauge({
      name: 'hyperfleet_api_resource_pending_reconciliation_stuck_duration_seconds',
      help: 'Longest time a stuck resource has been pending, in seconds; series absent when none is stuck.',
      labelNames: reconcileLabels,
      registers,
      async collect() {
        const groups = await self.guarded('hyperfleet_api_resource_pending_reconciliation_stuck_duration_seconds', () => self.pendingGroups());
        if (!groups) return;
        this.reset();
        for (const [labels, group] of groups) {
          const stuck = group.filter((age) => age > self.stuckThresholdSeconds);
          if (stuck.length > 0) this.set(labels, Math.max(...stuck));
        }
      },
    });

    this.deletionsRequested = new Counter({ name: 'decom_deletions_requested_total', help: 'Resources whose deletion was requested (DeletionRequested), by kind.', labelNames: ['kind'], registers });
    this.deletionsCompleted = new Counter({ name: 'decom_deletions_completed_total', help: 'Resources hard-deleted through the gate (all adapters Finalized), by kind.', labelNames: ['kind'], registers });
    this.forceDeleted = new Counter({ name: 'decom_deletions_force_deleted_total', help: 'Resources removed by force delete (with their subresources), by kind.', labelNames: ['kind'], registers });
    this.forceOrphaned = new Counter({ name: 'decom_deletions_force_orphaned_total', help: 'Resources force-orphaned, by kind.', labelNames: ['kind'], registers });
    this.deletionBudgetChecks = new Counter({
      name: 'decom_deletion_budget_checks_total',
      help: 'Top-level DELETEs checked against a deletion budget (limits.deletions), by kind and outcome: allowed, refused (429), overridden (an administrator with a reason).',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.deletionBudgetUsed = new Gauge({
      name: 'decom_deletion_budget_used',
      help: 'Deletion budget use seen by the last check of a kind, for the tenant checked: in_flight (top-level deletions still Finalizing) or per_hour (requested in the last hour).',
      labelNames: ['kind', 'budget'],
      registers,
    });
    this.deletionBudgetLimit = new Gauge({
      name: 'decom_deletion_budget_limit',
      help: 'The configured deletion budget of a kind (limits.deletions): in_flight or per_hour; per tenant.',
      labelNames: ['kind', 'budget'],
      registers,
    });
    this.deletionDuration = new Histogram({
      name: 'decom_deletion_duration_seconds',
      help: 'Time from deleted_time to hard delete (gate or force), in seconds, by kind.',
      labelNames: ['kind'],
      buckets: DELETION_DURATION_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'decom_resources_finalizing',
      help: 'Resources with deleted_time set that are not hard-deleted yet, by kind (computed at scrape).',
      labelNames: ['kind'],
      registers,
      async collect() {
        const source = self.finalizingSource;
        if (!source) return this.reset();
        const rows = await self.guarded('decom_resources_finalizing', source);
        if (!rows) return;
        this.reset();
        const counts = new Map<string, number>();
        for (const row of rows) counts.set(row.kind, (counts.get(row.kind) ?? 0) + 1);
        for (const [kind, count] of counts) this.set({ kind }, count);
      },
    });
    const adapterLabels = ['adapter', 'operation', 'outcome'] as const;
    this.adapterRuns = new Counter({ name: 'decom_adapter_runs_total', help: 'Adapter runs by adapter, operation (apply, delete, orphan) and outcome.', labelNames: adapterLabels, registers });
    this.adapterRunDuration = new Histogram({
      name: 'decom_adapter_run_duration_seconds',
      help: 'Duration of one adapter run (task config execution and progress check), in seconds.',
      labelNames: adapterLabels,
      buckets: ADAPTER_RUN_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'decom_adapter_deletions_in_progress',
      help: 'Resources an adapter is deleting whose cleanup is not confirmed yet (last run: delete, in progress).',
      labelNames: ['adapter'],
      registers,
      collect() {
        this.reset();
        for (const [adapter, ids] of self.deletionsInProgress) this.set({ adapter }, ids.size);
      },
    });
    const queueGauge = (name: string, help: string, pick: (d: QueueDepth) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['queue'],
        registers,
        async collect() {
          const source = self.queueSource;
          if (!source) return this.reset();
          // The queue may be unreachable (Redis down): this gauge keeps its last values (see `guarded`).
          const depths = await self.guarded(name, source);
          if (!depths) return;
          this.reset();
          for (const depth of depths) this.set({ queue: depth.queue }, pick(depth));
        },
      });
    queueGauge('decom_queue_depth', 'Jobs waiting or delayed, by queue (computed at scrape).', (d) => d.waiting + d.delayed);
    new Gauge({
      name: 'decom_queue_workers',
      help: 'Worker connections consuming each queue, in any process (0: nothing runs its jobs; computed at scrape).',
      labelNames: ['queue'],
      registers,
      async collect() {
        const source = self.queueWorkersSource;
        if (!source) return this.reset();
        const counts = await self.guarded('decom_queue_workers', source);
        if (!counts) return;
        this.reset();
        for (const count of counts) this.set({ queue: count.queue }, count.workers);
      },
    });
    queueGauge('decom_queue_active', 'Jobs running, by queue (computed at scrape).', (d) => d.active);
    queueGauge('decom_queue_dead_letters', 'Jobs in the dead-letter (failed) set, by queue (computed at scrape).', (d) => d.failed);
    this.jobRetries = new Counter({ name: 'decom_job_retries_total', help: 'Job tries after the first (retries), by queue.', labelNames: ['queue'], registers });
    this.deadLettered = new Counter({ name: 'decom_jobs_dead_lettered_total', help: 'Jobs that failed for good in this process (dead-lettered), by queue.', labelNames: ['queue'], registers });
    this.deadLettersPruned = new Counter({
      name: 'decom_dead_letters_pruned_total',
      help: 'Dead letters removed by this process because their work was done since (HardDeleted, Superseded, Reconciled), by queue and reason.',
      labelNames: ['queue', 'reason'],
      registers,
    });
    new Gauge({
      name: 'decom_subscription_lag_events',
      help: 'Events between the head of the log and a subscriber (projection, dispatch reactor), computed at scrape.',
      labelNames: ['subscriber'],
      registers,
      async collect() {
        // Not reset: a subscriber whose lag cannot be read now keeps its last value.
        await Promise.all(
          self.lagSources.map(async (source) => {
            const lag = await self.guarded('decom_subscription_lag_events', source.lag, source.name);
            if (lag !== undefined) this.set({ subscriber: source.name }, Math.max(0, lag));
          }),
        );
      },
    });
    this.appendDuration = new Histogram({ name: 'decom_event_store_append_duration_seconds', help: 'Latency of one event-store append, in seconds.', buckets: APPEND_BUCKETS, registers });
    new Gauge({
      name: 'decom_kube_watch_up',
      help: "1 while an adapter watch of Kubernetes objects is running, 0 while it retries, by watch (computed at scrape).",
      labelNames: ['watch'],
      registers,
      collect() {
        this.reset();
        for (const watch of self.kubeWatchSource?.() ?? []) this.set({ watch: watch.name }, watch.state === 'running' ? 1 : 0);
      },
    });
    this.watchTriggeredRuns = new Counter({
      name: 'decom_adapter_watch_triggered_runs_total',
      help: 'Adapter runs enqueued at once because a watch saw one of the resource\'s objects change (instead of waiting for the re-run backoff), by adapter.',
      labelNames: ['adapter'],
      registers,
    });
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
  observeAdapterRun(run: { adapter: string; resourceId: string; operation: AdapterOperation; outcome: AdapterOutcome; seconds: number }): void {
    const labels = { adapter: run.adapter, operation: run.operation, outcome: run.outcome };
    this.adapterRuns.inc(labels);
    this.adapterRunDuration.observe(labels, run.seconds);
    const ids = this.deletionsInProgress.get(run.adapter) ?? new Set<string>();
    this.deletionsInProgress.set(run.adapter, ids);
    if (run.operation === 'delete' && (run.outcome === 'in_progress' || run.outcome === 'transient_error') && !this.gone.has(run.resourceId)) ids.add(run.resourceId);
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
      const value = await Promise.race([call, new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), this.collectorTimeoutMs)))]);
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
