/** DI tokens of the API's runtime collaborators (built by the engine's composition root). */
import type { ReadinessReport } from '@decom/health';

export const READ_SIDE = Symbol('ReadSide');
export const CLOCK = Symbol('Clock');
export const ID_GENERATOR = Symbol('IdGenerator');
export const API_OPTIONS = Symbol('ApiOptions');
export const ACCESS_POLICY = Symbol('AccessPolicy');

export const READINESS = Symbol('Readiness');

/** Read-your-writes: resolves once the projections applied `position`. */
export interface ReadSide {
  waitFor(position: number): Promise<void>;
  /**
   * Why commands must be refused now (503), or undefined when they may run: the projections are recovering
   * or failing (the event store or read-model database is unavailable).
   */
  writeRefusal?(): string | undefined;
  /**
   * True while the read models apply the backlog found at start (a restart behind the log). Commands run
   * meanwhile (they decide from the event store); their answers come from the decided state at once, since
   * waiting for the read side would mean waiting for the whole backlog.
   */
  catchingUp?(): boolean;
  /**
   * Resolves once the read models applied every event committed before the call (head read now): exact
   * decisions that must read a read model (delete guard's referrers, `references` targets) call it first.
   */
  catchUp?(): Promise<void>;
}

export type { ReadinessReport } from '@decom/health';

export interface Readiness {
  check(): Promise<ReadinessReport>;
}

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A new lowercase UUID v7 (time-ordered, the form HyperFleet's ids take). */
  next(): string;
}

export interface ApiOptions {
  /** Identities allowed to force-delete; empty = everyone (authentication disabled). */
  readonly admins: readonly string[];
  /** Browser origins allowed cross-origin (`*` = any); absent or empty = CORS off (`DECOM_CORS_ORIGINS`). */
  readonly corsOrigins?: readonly string[];
  /** Decom's version (OpenAPI `info.version`); default 0.0.0. */
  readonly version?: string;
}

export const DEAD_LETTERS = Symbol('DeadLetters');

/**
 * The job queue's dead-letter set (`JobQueue.failed()`/`retry()`/`queueNames()`) and which queues have a
 * consumer, for the finalizing blockers and `/api/decom/v1/jobs`; empty when not wired.
 */
export interface DeadLetterSource {
  /** Dead letters, of one queue when given. `data` is the job's payload (absent in sources that keep none). */
  list(queue?: string): Promise<readonly (import('@decom/domain').DeadLetter & { readonly data?: unknown })[]>;
  /** Moves a dead letter back with fresh attempts; false when the queue has no such failed job. Absent = not retryable here. */
  retry?(queue: string, id: string): Promise<boolean>;
  /** The queues the store knows, sorted. */
  queues?(): Promise<string[]>;
  /**
   * Sorted names of the queues some process consumes now (`JobQueue.queueConsumers`, kept a few seconds);
   * absent where every dispatched queue is consumed by construction (the in-process queue).
   */
  consumedQueues?(): Promise<readonly string[]>;
  /** Whether the queue answers now (absent = always: the in-process queue). The calls above throw `QueueUnavailable` meanwhile. */
  availability?(): import('@decom/jobs').QueueAvailability;
}

export const OPERATOR_LOG = Symbol('OperatorLog');

/**
 * Where operator actions that are not resource decisions (a dead-lettered job sent back) are logged at
 * info, with the verified caller: the engine's JSON log (pino's `info(fields, message)` fits).
 */
export interface OperatorLog {
  info(fields: Record<string, unknown>, message: string): void;
}

export const AUDIT_LOG = Symbol('AuditLog');

/** The `audit_log` read model (force deletes / orphans), newest first. */
export interface AuditLog {
  list(options: {
    types?: readonly import('@decom/projections').AuditType[];
    limit: number;
  }): Promise<import('@decom/projections').AuditEntry[]>;
}

export const DELETION_BUDGETS = Symbol('DeletionBudgets');

/** `limits.deletions` (kind or `*` → budget) and where budget checks are counted; no budgets when absent. */
export interface DeletionBudgetSettings {
  readonly budgets?: Readonly<Record<string, { readonly max_in_flight?: number; readonly max_per_hour?: number }>>;
  readonly metrics?: {
    readonly deletionBudgetChecks: { inc(labels: { kind: string; outcome: 'allowed' | 'refused' | 'overridden' }): void };
    readonly deletionBudgetUsed: { set(labels: { kind: string; budget: 'in_flight' | 'per_hour' }, value: number): void };
    readonly deletionBudgetLimit: { set(labels: { kind: string; budget: 'in_flight' | 'per_hour' }, value: number): void };
  };
}

export const BREAK_GLASS_REQUESTS = Symbol('BreakGlassRequests');

/** The break-glass approval queue (`break_glass_requests` read model); empty when absent. */
export interface BreakGlassRequests {
  /** Newest first; `status` at `now` (a pending request past `expires_at` is Expired), at most `limit`. */
  list(options: {
    status?: import('@decom/domain').BreakGlassStatus;
    limit: number;
    now: Date;
  }): Promise<import('@decom/projections').BreakGlassRequestJson[]>;
  get(requestId: string, now: Date): Promise<import('@decom/projections').BreakGlassRequestJson | undefined>;
}
