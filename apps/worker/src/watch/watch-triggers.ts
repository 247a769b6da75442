/**
 * Edge-triggered cleanup, level-triggered safety, the per-process half: turns a watch
 * change of an object Decom manages into an immediate adapter run of its owning resource, while that
 * adapter's work on it is still in progress. The backoff re-runs and the sweeper stay as they are: they
 * are the fallback when a watch is down or a change is missed.
 *
 * Which resource: the object's `decom.io/owner: <kind>/<id>/<adapter>` annotation (the label the watch
 * selects by only narrows the stream). When: a resource and adapter (key `retryBackoffKey`) is
 * - **running** in this process: the change is remembered; if the run then ends waiting (work still in
 *   progress), the next run is enqueued at once instead of only after the backoff. Most changes land
 *   here: they are the effect of the run's own deletes (a Job gone, a Namespace marked Terminating);
 * - **waiting** (its last run here ended in progress, its backoff re-run is scheduled): the next run is
 *   enqueued at once;
 * - otherwise (done, failed, or never run here): nothing. A failed run is retried by the queue with its
 *   own backoff and the persistent failure backoff, which a watch never shortens.
 * A triggered run is a new job `<adapter>.<kind>-<id>.gen-<g>.w-<resourceVersion>` in the resource's
 * group (`adapterRunGroup`: never concurrent with its other runs); the processor lets it past the
 * *wait* backoff but defers it while a failure backoff holds (adapter-run.processor.ts). Every worker
 * process watching the same objects computes the same job id for one change, so they collapse into one job.
 * A run whose own writes keep changing its objects without finishing would re-trigger itself for ever:
 * after `MAX_TRIGGERED_RUNS` triggered runs in a row a resource waits for its backoff re-run again.
 */
import { OWNER_ANNOTATION, parseMark, type ObjectChange } from '@decom/adapter';
import {
  ADAPTER_RUN_RETRY,
  adapterRunGroup,
  adapterRunJobId,
  adapterRunQueue,
  reconcileCloudEvent,
  retryBackoffKey,
  type AdapterRunJob,
  type JobQueue,
} from '@decom/jobs';

/** What a run of one resource and adapter told the registry when it ended. */
export type RunEnd =
  /** Work still in progress: `rerun` is the job data of its backoff re-run (the triggered run reuses it). */
  | { readonly kind: 'wait'; readonly rerun: AdapterRunJob }
  /** Done, superseded, failed or deferred: a change does not trigger a run. */
  | { readonly kind: 'other' };

/** A change seen while the run was in progress. */
interface SeenChange {
  readonly type: ObjectChange['type'];
  readonly resourceVersion: string;
}

export interface WatchTriggerObserver {
  /** A run was enqueued because of a watch change (`job` is its id). */
  (trigger: { adapter: string; kind: string; id: string; job: string; change: SeenChange }): void;
}

/** Triggered runs of one resource and adapter in a row (no backoff run between them) before the backoff rules again. */
export const MAX_TRIGGERED_RUNS = 10;

export class WatchTriggers {
  /** Triggered runs in a row per key, reset by a run that was not triggered by a watch, or by the end of the work. */
  private readonly streak = new Map<string, number>();
  /** Runs in progress in this process, with the latest change seen meanwhile. */
  private readonly running = new Map<string, { change?: SeenChange }>();
  /** Runs that ended in progress here: the data of their re-run. */
  private readonly waiting = new Map<string, AdapterRunJob>();
  /** Fallback job-id part for a change without a resourceVersion (not sent by conforming servers). */
  private sequence = 0;

  constructor(
    private readonly queue: JobQueue,
    /** The adapters this process hosts: changes of other adapters' objects are ignored. */
    private readonly hosted: ReadonlySet<string>,
    private readonly observe: WatchTriggerObserver = () => undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Resources with a run waiting here (metrics, tests). */
  waitingCount(): number {
    return this.waiting.size;
  }

  /** A watch delivered `change` (watch-scopes.ts, object-watch.ts). Never throws. */
  onChange(change: ObjectChange): void {
    const owner = parseMark(change.object.metadata.annotations?.[OWNER_ANNOTATION]);
    if (!owner || !this.hosted.has(owner.adapter)) return;
    const key = retryBackoffKey(owner.adapter, owner.kind, owner.id);
    const seen: SeenChange = { type: change.type, resourceVersion: change.object.metadata.resourceVersion ?? `s${++this.sequence}` };
    const run = this.running.get(key);
    if (run) {
      run.change = seen;
      return;
    }
    const rerun = this.waiting.get(key);
    if (!rerun) return;
    this.waiting.delete(key);
    void this.trigger(key, rerun, seen);
  }

  /** A run of `key` starts in this process (call before its first await); `triggered`: a watch enqueued it. */
  begin(key: string, triggered: boolean): void {
    this.running.set(key, {});
    if (!triggered) this.streak.delete(key);
  }

  /** The run of `key` ended: a change seen meanwhile triggers the next run now when it ended waiting. */
  end(key: string, outcome: RunEnd): void {
    const run = this.running.get(key);
    this.running.delete(key);
    if (outcome.kind !== 'wait') {
      this.waiting.delete(key);
      this.streak.delete(key);
      return;
    }
    if (run?.change) {
      this.waiting.delete(key);
      void this.trigger(key, outcome.rerun, run.change, false);
    } else {
      this.waiting.set(key, outcome.rerun);
    }
  }

  /**
   * Enqueues the triggered run. `checkPending`: for a waiting entry, first make sure the work is still
   * pending (a run of another worker may have finished it since: the shared backoff state is cleared then).
   */
  private async trigger(key: string, rerun: AdapterRunJob, change: SeenChange, checkPending = true): Promise<void> {
    const data = rerun.event.data;
    const streak = this.streak.get(key) ?? 0;
    if (streak >= MAX_TRIGGERED_RUNS) return;
    this.streak.set(key, streak + 1);
    try {
      if (checkPending && this.queue.retryBackoff) {
        const state = await this.queue.retryBackoff.get(key);
        if (!state || state.generation !== data.generation) return;
      }
      const id = adapterRunJobId(rerun.adapter, data, `w-${change.resourceVersion}`);
      const { backoff_attempts: _fallbackOnly, ...rest } = rerun;
      const job: AdapterRunJob = {
        ...rest,
        watch: { type: change.type, resource_version: change.resourceVersion },
        event: reconcileCloudEvent(data, id, this.now().toISOString()),
      };
      const added = await this.queue.enqueue(adapterRunQueue(rerun.adapter), id, job, {
        group: adapterRunGroup(rerun.adapter, data.id),
        ...ADAPTER_RUN_RETRY,
      });
      if (added) this.observe({ adapter: rerun.adapter, kind: data.kind, id: data.id, job: id, change });
    } catch {
      // Queue unreachable: the backoff re-run, already scheduled, does the work (level-triggered safety).
    }
  }
}
