import type { TaskConfig } from '../config/task-config.types.js';
import type { ResourceOperation } from '../executor/execution-result.js';

/** An adapter taking part in a plan. */
export interface PlanAdapter {
  readonly name: string;
  readonly version?: string;
  readonly task: TaskConfig;
  /** The `config` variable (raw deployment config), if any. */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** What one `lifecycle.delete.when` evaluated to in a pass. */
export type WhenResult = { readonly resource: string; readonly expression: string } & (
  { readonly value: unknown } | { readonly error: string }
);

/** One adapter's run in one pass. */
export interface AdapterPass {
  readonly adapter: string;
  readonly operations: readonly ResourceOperation[];
  readonly deleteWhen: readonly WhenResult[];
  readonly executionStatus: 'success' | 'failed';
  readonly errorMessage: string;
  readonly skipReason: string;
  /** The `Finalized` condition of the status the adapter would report, when it reports one. */
  readonly finalized?: { readonly status: string; readonly reason?: string };
}

export interface PlanPass {
  readonly number: number;
  readonly adapters: readonly AdapterPass[];
  /** Asynchronous deletions (Namespace, ManifestWork) assumed complete before the next pass. */
  readonly completedAfter: readonly string[];
}

/** Why deletion cannot finish (as of the last pass). */
export interface Blocker {
  readonly adapter: string;
  readonly resource?: string;
  readonly reason: string;
}

/**
 * The ordered deletion plan of one resource over all adapters: which objects go in which pass,
 * what each `lifecycle.delete.when` evaluated to, and what blocks.
 * `complete`: every adapter would report Finalized=True (or has nothing left); `blocked`: a pass
 * made no progress while something remains; `unfinished`: still progressing after `maxPasses`.
 */
export interface DeletionPlan {
  readonly resource: {
    readonly id: string;
    readonly kind: string;
    readonly href?: string;
    readonly generation?: number;
    readonly deleted_time?: string;
  };
  readonly passes: readonly PlanPass[];
  readonly outcome: 'complete' | 'blocked' | 'unfinished';
  readonly blockers: readonly Blocker[];
}
