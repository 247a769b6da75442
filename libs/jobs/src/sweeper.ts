/**
 * The Sentinel-equivalent safety net (HyperFleet: hyperfleet-sentinel docs/config.md): a Sentinel-style sweep only
 * recovers what was lost. Every `intervalMs` it reads every resource as the API lists it and evaluates its kind's
 * Sentinel `message_decision` rule (sentinel.yaml; Sentinel's default: not Reconciled for 10 s, Reconciled for 30 m,
 * new, or a generation not yet reconciled). For each resource the rule picks it enqueues an adapter run per required
 * adapter and, when it is being deleted, a hard-delete check.
 *
 * Recovery sweeps skip the rule and re-dispatch every resource with pending work (not Reconciled, a
 * generation not reconciled yet, or being deleted): at start (the in-process queue forgets its jobs on a
 * crash) and whenever the queue's epoch changed (Redis flushed or restarted without persistence).
 * Beyond Sentinel: a resource being deleted whose `Reconciled` is True passed its hard-delete gate but
 * still exists, so its hard-delete job was lost; every sweep re-checks it.
 * Job ids carry the sweep's time bucket: one sweep dispatches once, also when several API processes sweep.
 * A HyperFleet Sentinel file's `resource_selector` restricts a kind's rule sweeps to matching resources
 * (recovery sweeps still see every resource: nobody else would), its `poll_interval` sets how often the
 * kind's rule sweeps (and its bucket), and its `message_data` shapes the event data of the runs.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers/promises';
import { deletionAdaptersToRun, type DispatchDecision, type KindRegistry, type PropagationPolicy } from '@decom/domain';
import type { ReconcileEventData } from './job-names.js';
import { enqueueAdapterRun, enqueueHardDeleteCheck } from './job-dispatch.js';
import type { JobQueue } from './job-queue.port.js';
import type { DecisionResource } from './sentinel/message-decision.js';
import type { CompiledMessageData } from './sentinel/message-data.js';
import type { SentinelRules } from './sentinel/sentinel-config.loader.js';

/** A resource as the API lists it (ResourceQueries' JSON); the fields the sweep reads. */
export interface SweptResource extends DecisionResource {
  readonly href: string;
  /** With `id`, the walk's keyset (SweepSource). */
  readonly created_time: string;
  readonly deleted_time?: string;
  readonly owner_references?: { readonly id: string; readonly kind: string; readonly href: string };
  readonly labels?: Readonly<Record<string, string>>;
  /** Once deleting. */
  readonly deletion_propagation?: PropagationPolicy;
  /** Once deleting: the adapters frozen at DeletionRequested. */
  readonly deletion_required_adapters?: readonly string[];
  /** Once deleting: the stored dispatch decision (read through `dispatchOf`). */
  readonly deletion_dispatch?: DispatchDecision;
}

/**
 * Keyset pages of resources of one kind in (created_time, id) order, oldest first (ResourceQueries.pageAfter
 * fits): up to `size` resources strictly after `after`, from the start when absent.
 */
export interface SweepSource {
  pageAfter(options: { kind: string; size: number; after?: { created_time: string; id: string } }): Promise<readonly SweptResource[]>;
}

export interface SweeperOptions {
  readonly intervalMs: number;
  /**
   * Resources read and decided per batch (default 100). Between batches the sweep yields to the event loop
   * (`setImmediate`): the embedded read model is synchronous SQLite on the event loop, so one batch is the
   * longest a sweep holds it (≤ 50 ms at any number of resources).
   */
  readonly pageSize?: number;
}

export type SweepMode = 'rule' | 'recovery';

/** Resources per sweep batch: presenting and deciding 100 takes a few milliseconds on a busy core. */
const DEFAULT_BATCH = 100;
/** Longest a sweep runs without yielding to the event loop, in milliseconds (besides one page read). */
const SLICE_MS = 10;

export class Sweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private lastEpoch?: string;
  /** When each kind's rule last swept (poll_interval). */
  private readonly lastRuleSweep = new Map<string, number>();

  constructor(
    private readonly kinds: KindRegistry,
    private readonly queue: JobQueue,
    private readonly source: SweepSource,
    private readonly rules: SentinelRules,
    private readonly options: SweeperOptions,
    private readonly clock: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly isDispatchable: (adapter: string) => boolean = () => true,
    /** Called after each sweep that completed (the engine logs a recovery after failed sweeps). */
    private readonly onSwept: () => void = () => undefined,
  ) {}

  /**
   * One sweep. Without `mode`, a recovery sweep when the queue's epoch changed since the last sweep (or
   * on the first), else a rule sweep. Returns how many jobs were enqueued (deduplicated ones not counted).
   */
  async sweepOnce(mode?: SweepMode): Promise<number> {
    const epoch = await this.queue.epoch();
    const effective = mode ?? (epoch !== this.lastEpoch ? 'recovery' : 'rule');
    this.lastEpoch = epoch;
    const now = this.clock();
    let enqueued = 0;
    for (const kind of this.kinds.descriptors) {
      const rule = this.rules.forPlural(kind.plural);
      const options = this.rules.optionsFor(kind.plural);
      const period = effective === 'rule' ? (options.pollIntervalMs ?? this.options.intervalMs) : this.options.intervalMs;
      if (effective === 'rule' && mode === undefined && options.pollIntervalMs !== undefined) {
        const last = this.lastRuleSweep.get(kind.plural);
        if (last !== undefined && now - last < options.pollIntervalMs) continue;
      }
      if (effective === 'rule') this.lastRuleSweep.set(kind.plural, now);
      const bucket = `${effective === 'recovery' ? 'recovery' : 'sweep'}-${Math.floor(now / period)}`;
      const adapters = kind.required_adapters.filter((a) => this.isDispatchable(a));
      for await (const resource of this.resources(kind.kind)) {
        if (effective === 'rule' && !matchesSelector(resource, options.selector)) continue;
        let dispatch: boolean;
        try {
          dispatch = effective === 'recovery' ? hasPendingWork(resource) : rule.decide(resource, new Date(now));
        } catch (error) {
          this.onError(error);
          continue;
        }
        // A held deletion (Foreground dependents, InUse, cycle) gets no adapter run; a deletion runs what it still needs.
        const own = resource.deleted_time ? deletionAdaptersToRun(resource, adapters).filter((a) => this.isDispatchable(a)) : adapters;
        if (dispatch && own.length > 0) enqueued += await this.dispatchAdapters(resource, own, bucket, now, options.messageData);
        if (resource.deleted_time && (dispatch || isReconciled(resource))) enqueued += await this.checkHardDelete(resource, bucket);
      }
    }
    return enqueued;
  }

  start(): void {
    // A kind whose Sentinel file polls faster than the sweep interval gets its own pace.
    const polls = this.kinds.descriptors.map((k) => this.rules.optionsFor(k.plural).pollIntervalMs ?? this.options.intervalMs);
    const tick = Math.max(100, Math.min(this.options.intervalMs, ...polls));
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweepOnce().then(
        (enqueued) => (this.onSwept(), enqueued),
        (error: unknown) => {
          this.onError(error);
          return 0;
        },
      );
      void this.running.finally(() => (this.running = undefined));
    }, tick);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /**
   * Every resource of `kind`, by keyset in small batches (no OFFSET: a page costs the same at any depth),
   * yielding to the event loop before each next batch. Resources created during the walk sort after the
   * cursor and are seen; none is seen twice.
   */
  private async *resources(kind: string): AsyncGenerator<SweptResource> {
    const size = this.options.pageSize ?? DEFAULT_BATCH;
    let after: { created_time: string; id: string } | undefined;
    for (;;) {
      const items = await this.source.pageAfter({ kind, size, ...(after ? { after } : {}) });
      let sliceStart = performance.now();
      for (const item of items) {
        yield item;
        // Deciding and enqueuing run between two `next()`s: a slow batch (a busy core) yields mid-way too.
        if (performance.now() - sliceStart > SLICE_MS) {
          await setImmediate();
          sliceStart = performance.now();
        }
      }
      if (items.length < size) return;
      const last = items[items.length - 1]!;
      after = { created_time: last.created_time, id: last.id };
      await setImmediate();
    }
  }

  private async dispatchAdapters(
    resource: SweptResource,
    adapters: readonly string[],
    bucket: string,
    now: number,
    messageData?: CompiledMessageData,
  ): Promise<number> {
    // Sentinel's message_data is the event data as written; the job is still keyed by the resource.
    const data = messageData
      ? (messageData.shape(resource as unknown as Record<string, unknown>, new Date(now)) as unknown as ReconcileEventData)
      : {
          id: resource.id,
          kind: resource.kind,
          href: resource.href,
          generation: resource.generation,
          ...(resource.owner_references ? { owner_references: resource.owner_references } : {}),
        };
    let enqueued = 0;
    for (const adapter of adapters) {
      if (await enqueueAdapterRun(this.queue, adapter, data, new Date(now).toISOString(), bucket, resource)) enqueued++;
    }
    return enqueued;
  }

  private async checkHardDelete(resource: SweptResource, bucket: string): Promise<number> {
    return (await enqueueHardDeleteCheck(this.queue, resource.kind, resource.id, bucket)) ? 1 : 0;
  }
}

function matchesSelector(resource: SweptResource, selector: readonly { label: string; value: string }[]): boolean {
  return selector.every(({ label, value }) => resource.labels?.[label] === value);
}

function reconciledCondition(resource: SweptResource): { status?: string; observed_generation?: number } | undefined {
  return resource.status.conditions.find((c) => c.type === 'Reconciled') as { status?: string; observed_generation?: number } | undefined;
}

function isReconciled(resource: SweptResource): boolean {
  return reconciledCondition(resource)?.status === 'True';
}

/** Work may be pending: being deleted, not Reconciled, or a generation the adapters have not reconciled. */
export function hasPendingWork(resource: SweptResource): boolean {
  const reconciled = reconciledCondition(resource);
  return Boolean(resource.deleted_time) || reconciled?.status !== 'True' || (reconciled.observed_generation ?? 0) < resource.generation;
}
