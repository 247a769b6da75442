/**
 * Dead letters of finished work (docs/operations.md "Logs"; status.md listed it under "Not yet"): a job
 * that dead-lettered (a `hard-delete` check that failed during a PostgreSQL outage, an adapter run that
 * exhausted its tries) stays in the failed set and `decom_queue_dead_letters` even after a sweep did the
 * same work later. Every `intervalMs` the pruner compares each dead letter with the read model and removes
 * the ones whose work is done, so dashboards show only failures that still matter:
 * - a `hard-delete` or `adapter-run.*` letter of a resource hard-deleted through its normal gate
 *   (`HardDeleted`, cause `Reconciled`: every required adapter confirmed its cleanup since);
 * - an `adapter-run.*` letter of a generation older than the resource's (`Superseded`): the newer
 *   generation has its own run (and its own letter if that fails too), and a retry of this one would end
 *   without running (the worker skips runs of a superseded generation).
 * In both cases removing the letter is what a retry would come to. Everything else is kept, because only
 * a retry or a later successful run could show the failure is over: letters of other queues, of ids the
 * read model does not know, of deletions still pending, of the current generation (a `Reconciled=True` or
 * a status report proves nothing: the failing run reports too, and `Available` may not depend on the part
 * that failed), and of force-deleted resources (the letter is evidence of what failed; the operator clears
 * it). The decision reads only facts that never go back (a hard delete, a generation), so a lagging read
 * model keeps a letter longer, never drops one early.
 */
import type { FailedJob, JobQueue } from './job-queue.port.js';
import { HARD_DELETE_QUEUE, type HardDeleteJob } from './job-names.js';

const ADAPTER_RUN_PREFIX = 'adapter-run.';

/** What the read model says about one resource, as far as dead letters care. */
export type ResourceProgress =
  /** `cause`: `Reconciled` (the normal gate) or `ForceDeleted` (the escape hatch). */
  | { readonly phase: 'HardDeleted'; readonly cause: string }
  | {
      readonly phase: 'Present';
      /** The resource's current generation. */
      readonly generation: number;
    };

/** The read model, by resource id (resource_index, resources, adapter_statuses). */
export interface ResourceProgressSource {
  /** Undefined when the read model knows no resource of that id. */
  progressOf(id: string): Promise<ResourceProgress | undefined>;
}

/** What a dead letter was about: the resource, and for an adapter run its adapter and generation. */
export type DeadLetterSubject =
  | { readonly work: 'hard-delete'; readonly resourceId: string }
  | { readonly work: 'adapter-run'; readonly resourceId: string; readonly adapter: string; readonly generation: number };

/** Why a dead letter's work is done (the `reason` label and log field). */
export type PruneReason = 'HardDeleted' | 'Superseded';

export interface PrunedDeadLetter {
  readonly queue: string;
  readonly job: string;
  readonly resourceId: string;
  readonly reason: PruneReason;
}

/**
 * The subject of a dead letter, read from its queue and job: `hard-delete` jobs carry the resource id in
 * their data; adapter runs are keyed `<adapter>.<kind>-<id>.gen-<generation>[.<suffix>]` (job-names.ts), also
 * when a Sentinel `message_data` reshaped their event data. Undefined for any other queue or an unreadable job.
 */
export function deadLetterSubject(letter: Pick<FailedJob, 'queue' | 'id' | 'data'>): DeadLetterSubject | undefined {
  if (letter.queue === HARD_DELETE_QUEUE) {
    const id = (letter.data as Partial<HardDeleteJob> | undefined)?.id;
    return typeof id === 'string' && id !== '' ? { work: 'hard-delete', resourceId: id } : undefined;
  }
  if (!letter.queue.startsWith(ADAPTER_RUN_PREFIX)) return undefined;
  const adapter = letter.queue.slice(ADAPTER_RUN_PREFIX.length);
  if (!letter.id.startsWith(`${adapter}.`)) return undefined;
  const match = /^[a-z0-9]+-(.+?)\.gen-(\d+)(?:\..+)?$/.exec(letter.id.slice(adapter.length + 1));
  return match ? { work: 'adapter-run', resourceId: match[1]!, adapter, generation: Number(match[2]) } : undefined;
}

/** Why the subject's work is done, or undefined to keep the letter (see the module comment for the rules). */
export function whyWorkIsDone(subject: DeadLetterSubject, progress: ResourceProgress | undefined): PruneReason | undefined {
  if (!progress) return undefined;
  if (progress.phase === 'HardDeleted') return progress.cause === 'Reconciled' ? 'HardDeleted' : undefined;
  // Not hard-deleted yet: a hard-delete check is still owed.
  if (subject.work === 'hard-delete') return undefined;
  return progress.generation > subject.generation ? 'Superseded' : undefined;
}

export interface DeadLetterPrunerOptions {
  /** Time between two passes, ms. */
  readonly intervalMs: number;
  /** Called once per removed letter (the engine logs it at info and counts it). */
  readonly onPruned?: (pruned: PrunedDeadLetter) => void;
  /** A pass that failed (the queue or the read model unreachable); the next pass tries again. */
  readonly onError?: (error: unknown) => void;
}

export class DeadLetterPruner {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly queue: JobQueue,
    private readonly source: ResourceProgressSource,
    private readonly options: DeadLetterPrunerOptions,
  ) {}

  /**
   * One pass over every dead letter of the queue's store. Returns the letters it removed (a letter another
   * process removed or retried first is not counted).
   * @throws what the queue or the read model throw (the periodic pass reports it to `onError`).
   */
  async pruneOnce(): Promise<PrunedDeadLetter[]> {
    const progress = new Map<string, Promise<ResourceProgress | undefined>>();
    const pruned: PrunedDeadLetter[] = [];
    for (const letter of await this.queue.failed()) {
      const subject = deadLetterSubject(letter);
      if (!subject) continue;
      let known = progress.get(subject.resourceId);
      if (!known) progress.set(subject.resourceId, (known = this.source.progressOf(subject.resourceId)));
      const reason = whyWorkIsDone(subject, await known);
      if (!reason || !(await this.queue.removeFailed(letter.queue, letter.id))) continue;
      const done: PrunedDeadLetter = { queue: letter.queue, job: letter.id, resourceId: subject.resourceId, reason };
      pruned.push(done);
      this.options.onPruned?.(done);
    }
    return pruned;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.pruneOnce()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => (this.running = undefined));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /**
   * Stops the periodic pass and waits for a running one, at most `graceMs` (default 2000 ms): a pass
   * whose queue call never settles (Redis unreachable: the client queues the command until it reconnects)
   * must not hold the engine's shutdown. Closing the queue afterwards rejects that call.
   */
  async stop(graceMs = 2_000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (!this.running) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
      timer.unref();
    });
    await Promise.race([this.running, grace]);
    clearTimeout(timer);
  }
}
