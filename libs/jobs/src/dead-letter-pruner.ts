/**
 * Dead letters of finished work (docs/operations.md "Logs"; status.md listed it under "Not yet"): a job
 * that dead-lettered (a `hard-delete` check that failed during a PostgreSQL outage, an adapter run that
 * exhausted its tries) stays in the failed set and `decom_queue_dead_letters` even after a sweep did the
 * same work later. Every `intervalMs` the pruner compares each dead letter with the read model and removes
 * the ones whose work is done, so dashboards show only failures that still matter:
 * - a `hard-delete` or `adapter-run.*` letter of a resource that is hard-deleted (`HardDeleted`);
 * - an `adapter-run.<adapter>` letter whose adapter has since reported on a newer generation (`Superseded`);
 * - an `adapter-run.*` letter of a resource not being deleted whose `Reconciled` is True at the letter's
 *   generation or later (`Reconciled`).
 * Everything else is kept: letters of other queues, of ids the read model does not know, of deletions
 * still pending, of generations not reconciled yet. The decision reads only facts that never go back
 * (a hard delete, an observed generation), so a lagging read model keeps a letter longer, never drops one early.
 */
import type { FailedJob, JobQueue } from './job-queue.port.js';
import { HARD_DELETE_QUEUE, type HardDeleteJob } from './job-names.js';

const ADAPTER_RUN_PREFIX = 'adapter-run.';

/** What the read model says about one resource, as far as dead letters care. */
export type ResourceProgress =
  | { readonly phase: 'HardDeleted' }
  | {
      readonly phase: 'Present';
      readonly generation: number;
      /** `deleted_time` is set: the deletion is pending. */
      readonly isDeleting: boolean;
      /** The resource's `Reconciled` condition, when it has one. */
      readonly reconciled?: { readonly status: string; readonly observed_generation: number };
      /** Each adapter's last reported `observed_generation`. */
      readonly observedGenerations: Readonly<Record<string, number>>;
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
export type PruneReason = 'HardDeleted' | 'Superseded' | 'Reconciled';

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
  if (progress.phase === 'HardDeleted') return 'HardDeleted';
  // Not hard-deleted yet: a hard-delete check is still owed.
  if (subject.work === 'hard-delete') return undefined;
  if ((progress.observedGenerations[subject.adapter] ?? 0) > subject.generation) return 'Superseded';
  const reconciled = progress.reconciled;
  if (!progress.isDeleting && reconciled?.status === 'True' && reconciled.observed_generation >= subject.generation) return 'Reconciled';
  return undefined;
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

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
