/**
 * Why a deletion is still pending, as a list of structured blockers (seed 000 edge case #5, seed 001
 * "Timeout and Stuck Detection", seed 004 pause / dependents / delete guard). Pure: the deletion's own
 * blockers come from its stored `deletionStatus`; this adds what depends on the read (`now`, failed jobs).
 *
 * Every blocker has a `type` (one of `BLOCKER_TYPES`) and a one-line `message` an operator can read as is;
 * the other fields are the structured facts behind the message.
 */
import { ConditionType, Reason, type ResourceCondition } from './conditions.js';
import type { AdapterNotFinalizedBlocker, BlockerCondition, DeletionStatusBlocker, PauseMark } from './blocker-vocabulary.js';

export type {
  BlockerCondition,
  ResourceRef,
  PauseMark,
  PausedBlocker,
  AdapterNotFinalizedBlocker,
  HoldingObject,
} from './blocker-vocabulary.js';
import { describeHolding, holdingOf } from './holding.js';
import type { AdapterStatus } from './resource.events.js';

export const BLOCKER_TYPES = [
  'JobQueueUnavailable',
  'Paused',
  'DeadLettered',
  'AdapterNotFinalized',
  'InUse',
  'DependencyCycle',
  'DeletionBlocked',
  'DependentsRemaining',
  'CleanupUnverified',
  'LeftoverObjects',
  'TimedOut',
] as const;

export type BlockerType = (typeof BLOCKER_TYPES)[number];

/** A job in the dead-letter set about this resource (shape of the job queue's `FailedJob`). */
export interface DeadLetter {
  readonly queue: string;
  readonly id: string;
  readonly attempts: number;
  readonly error: string;
  /** RFC 3339. */
  readonly failed_time: string;
}

/**
 * A blocker of `/finalizing`: the stored deletion status's (`DeletionStatusBlocker`: DependencyCycle with
 * members and edges, Paused, InUse with referrers and their own blockers, DependentsRemaining,
 * AdapterNotFinalized of the frozen set) and those that depend on the read's time or the job queue.
 */
export type FinalizingBlocker =
  | DeletionStatusBlocker
  | {
      readonly type: 'DeadLettered';
      readonly message: string;
      readonly queue: string;
      readonly job_id: string;
      readonly attempts: number;
      readonly error: string;
      readonly failed_time: string;
    }
  | { readonly type: 'JobQueueUnavailable'; readonly message: string; readonly reason: string; readonly since: string }
  /** Any other `DeletionBlocked=True` reason a newer engine sets; shown as the condition says. */
  | { readonly type: 'DeletionBlocked'; readonly message: string; readonly reason: string }
  | { readonly type: 'TimedOut'; readonly message: string; readonly since: string; readonly timeout_seconds: number };

export interface BlockerInput {
  /** RFC 3339. */
  readonly deleted_time: string;
  /** RFC 3339 "now" (timeouts are evaluated at read time). */
  readonly now: string;
  /** The blockers of the resource's stored deletion status (`deletionStatus`, stored by the projection). */
  readonly status_blockers: readonly DeletionStatusBlocker[];
  /** The resource's `status.conditions` (generic `DeletionBlocked` reasons are read from here). */
  readonly conditions: readonly ResourceCondition[];
  /** The kind's `deletion_timeout_seconds`, when it has one. */
  readonly deletion_timeout_seconds?: number;
  readonly dead_letters: readonly DeadLetter[];
  /**
   * Set while the job queue cannot be reached (its reason and since when, RFC 3339): every deletion then waits
   * on it, because adapter runs and hard deletes are dispatched through it, and its dead letters are unknown.
   */
  readonly job_queue_unavailable?: { readonly reason: string; readonly since: string };
  /**
   * Adapters whose job queue no process consumes now (no `decom worker` connected for it), each with that
   * queue's name (`adapter-run.<adapter>`). Their `AdapterNotFinalized` blockers get `no_worker: true`.
   */
  readonly idle_adapters?: readonly IdleAdapter[];
}

/** An adapter whose job queue has no live consumer. */
export interface IdleAdapter {
  readonly adapter: string;
  /** The queue its runs wait in (`adapter-run.<adapter>`). */
  readonly queue: string;
}

/** Reasons of `DeletionBlocked=True` that the deletion status already carries as blockers of their own. */
const DEDICATED_REASONS: ReadonlySet<string> = new Set([Reason.DependentsExist, 'InUse', 'DependencyCycle']);

/** Root causes: nothing else explains them (a dead letter is listed with them, before what it explains). */
const ROOT_CAUSES: ReadonlySet<BlockerType> = new Set(['DependencyCycle', 'Paused']);

/**
 * The blockers of one pending deletion, root causes first: an unreachable job queue (nothing is dispatched
 * without it, not even a hard delete that is due), the stored status's as they are (no rule is
 * re-derived here), with the job queue's dead letters after the root causes, then any other
 * `DeletionBlocked` reason, then `TimedOut` once `now` passed `deleted_time + deletion_timeout_seconds`.
 * Empty when nothing blocks (the hard delete is due).
 */
export function finalizingBlockers(input: BlockerInput): FinalizingBlocker[] {
  const roots = input.status_blockers.filter((b) => ROOT_CAUSES.has(b.type));
  const rest = input.status_blockers.filter((b) => !ROOT_CAUSES.has(b.type));
  const out: FinalizingBlocker[] = [];
  const queue = input.job_queue_unavailable;
  if (queue) {
    out.push({
      type: 'JobQueueUnavailable',
      message: `the job queue is unreachable since ${queue.since} (${queue.reason}): this deletion's adapter runs and hard delete wait for it; dead letters are unknown`,
      reason: queue.reason,
      since: queue.since,
    });
  }
  out.push(...roots);
  for (const dead of input.dead_letters) {
    out.push({
      type: 'DeadLettered',
      message: `job ${dead.id} dead-lettered after ${dead.attempts} attempt(s): ${dead.error}`,
      queue: dead.queue,
      job_id: dead.id,
      attempts: dead.attempts,
      error: dead.error,
      failed_time: dead.failed_time,
    });
  }
  // The missing worker is told on the adapter's own blocker rather than as a blocker type of its own: it is
  // why that adapter has not finalized, so one blocker per adapter keeps counts and `?blocker=AdapterNotFinalized`
  // as they were, and the message an operator reads names the cause before the last report's detail.
  const idle = new Map((input.idle_adapters ?? []).map((a) => [a.adapter, a.queue]));
  out.push(...(idle.size === 0 ? rest : rest.map((b) => withNoWorker(b, idle))));
  const blocked = input.conditions.filter((c) => c.type === ConditionType.DeletionBlocked && c.status === 'True');
  for (const other of blocked.filter((c) => !DEDICATED_REASONS.has(c.reason ?? ''))) {
    out.push({ type: 'DeletionBlocked', reason: other.reason ?? '', message: other.message ?? other.reason ?? 'deletion blocked' });
  }
  const timeout = input.deletion_timeout_seconds;
  if (timeout !== undefined) {
    const deadline = Date.parse(input.deleted_time) + timeout * 1000;
    if (Date.parse(input.now) >= deadline) {
      const since = new Date(deadline).toISOString();
      out.push({
        type: 'TimedOut',
        message: `deletion timed out at ${since} (deletion_timeout_seconds ${timeout})`,
        since,
        timeout_seconds: timeout,
      });
    }
  }
  return out;
}

/** `<adapter>: no decom worker consumes <queue> (<last report's detail>)` when the adapter's queue is idle. */
function withNoWorker(blocker: FinalizingBlocker, idle: ReadonlyMap<string, string>): FinalizingBlocker {
  if (blocker.type !== 'AdapterNotFinalized') return blocker;
  const queue = idle.get(blocker.adapter);
  if (queue === undefined) return blocker;
  const prefix = `${blocker.adapter}: `;
  const detail = blocker.message.startsWith(prefix) ? blocker.message.slice(prefix.length) : blocker.message;
  return { ...blocker, no_worker: true, message: `${prefix}no decom worker consumes ${queue} (${detail})` };
}

/** `paused by <caller>: <reason>` (with where the pause comes from when it is not the resource's own). */
export function pauseMessage(pause: PauseMark): string {
  const base = `paused by ${pause.paused_by}: ${pause.reason}`;
  if (pause.source === 'self') return base;
  return `${base} (via ${pause.source} ${pause.resource.kind} '${pause.resource.id}')`;
}

/**
 * The `AdapterNotFinalized` blocker of one adapter, from its last report (or none). A report at the
 * deletion's generation that names the objects it waits on (`data.holding`, holding.ts) gives `holding`
 * and a message naming the first (`validation: waiting for ConfigMap ns/cm (finalizers: example.com/hold,
 * since ...)`, then an unhealthy Health's reason and message); otherwise the message is the unhealthy
 * Health's, or Finalized's, reason and message.
 */
export function adapterNotFinalizedBlocker(
  adapter: string,
  status: AdapterStatus | undefined,
  generation: number,
  heldByPause: boolean,
): AdapterNotFinalizedBlocker {
  if (!status) {
    return {
      type: 'AdapterNotFinalized',
      adapter,
      reported: false,
      generation,
      held_by_pause: heldByPause,
      message: `${adapter}: no report yet`,
    };
  }
  const pick = (type: string): BlockerCondition | undefined => {
    const c = status.conditions.find((x) => x.type === type);
    return c
      ? {
          status: c.status,
          ...(c.reason !== undefined ? { reason: c.reason } : {}),
          ...(c.message !== undefined ? { message: c.message } : {}),
        }
      : undefined;
  };
  const finalized = pick(ConditionType.Finalized);
  const health = pick(ConditionType.Health);
  // The unhealthy condition explains more than Finalized=False ("DeletionError: 403 Forbidden").
  const telling = health?.status === 'False' ? health : finalized;
  const current = status.observed_generation >= generation;
  // The objects Kubernetes keeps (finalizers) say more than "cleanup in progress"; a failure still shows after them.
  const holding = current ? holdingOf(status.data) : [];
  const conditionDetail = telling
    ? [telling.reason, telling.message].filter((s) => s !== undefined && s !== '').join(': ') ||
      `Finalized=${finalized?.status ?? 'absent'}`
    : 'no Finalized condition reported';
  const detail = !current
    ? `last report at generation ${status.observed_generation}, deletion is generation ${generation}`
    : holding.length > 0
      ? `${describeHolding(holding)}${health?.status === 'False' ? `; ${conditionDetail}` : ''}`
      : conditionDetail;
  return {
    type: 'AdapterNotFinalized',
    adapter,
    reported: true,
    observed_generation: status.observed_generation,
    generation,
    ...(finalized ? { finalized } : {}),
    ...(health ? { health } : {}),
    last_report_time: status.last_report_time,
    held_by_pause: heldByPause,
    ...(holding.length > 0 ? { holding } : {}),
    message: `${adapter}: ${detail}`,
  };
}
