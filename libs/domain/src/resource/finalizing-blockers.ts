/**
 * Why a deletion is still pending, as a list of structured blockers (issue #14; seed 000 edge case #5,
 * seed 001 "Timeout and Stuck Detection", seed 004 pause / dependents / delete guard). Pure: the read side
 * gathers the inputs (rows, failed jobs, `now`) and this decides what to say about them.
 *
 * Every blocker has a `type` (one of `BLOCKER_TYPES`) and a one-line `message` an operator can read as is;
 * the other fields are the structured facts behind the message.
 */
import { ConditionType, Reason, type ResourceCondition } from './conditions.js';
import { isAdapterMet, type ReconcileInput } from './reconciled.js';
import type { AdapterStatus } from './resource.events.js';

export const BLOCKER_TYPES = [
  'Paused',
  'DeadLettered',
  'AdapterNotFinalized',
  'InUse',
  'DependencyCycle',
  'DeletionBlocked',
  'DependentsRemaining',
  'TimedOut',
] as const;

export type BlockerType = (typeof BLOCKER_TYPES)[number];

/** A condition of an adapter report, reduced to what a dashboard shows. */
export interface BlockerCondition {
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

export interface ResourceRef {
  readonly id: string;
  readonly kind: string;
}

/** Who pauses a deletion: the resource itself, an ancestor (`parent`) or a paused descendant (`dependent`). */
export interface PauseMark {
  readonly source: 'self' | 'parent' | 'dependent';
  /** The paused resource (this one when `source` is `self`). */
  readonly resource: ResourceRef;
  /** The caller identity that paused it. */
  readonly paused_by: string;
  readonly reason: string;
  /** RFC 3339. */
  readonly paused_time: string;
}

/** A job in the dead-letter set about this resource (shape of the job queue's `FailedJob`). */
export interface DeadLetter {
  readonly queue: string;
  readonly id: string;
  readonly attempts: number;
  readonly error: string;
  /** RFC 3339. */
  readonly failed_time: string;
}

export type FinalizingBlocker =
  | ({ readonly type: 'Paused'; readonly message: string } & PauseMark)
  | {
      readonly type: 'DeadLettered';
      readonly message: string;
      readonly queue: string;
      readonly job_id: string;
      readonly attempts: number;
      readonly error: string;
      readonly failed_time: string;
    }
  | {
      readonly type: 'AdapterNotFinalized';
      readonly message: string;
      readonly adapter: string;
      /** False when the adapter never reported on this resource. */
      readonly reported: boolean;
      readonly observed_generation?: number;
      readonly generation: number;
      readonly finalized?: BlockerCondition;
      readonly health?: BlockerCondition;
      /** RFC 3339 time of the adapter's last report. */
      readonly last_report_time?: string;
      /** A pause holds the deletion: the adapter is waiting for it, not failing. */
      readonly held_by_pause: boolean;
    }
  | { readonly type: 'InUse'; readonly message: string; readonly referrers: readonly (ResourceRef & { readonly name: string })[] }
  | { readonly type: 'DependencyCycle'; readonly message: string }
  /** Any other `DeletionBlocked=True` reason a newer engine sets; shown as the condition says. */
  | { readonly type: 'DeletionBlocked'; readonly message: string; readonly reason: string }
  | { readonly type: 'DependentsRemaining'; readonly message: string; readonly count: number; readonly ids: readonly string[] }
  | { readonly type: 'TimedOut'; readonly message: string; readonly since: string; readonly timeout_seconds: number };

export interface BlockerInput extends ReconcileInput {
  readonly deleted_time: string;
  /** RFC 3339 "now" (timeouts are evaluated at read time). */
  readonly now: string;
  /** The resource's `status.conditions` (generic `DeletionBlocked` reasons are read from here). */
  readonly conditions: readonly ResourceCondition[];
  readonly pause?: PauseMark;
  /** Child records still stored, by id (their count is `child_record_count`). */
  readonly child_ids: readonly string[];
  /** Live resources whose `references` still name this one (seed 004 delete guard). */
  readonly live_referrers: readonly (ResourceRef & { readonly name: string })[];
  /** The kind's `deletion_timeout_seconds`, when it has one. */
  readonly deletion_timeout_seconds?: number;
  readonly dead_letters: readonly DeadLetter[];
}

/** Reasons of `DeletionBlocked=True` that have a blocker type of their own. */
const DEDICATED_REASONS: ReadonlySet<string> = new Set([Reason.DependentsExist, 'InUse', 'DependencyCycle']);

/**
 * The blockers of one pending deletion, in `BLOCKER_TYPES` order (root causes first: a pause or a dead
 * letter explains why adapters have not finalized). Empty when nothing blocks (the hard delete is due).
 */
export function finalizingBlockers(input: BlockerInput): FinalizingBlocker[] {
  const out: FinalizingBlocker[] = [];
  const pause = input.pause;
  if (pause) out.push({ type: 'Paused', message: pauseMessage(pause), ...pause });
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
  for (const adapter of [...input.required_adapters].sort()) {
    if (isAdapterMet(input, adapter)) continue;
    out.push(adapterNotFinalizedBlocker(adapter, input.adapter_statuses[adapter], input.generation, pause !== undefined));
  }
  const blocked = input.conditions.filter((c) => c.type === ConditionType.DeletionBlocked && c.status === 'True');
  const inUse = blocked.find((c) => c.reason === 'InUse');
  if (inUse || input.live_referrers.length > 0) {
    const names = input.live_referrers.map((r) => `${r.kind} '${r.name}'`).join(', ');
    out.push({ type: 'InUse', message: inUse?.message ?? `in use by ${names}`, referrers: input.live_referrers });
  }
  const cycle = blocked.find((c) => c.reason === 'DependencyCycle');
  if (cycle) out.push({ type: 'DependencyCycle', message: cycle.message ?? 'dependency cycle' });
  for (const other of blocked.filter((c) => !DEDICATED_REASONS.has(c.reason ?? ''))) {
    out.push({ type: 'DeletionBlocked', reason: other.reason ?? '', message: other.message ?? other.reason ?? 'deletion blocked' });
  }
  if (input.child_record_count > 0) {
    out.push({
      type: 'DependentsRemaining',
      message: `${input.child_record_count} dependent resource(s) still exist`,
      count: input.child_record_count,
      ids: input.child_ids,
    });
  }
  const timeout = input.deletion_timeout_seconds;
  if (timeout !== undefined) {
    const deadline = Date.parse(input.deleted_time) + timeout * 1000;
    if (Date.parse(input.now) >= deadline) {
      const since = new Date(deadline).toISOString();
      out.push({ type: 'TimedOut', message: `deletion timed out at ${since} (deletion_timeout_seconds ${timeout})`, since, timeout_seconds: timeout });
    }
  }
  return out;
}

/** `paused by <caller>: <reason>` (with where the pause comes from when it is not the resource's own). */
export function pauseMessage(pause: PauseMark): string {
  const base = `paused by ${pause.paused_by}: ${pause.reason}`;
  if (pause.source === 'self') return base;
  return `${base} (via ${pause.source} ${pause.resource.kind} '${pause.resource.id}')`;
}

/** The `AdapterNotFinalized` blocker of one adapter, from its last report (or none). */
export function adapterNotFinalizedBlocker(adapter: string, status: AdapterStatus | undefined, generation: number, heldByPause: boolean): Extract<FinalizingBlocker, { type: 'AdapterNotFinalized' }> {
  if (!status) {
    return { type: 'AdapterNotFinalized', adapter, reported: false, generation, held_by_pause: heldByPause, message: `${adapter}: no report yet` };
  }
  const pick = (type: string): BlockerCondition | undefined => {
    const c = status.conditions.find((x) => x.type === type);
    return c ? { status: c.status, ...(c.reason !== undefined ? { reason: c.reason } : {}), ...(c.message !== undefined ? { message: c.message } : {}) } : undefined;
  };
  const finalized = pick(ConditionType.Finalized);
  const health = pick(ConditionType.Health);
  // The unhealthy condition explains more than Finalized=False ("DeletionError: 403 Forbidden").
  const telling = health?.status === 'False' ? health : finalized;
  const detail =
    status.observed_generation < generation
      ? `last report at generation ${status.observed_generation}, deletion is generation ${generation}`
      : telling
        ? [telling.reason, telling.message].filter((s) => s !== undefined && s !== '').join(': ') || `Finalized=${finalized?.status ?? 'absent'}`
        : 'no Finalized condition reported';
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
    message: `${adapter}: ${detail}`,
  };
}
