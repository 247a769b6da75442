/**
 * Loads a resource tree (fold of its stream) and appends decided events with optimistic concurrency.
 * The only writer of the event store (STYLE §3): handlers go through `decideAndAppend`.
 */
import {
  RESOURCE_EVENT_SCHEMA_VERSION,
  fold,
  isResourceEvent,
  upcastResourceEvent,
  type ResourceEvent,
  type TreeState,
} from '@decom/domain';
import {
  ConcurrencyConflict,
  type EventStore,
  type RecordedEvent,
} from '@decom/event-store';
import { randomUUID } from 'node:crypto';

/** Conflicting appends are re-decided at most this many times; `decide` is pure so this is safe. */
export const MAX_CONFLICT_RETRIES = 8;

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
  /** Request/trace id (problem details `trace_id`). */
  readonly traceId?: string;
  /** When set, no retry: the caller's `If-Match` revision must hold. */
  readonly expectedRevision?: number;
}

export class ResourceTreeRepository {
  constructor(private readonly store: EventStore) {}

  async load(stream: string): Promise<LoadedTree> {
    const recorded = await this.store.readStream(stream);
    const events = recorded.filter(isResourceEvent).map(toDomainEvent);
    return { state: fold(events), revision: recorded.length === 0 ? -1 : recorded[recorded.length - 1]!.revision };
  }

  /**
   * Loads `stream`, runs `decideFn`, appends its events expecting the loaded revision; on a
   * `ConcurrencyConflict` it re-loads and decides again (bounded). Domain errors propagate unchanged.
   * @throws ConcurrencyConflict after MAX_CONFLICT_RETRIES, or at once when `context.expectedRevision` is given.
   */
  async decideAndAppend(
    stream: string,
    decideFn: (state: TreeState) => ResourceEvent[],
    context: AppendContext,
  ): Promise<DecisionOutcome> {
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await this.load(stream);
      const events = decideFn(state);
      if (events.length === 0) return { events, state, before: state };
      const expected = context.expectedRevision ?? (revision < 0 ? 'no_stream' : revision);
      try {
        const result = await this.store.append(
          stream,
          events.map((e) => ({
            id: randomUUID(),
            type: e.type,
            data: e.data,
            metadata: {
              caller: context.caller,
              ...(context.traceId ? { trace_id: context.traceId } : {}),
              schema_version: RESOURCE_EVENT_SCHEMA_VERSION,
            },
          })),
          { expectedRevision: expected },
        );
        return { events, state: fold(events, state), before: state, position: result.position };
      } catch (error) {
        const retry = error instanceof ConcurrencyConflict && context.expectedRevision === undefined && attempt < MAX_CONFLICT_RETRIES;
        if (!retry) throw error;
      }
    }
  }
}

/** A stored event in today's shape (older shapes are upcast: docs/event-versioning.md). */
export function toDomainEvent(recorded: RecordedEvent): ResourceEvent {
  return upcastResourceEvent(recorded);
}
