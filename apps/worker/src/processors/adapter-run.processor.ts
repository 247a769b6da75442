/**
 * `adapter-run.<adapter>` job → executor (which PUTs the status itself, over HTTP like any adapter) →
 * re-run with backoff while this adapter's work is still in progress.
 *
 * The payload is checked to be a Sentinel-shaped CloudEvent first (a malformed one is terminal). Failures
 * follow the taxonomy of adapter-failure.ts: transient → `RetryableError` (the queue retries with jittered
 * exponential backoff, bounded, then dead-letters); terminal → reported as status conditions when the
 * run did not report itself, then `TerminalError` (BullMQ `UnrecoverableError`: no retry).
 *
 * "An adapter report that shows work still in progress" is acted on here rather than in the
 * dispatch reactor: after the run the processor reads the stored report back, and only it knows how many
 * re-runs happened, which the backoff needs. The re-run is enqueued before the job completes, so it is as
 * durable as the job itself.
 *
 * With `triggers` (the process's watches of the objects its adapters manage), a change of one
 * of the resource's objects enqueues its next run at once (watch-triggers.ts); that run skips the wait
 * backoff but not a failure backoff, and the backoff re-run it overtook ends without running (stale:
 * `backoff_attempts`).
 */
import { RunReadCache, type ExecutionFence, type ExecutionResult, type FenceVerdict } from '@decom/adapter';
import { dispatchOf, type AdapterStatus, type DispatchView } from '@decom/domain';
import {
  ADAPTER_RUN_RETRY,
  RetryableError,
  TerminalError,
  adapterRunGroup,
  adapterRunJobId,
  adapterRunQueue,
  parseReconcileEvent,
  reconcileCloudEvent,
  nextRetryBackoff,
  retryBackoffGate,
  retryBackoffKey,
  type AdapterRunJob,
  type RetryBackoffState,
  type Job,
  type JobQueue,
  type ReconcileCloudEvent,
} from '@decom/jobs';
import { newTraceId, parseTraceparent, runInTrace, traceContextOf } from '@decom/tracing';
import type { HostedAdapter } from '../adapter-host.js';
import { classifyError, classifyExecution, type AdapterFailure } from './adapter-failure.js';
import { adapterProgress, type AdapterProgress } from './adapter-progress.js';
import type { RunEnd, WatchTriggers } from '../watch/watch-triggers.js';

export interface AdapterRunTiming {
  /** First re-run delay while work is in progress, in ms. */
  readonly baseDelayMs: number;
  /** Cap of the re-run delay, in ms. */
  readonly maxDelayMs: number;
  /**
   * Cap of the persistent backoff after failed runs, in ms (default 10 min): a dead target is
   * called less and less often, whatever triggers keep arriving.
   */
  readonly failureCapMs?: number;
}

/** Default cap of the persistent backoff after failed runs. */
export const FAILURE_BACKOFF_CAP_MS = 10 * 60_000;

export interface AdapterRunObserver {
  /** `seconds`: the run's duration (execution and progress check). */
  (run: {
    adapter: string;
    job: AdapterRunJob;
    result?: ExecutionResult;
    progress?: AdapterProgress;
    failure?: AdapterFailure;
    seconds?: number;
  }): void;
}

export interface AdapterRunProcessorOptions {
  readonly adapter: Pick<HostedAdapter, 'name' | 'executor' | 'api'>;
  readonly queue: JobQueue;
  readonly timing: AdapterRunTiming;
  /** Told about every run (metrics, logs); must not throw. */
  readonly observe?: AdapterRunObserver;
  readonly now?: () => Date;
  /** [0,1) source of the backoff's jitter. */
  readonly random?: () => number;
  /** Watch-triggered runs; without it, runs follow the backoff only. */
  readonly triggers?: WatchTriggers;
}

/** The resource as a run reads it first: what dispatch needs, its generation and whether it is deleting. */
type RunTarget = DispatchView & { generation: number; deleted_time?: string };

/** One run of one job: what its steps share. */
interface Run {
  readonly job: Job<AdapterRunJob>;
  readonly event: ReconcileCloudEvent;
  readonly observe: AdapterRunObserver;
  /** This resource and adapter's stored backoff when the run began (none stored, or the store did not answer). */
  readonly backoff?: RetryBackoffState;
}

/** How a run ends when it scheduled no re-run of its own. */
const ENDED: RunEnd = { kind: 'other' };

export class AdapterRunProcessor {
  private readonly adapter: AdapterRunProcessorOptions['adapter'];
  private readonly queue: JobQueue;
  private readonly timing: AdapterRunTiming;
  private readonly observe: AdapterRunObserver;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly triggers: WatchTriggers | undefined;

  constructor(options: AdapterRunProcessorOptions) {
    this.adapter = options.adapter;
    this.queue = options.queue;
    this.timing = options.timing;
    this.observe = options.observe ?? (() => undefined);
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.triggers = options.triggers;
  }

  register(concurrency = 4): void {
    this.queue.process<AdapterRunJob>(adapterRunQueue(this.adapter.name), (job) => this.handle(job), { concurrency });
  }

  /**
   * Runs in the job's trace (`trace_id`, else the event's `traceparent`, else a fresh one), so the
   * executor's API and Kubernetes calls carry it (`@decom/tracing`).
   * @throws RetryableError (transient) or TerminalError (terminal, already reported).
   */
  async handle(job: Job<AdapterRunJob>): Promise<void> {
    const traceId = job.data.trace_id ?? parseTraceparent(job.data.event?.traceparent)?.traceId ?? newTraceId();
    const started = performance.now();
    return runInTrace(traceContextOf(traceId), () =>
      this.run(job, (run) => this.observe({ ...run, seconds: (performance.now() - started) / 1000 })),
    );
  }

  private async run(job: Job<AdapterRunJob>, observe: AdapterRunObserver): Promise<void> {
    const event = parseReconcileEvent(job.data.event);
    const key = this.backoffKey(event);
    this.triggers?.begin(key, job.data.watch !== undefined);
    let end: RunEnd = ENDED;
    try {
      end = await this.runOnce(job, event, observe);
    } finally {
      this.triggers?.end(key, end);
    }
  }

  /**
   * Backoff gate → read the resource → execute → progress → re-run while in progress. Each step returns
   * undefined when the run ended there (observed, or failed: `fail` throws the queue's error).
   * @returns how the run ended, for the watch triggers: `wait` with the re-run it scheduled.
   */
  private async runOnce(job: Job<AdapterRunJob>, event: ReconcileCloudEvent, observe: AdapterRunObserver): Promise<RunEnd> {
    const read = await this.backoffState(event);
    const run: Run = { job, event, observe, ...(read.state && { backoff: read.state }) };
    if (read.known && this.overtaken(run)) return ENDED;
    if (await this.deferredByBackoff(run)) return ENDED;
    // One read cache per run: the resource read just below answers the executor's own GET of it
    // (its precondition), and the run's status PUT tells progress() what is stored (run-read-cache.ts).
    const api = new RunReadCache(this.adapter.api);
    const target = await this.readTarget(run, api);
    if (!target) return ENDED;
    const result = await this.execute(run, target, api);
    if (!result) return ENDED;
    const progress = await this.progressAfter(run, result, target, api);
    if (!progress) return ENDED;
    observe({ adapter: this.adapter.name, job: job.data, result, progress });
    if (progress.kind === 'done') {
      // Success (or gone, or superseded): the next trouble starts from the first delay again.
      await this.queue.retryBackoff?.clear(this.backoffKey(event)).catch(() => undefined);
      return ENDED;
    }
    return this.rerun(run, progress);
  }

  /**
   * A backoff re-run whose work a watch-triggered run did already (and scheduled its own re-run, or
   * finished). Not a run: nothing is observed (the metrics count runs).
   */
  private overtaken({ job, event, backoff }: Run): boolean {
    return (
      job.attempt === 1 && job.data.backoff_attempts !== undefined && isOvertaken(backoff, event.data.generation, job.data.backoff_attempts)
    );
  }

  /**
   * A new trigger (fact, sweep) while this resource and adapter back off waits for the backoff's time
   * instead of starting a fresh chain; re-runs and deferred triggers are already timed by it.
   * A watch trigger waits only for a failure backoff.
   * @returns true when the run was deferred (a later job does it).
   */
  private async deferredByBackoff(run: Run): Promise<boolean> {
    const { job, event, backoff } = run;
    const now = this.now().getTime();
    const fresh = job.attempt === 1 && job.data.rerun === 0 && !job.data.deferred && !job.data.watch;
    const gate = fresh
      ? retryBackoffGate(backoff, event.data.generation, now)
      : job.attempt === 1 && job.data.watch
        ? retryBackoffGate(backoff, event.data.generation, now, 'watch')
        : { kind: 'run' as const };
    if (gate.kind !== 'defer') return false;
    await this.defer(run, gate.untilMs, backoff!.attempts);
    return true;
  }

  /**
   * The resource to run on, as the API has it now. A run queued before a newer generation (e.g. a create
   * re-run overtaken by a DELETE) would act on the newer state it reads: that generation has its own job. A
   * held deletion (Foreground dependents, InUse, cycle) runs nothing; the dispatcher (or the sweeper)
   * dispatches it once released. @returns undefined when there is nothing to run (gone, superseded, held).
   */
  private async readTarget(run: Run, api: RunReadCache): Promise<RunTarget | undefined> {
    let target: RunTarget | undefined;
    try {
      target = await this.getOrUndefined<RunTarget>(run.event.data.href, api);
    } catch (error) {
      await this.fail(run, classifyError(error));
      return undefined;
    }
    if (!target) return undefined;
    const superseded = target.generation > run.event.data.generation;
    if (superseded || dispatchOf(target)?.action === 'hold') {
      const reason = superseded ? `superseded by generation ${target.generation}` : 'deletion held (DeletionBlocked)';
      run.observe({ adapter: this.adapter.name, job: run.job.data, progress: { kind: 'done', reason } });
      return undefined;
    }
    return target;
  }

  /**
   * The executor's run (it PUTs the status itself), fenced when the queue gives the job a fence.
   * @returns undefined when the run failed (backed off, reported) or lost its fence (the run that replaced it
   * does the work).
   */
  private async execute(run: Run, target: RunTarget, api: RunReadCache): Promise<ExecutionResult | undefined> {
    const { job, event, backoff } = run;
    const attempt = backoff && backoff.generation === event.data.generation ? backoff.attempts + 1 : 1;
    let result: ExecutionResult;
    try {
      const fence = job.fence && this.fence(job, event, target.deleted_time !== undefined);
      result = await this.adapter.executor.execute(
        { ...event.data },
        { ...(fence && { fence }), attempt, api, rememberReads: true, continueDeletes: true },
      );
    } catch (error) {
      await this.failAndBackOff(run, classifyError(error));
      return undefined;
    }
    if (result.fence?.lost !== undefined) {
      // Not a failure to retry or report: the run that replaced this one does the work.
      run.observe({
        adapter: this.adapter.name,
        job: job.data,
        result,
        progress: { kind: 'done', reason: `fence lost: ${result.fence.lost}` },
      });
      return undefined;
    }
    const failure = classifyExecution(result);
    if (failure) {
      await this.failAndBackOff(run, failure, result);
      return undefined;
    }
    return result;
  }

  /** `progress` after a run that executed; undefined when reading it failed (backed off, reported). */
  private async progressAfter(
    run: Run,
    result: ExecutionResult,
    target: RunTarget,
    api: RunReadCache,
  ): Promise<AdapterProgress | undefined> {
    try {
      return await this.progress(run.job.data, target, api);
    } catch (error) {
      await this.failAndBackOff(run, classifyError(error), result);
      return undefined;
    }
  }

  /** Enqueues the next run while work is in progress: at the backoff's time, else after `progress.requeueAfterMs`. */
  private async rerun(run: Run, progress: AdapterProgress & { kind: 'wait' }): Promise<RunEnd> {
    const { job, event } = run;
    const next = await this.backOff(event, run.backoff, 'wait');
    const delayMs = next ? Math.max(0, next.next_at_ms - this.now().getTime()) : progress.requeueAfterMs;
    const rerun = job.data.rerun + 1;
    const id = adapterRunJobId(this.adapter.name, event.data, `r-${rerun}`);
    // A re-run is a backoff re-run whatever triggered this run (a watch's trigger is not inherited).
    const { watch: _trigger, backoff_attempts: _previous, ...carried } = job.data;
    const again: AdapterRunJob = {
      ...carried,
      rerun,
      event: reconcileCloudEvent(event.data, id, this.now().toISOString()),
      ...(next && { backoff_attempts: next.attempts }),
    };
    await this.enqueueRun(event, id, again, delayMs);
    return { kind: 'wait', rerun: again };
  }

  /** The job `id` on this adapter's queue after `delayMs`, in the resource's group (one run at a time). */
  private async enqueueRun(event: ReconcileCloudEvent, id: string, job: AdapterRunJob, delayMs: number): Promise<void> {
    await this.queue.enqueue(adapterRunQueue(this.adapter.name), id, job, {
      delayMs,
      group: adapterRunGroup(this.adapter.name, event.data.id),
      ...ADAPTER_RUN_RETRY,
    });
  }

  /** A failed run counts towards the failure backoff, then fails (`fail`). */
  private async failAndBackOff(run: Run, failure: AdapterFailure, result?: ExecutionResult): Promise<void> {
    await this.backOff(run.event, run.backoff, 'failure', failure.unreachable);
    await this.fail(run, failure, result);
  }

  private backoffKey(event: ReconcileCloudEvent): string {
    return retryBackoffKey(this.adapter.name, event.data.kind, event.data.id);
  }

  /** `known`: the store answered (a missing state then means none is stored). */
  private async backoffState(event: ReconcileCloudEvent): Promise<{ state?: RetryBackoffState; known: boolean }> {
    const store = this.queue.retryBackoff;
    if (!store) return { known: false };
    try {
      const state = await store.get(this.backoffKey(event));
      return { ...(state && { state }), known: true };
    } catch {
      // The backoff is a brake, not a gate keeper: without it the run goes ahead.
      return { known: false };
    }
  }

  /**
   * Counts one more unfinished run of this resource and adapter (persistent): capped at
   * `failureCapMs` after a failure, at the re-run cap while work is merely in progress. `unreachable`: the
   * dependency a failed run could not reach (its recovery re-runs the work: backoff-recovery.ts).
   */
  private async backOff(
    event: ReconcileCloudEvent,
    previous: RetryBackoffState | undefined,
    why: 'failure' | 'wait',
    unreachable?: string,
  ): Promise<RetryBackoffState | undefined> {
    const store = this.queue.retryBackoff;
    if (!store) return undefined;
    const capMs = why === 'failure' ? (this.timing.failureCapMs ?? FAILURE_BACKOFF_CAP_MS) : this.timing.maxDelayMs;
    const next = nextRetryBackoff(
      previous,
      event.data.generation,
      this.now().getTime(),
      this.random(),
      { baseMs: this.timing.baseDelayMs, capMs },
      why,
      unreachable,
    );
    try {
      await store.set(this.backoffKey(event), next);
    } catch {
      return undefined;
    }
    return next;
  }

  /** Holds a trigger until the backoff's time: one deferred run per attempt count (deterministic id). */
  private async defer({ job, event, observe }: Run, untilMs: number, attempts: number): Promise<void> {
    const id = adapterRunJobId(this.adapter.name, event.data, `backoff-${attempts}`);
    const deferred: AdapterRunJob = { ...job.data, deferred: true, event: reconcileCloudEvent(event.data, id, this.now().toISOString()) };
    const delayMs = Math.max(0, untilMs - this.now().getTime());
    await this.enqueueRun(event, id, deferred, delayMs);
    observe({
      adapter: this.adapter.name,
      job: job.data,
      progress: { kind: 'wait', reason: `backing off after ${attempts} attempt(s)`, requeueAfterMs: delayMs },
    });
  }

  /**
   * The run's fence: the job's group-lock sequence (the queue's `JobFence`) and, at each check, the
   * resource as the API has it: gone, at a newer generation, or already finalized by this adapter
   * means this run is stale.
   */
  private fence(job: Job<AdapterRunJob>, event: ReconcileCloudEvent, wasDeleting: boolean): ExecutionFence {
    const jobFence = job.fence!;
    const generation = event.data.generation;
    const href = event.data.href;
    type Statuses = { items: AdapterStatus[] } | undefined;
    return {
      generation,
      sequence: jobFence.sequence,
      check: async (): Promise<FenceVerdict> => {
        // The lock, the resource and (for a resource that was deleting when the run started) its
        // statuses are asked at once, one round trip instead of three. Each answer is still read after the
        // check began and before the write, and the verdict weighs them in the same order as one by one.
        const [lock, read, statusesRead] = await Promise.allSettled([
          jobFence.isCurrent(),
          this.getOrUndefined<{ generation: number; deleted_time?: string }>(href),
          wasDeleting ? this.getOrUndefined<{ items: AdapterStatus[] }>(`${href}/statuses`) : Promise.resolve<Statuses>(undefined),
        ]);
        if (!settled(lock)) return { current: false, reason: 'the run lost its lock: another run of this resource and adapter took over' };
        const resource = settled(read);
        if (!resource) return { current: false, reason: `${event.data.kind} ${event.data.id} no longer exists` };
        if (resource.generation !== generation)
          return {
            current: false,
            reason: `superseded: the resource is at generation ${resource.generation}, this run is for ${generation}`,
          };
        if (resource.deleted_time) {
          const statuses = wasDeleting ? settled(statusesRead) : await this.getOrUndefined<{ items: AdapterStatus[] }>(`${href}/statuses`);
          const mine = statuses?.items.find((s) => s.adapter === this.adapter.name);
          const finalized =
            mine?.observed_generation === generation && mine.conditions.some((c) => c.type === 'Finalized' && c.status === 'True');
          if (finalized)
            return {
              current: false,
              reason: `${this.adapter.name} already finalized ${event.data.kind} ${event.data.id} at generation ${generation}`,
            };
        }
        return { current: true };
      },
    };
  }

  /** Throws the queue's error for `failure`; returns normally only when the resource is gone (nothing to do). */
  private async fail({ job, event, observe }: Run, failure: AdapterFailure, result?: ExecutionResult): Promise<void> {
    observe({ adapter: this.adapter.name, job: job.data, ...(result ? { result } : {}), failure });
    const text = `adapter ${this.adapter.name} on ${event.data.kind} ${event.data.id}: ${failure.reason}: ${failure.message}`;
    let resource: { generation: number; deleted_time?: string } | undefined;
    try {
      resource = await this.getOrUndefined(event.data.href);
    } catch (error) {
      throw new RetryableError(`${text} (and the API could not be read: ${(error as Error).message})`);
    }
    // Gone (hard or force deleted): a 404 is an answer, not a failure (nothing is left to act on or report to).
    if (!resource) return;
    if (failure.kind === 'transient') throw new RetryableError(text);
    // Make the failure visible on the resource unless the run delivered a status report itself.
    if (!result || result.statusReports.length === 0) await this.reportFailure(event, resource, failure).catch(() => undefined);
    throw new TerminalError(text);
  }

  /** PUTs Applied/Available/Health=False (and Finalized=False while deleting) at the current generation. */
  private async reportFailure(
    event: ReconcileCloudEvent,
    resource: { generation: number; deleted_time?: string },
    failure: AdapterFailure,
  ): Promise<void> {
    const condition = (type: string) => ({ type, status: 'False', reason: failure.reason, message: failure.message.slice(0, 1_000) });
    await this.adapter.api.request({
      method: 'PUT',
      url: `${event.data.href}/statuses`,
      body: {
        adapter: this.adapter.name,
        observed_generation: resource.generation,
        observed_time: this.now().toISOString(),
        conditions: ['Applied', 'Available', 'Health', ...(resource.deleted_time ? ['Finalized'] : [])].map(condition),
      },
      retryAttempts: 1,
    });
  }

  /**
   * `started`: the resource as this run read it first; `api`: the run's client. When the run's own status
   * PUT was stored (201: HyperFleet answers with the stored status), progress is decided from that
   * answer and `started` without reading both back. Still right when something changed
   * meanwhile: a newer generation has its own job, and a re-run scheduled for a resource since superseded
   * or gone ends at its first read (readTarget), so the worst case is one re-run that does nothing.
   * Otherwise (no PUT, or discarded: 204) the resource and its statuses are read as before.
   */
  private async progress(
    job: AdapterRunJob,
    started?: { generation: number; deleted_time?: string },
    api?: RunReadCache,
  ): Promise<AdapterProgress> {
    const href = job.event.data.href;
    const stored = api?.lastWrite('PUT', `${href}/statuses`);
    const mine = stored?.status === 201 ? (stored.body as AdapterStatus | undefined) : undefined;
    if (started && mine?.adapter === this.adapter.name) {
      return adapterProgress({ resource: started, status: mine, adapter: this.adapter.name, rerun: job.rerun, ...this.timing });
    }
    const resource = await this.getOrUndefined<{ generation: number; deleted_time?: string }>(href);
    if (resource && resource.generation > job.event.data.generation) {
      // A newer generation has its own job (dispatched by its fact); this chain ends here.
      return { kind: 'done', reason: `superseded by generation ${resource.generation}` };
    }
    const statuses = resource ? await this.getOrUndefined<{ items: AdapterStatus[] }>(`${href}/statuses`) : undefined;
    return adapterProgress({
      ...(resource ? { resource } : {}),
      ...(statuses ? { status: statuses.items.find((s) => s.adapter === this.adapter.name) } : {}),
      adapter: this.adapter.name,
      rerun: job.rerun,
      ...this.timing,
    });
  }

  private async getOrUndefined<T>(url: string, api: Pick<HostedAdapter['api'], 'request'> = this.adapter.api): Promise<T | undefined> {
    try {
      return (await api.request({ method: 'GET', url })).body as T;
    } catch (error) {
      if ((error as { name?: string }).name === 'ApiResourceNotFoundError') return undefined;
      throw error;
    }
  }
}

/** The value of a settled promise; @throws its reason when it was rejected. */
function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/**
 * A backoff re-run scheduled at `attempts` is overtaken when another run of the resource and adapter
 * counted since (more attempts at its generation) or finished the work (the state was cleared).
 */
function isOvertaken(state: RetryBackoffState | undefined, generation: number, attempts: number): boolean {
  if (!state) return true;
  return state.generation === generation && state.attempts > attempts;
}
