/**
 * Loads a resource tree (fold of its stream) and appends decided events with optimistic concurrency.
 * The only writer of the event store: handlers go through `decideAndAppend`.
 */
import type { CallerAudit } from './command-context.js';
import {
  RESOURCE_EVENT_SCHEMA_VERSION,
  fold,
  nameReservationsOf,
  isResourceEvent,
  upcastResourceEvent,
  type ResourceEvent,
  type TreeState,
} from '@decom/domain';
import { ConcurrencyConflict, type EventStore, type RecordedEvent } from '@decom/event-store';
import { randomUUID } from 'node:crypto';
import { currentTrace } from '@decom/tracing';
import { setTimeout as sleep } from 'node:timers/promises';
import { TreeCache } from './tree-cache.js';

/** Conflicting appends are re-decided at most this many times; `decide` is pure so this is safe. */
export const MAX_CONFLICT_RETRIES = 8;
/**
 * Operator commands (DELETE, force-delete, force-orphan, pause) must not lose to adapter traffic on a busy
 * tree: they get more rounds, each after a short jittered pause so the writers spread out.
 */
export const OPERATOR_CONFLICT_RETRIES = 24;
/** Pause before re-deciding after a conflict: `attempt × CONFLICT_PAUSE_MS × (0.5..1.5)`, capped at 100 ms. */
const CONFLICT_PAUSE_MS = 5;

export interface LoadedTree {
  readonly state: TreeState;
  /** Revision of the stream's last event, or -1 when the stream does not exist. */
  readonly revision: number;
}

export interface DecisionOutcome {
  /** Events appended (empty when the decision recorded nothing). */
  readonly events: readonly ResourceEvent[];
  /** The tree after the decision. */
  readonly state: TreeState;
  /** The tree before the decision. */
  readonly before: TreeState;
  /** `$all` position of the last appended event; undefined when nothing was appended. */
  readonly position?: number;
}

export interface AppendContext {
  /** Who caused the append (stored in event metadata for the audit trail). */
  readonly caller: string;
  /** Issuer, subject and tenant of the verified caller (event metadata `caller_issuer`, `caller_subject`, `tenant`). */
  readonly audit?: CallerAudit;
  /** Request/trace id (problem details `trace_id`). */
  readonly traceId?: string;
  /** When set, no retry: the caller's `If-Match` revision must hold. */
  readonly expectedRevision?: number;
  /** Re-decisions after a conflict (default MAX_CONFLICT_RETRIES; operator commands OPERATOR_CONFLICT_RETRIES). */
  readonly maxConflictRetries?: number;
}

/** What was just appended, for logs and metrics (called after the append succeeded, never on a conflict). */
export interface AppendedDecision {
  readonly events: readonly ResourceEvent[];
  /** The tree before the decision (e.g. `deleted_time` of a resource a `HardDeleted` removes). */
  readonly before: TreeState;
  readonly caller: string;
  readonly traceId?: string;
  /** Latency of the successful `append`, in seconds. */
  readonly appendSeconds: number;
}

export type AppendObserver = (appended: AppendedDecision) => void;

export class ResourceTreeRepository {
  /**
   * `observe`: told about every successful append (transition log lines, metrics); must not throw.
   * `trees`: folded trees kept between commands (tree-cache.ts); `new TreeCache(0)` re-folds every stream.
   */
  constructor(
    private readonly store: EventStore,
    private readonly observe: AppendObserver = () => undefined,
    private readonly trees: TreeCache = new TreeCache(),
  ) {}

  /**
   * The tree of `stream` at its last event: the kept fold plus the events appended since (by any process),
   * or the whole stream folded when none is kept.
   */
  async load(stream: string): Promise<LoadedTree> {
    const kept = this.trees.get(stream);
    const recorded = await this.store.readStream(stream, kept ? { fromRevision: kept.revision + 1 } : {});
    if (kept && recorded.length > 0 && recorded[0]!.revision !== kept.revision + 1) {
      // Not the continuation of what is kept (cannot happen with a conforming store): fold it all again.
      this.trees.delete(stream);
      return this.load(stream);
    }
    if (kept && recorded.length === 0) return kept;
    const events = recorded.filter(isResourceEvent).map(toDomainEvent);
    const loaded = { state: fold(events, kept?.state), revision: recorded.length === 0 ? -1 : recorded[recorded.length - 1]!.revision };
    this.trees.put(stream, loaded);
    return loaded;
  }

  /**
   * Loads `stream`, runs `decideFn`, appends its events expecting the loaded revision; on a
   * `ConcurrencyConflict` it re-loads and decides again (bounded, jittered pause). Domain errors propagate
   * unchanged. Top-level names are reserved in the create's append and released in the hard delete's
   * (`nameReservationsOf`), so the store decides name uniqueness atomically.
   * @throws ConcurrencyConflict after the retries, or at once when `context.expectedRevision` is given.
   * @throws ReservationTaken when a created top-level name is held by another resource.
   */
  async decideAndAppend(stream: string, decideFn: (state: TreeState) => ResourceEvent[], context: AppendContext): Promise<DecisionOutcome> {
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await this.load(stream);
      const events = decideFn(state);
      if (events.length === 0) return { events, state, before: state };
      const expected = context.expectedRevision ?? (revision < 0 ? 'no_stream' : revision);
      // Work without a request (jobs) records the trace it runs in (@decom/tracing), if any.
      const traceId = context.traceId ?? currentTrace()?.traceId;
      const { reserve, release } = nameReservationsOf(events, state);
      try {
        const started = performance.now();
        const result = await this.store.append(
          stream,
          events.map((e) => ({
            id: randomUUID(),
            type: e.type,
            data: e.data,
            metadata: {
              caller: context.caller,
              ...(context.audit
                ? { caller_issuer: context.audit.issuer, caller_subject: context.audit.subject, tenant: context.audit.tenant }
                : {}),
              ...(traceId ? { trace_id: traceId } : {}),
              schema_version: RESOURCE_EVENT_SCHEMA_VERSION,
            },
          })),
          { expectedRevision: expected, ...(reserve.length > 0 ? { reserve } : {}), ...(release.length > 0 ? { release } : {}) },
        );
        const appendSeconds = (performance.now() - started) / 1000;
        const after = fold(events, state);
        this.trees.put(stream, { state: after, revision: result.nextExpectedRevision });
        try {
          this.observe({ events, before: state, caller: context.caller, ...(traceId ? { traceId } : {}), appendSeconds });
        } catch {
          // Observers log and count; a failing one must never fail a decision that is already recorded.
        }
        return { events, state: after, before: state, position: result.position };
      } catch (error) {
        const bound = context.maxConflictRetries ?? MAX_CONFLICT_RETRIES;
        const retry = error instanceof ConcurrencyConflict && context.expectedRevision === undefined && attempt < bound;
        if (!retry) throw error;
        await sleep(Math.min(100, (attempt + 1) * CONFLICT_PAUSE_MS) * (0.5 + Math.random()));
      }
    }
  }
}

/** A stored event in today's shape (older shapes are upcast: docs/event-versioning.md). */
export function toDomainEvent(recorded: RecordedEvent): ResourceEvent {
  return upcastResourceEvent(recorded);
}
