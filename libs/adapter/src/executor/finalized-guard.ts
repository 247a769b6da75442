import type { ExecutionContext } from './execution-context.js';

/** Operations that write a desired state (as opposed to deleting or leaving in place). */
const APPLY_OPERATIONS = new Set(['create', 'update', 'recreate', 'adopt']);

/** Reason put on a `Finalized=True` the executor withholds. */
export const INCOMPLETE_PASS_REASON = 'IncompletePass';

/**
 * Why this execution is not a complete, successful pass (`undefined` when it is): the resource
 * phase ran to the end without error and nothing failed so far.
 */
export function incompletePass(ctx: ExecutionContext): string | undefined {
  const adapter = ctx.adapterMetadata();
  const resources = ctx.recorder.phases.find((p) => p.phase === 'resources');
  if (adapter.executionStatus !== 'success') return `execution failed (${adapter.errorReason}: ${adapter.errorMessage})`;
  if (!resources) return 'the resource phase did not run';
  if (resources.status !== 'success') return `the resource phase ${resources.status}`;
  if (adapter.resourcesSkipped) return `resources were skipped (${adapter.skipReason})`;
  // Finalized never coexists with an apply of the same adapter and resource (seed 004): the job
  // queue runs one adapter per resource at a time, and an apply in this very pass rules it out.
  const applied = ctx.recorder.operations.filter((o) => APPLY_OPERATIONS.has(o.operation)).map((o) => `${o.operation} ${o.resource}`);
  if (applied.length > 0) return `objects were applied in this pass (${applied.join(', ')})`;
  return undefined;
}

/**
 * Decom's guard: a status payload may only say `Finalized=True` after a complete, successful
 * pass. A built payload whose `conditions[]` holds `{type: Finalized, status: True}` in any other
 * execution gets `status: False`, reason `IncompletePass` and the cause as message, whatever the
 * config's expression said (HyperFleet trusts the expression; a config that forgets to check
 * `adapter.executionStatus` would report a false Finalized after a failed discovery).
 * `failedFields`: value definitions of this payload that failed to evaluate (each became null).
 * @returns the payload (a changed copy when downgraded) and the cause, if downgraded.
 * @see docs/adapter-expression-context.md rule 13.
 */
export function guardFinalized(
  payload: unknown,
  ctx: ExecutionContext,
  failedFields: readonly string[] = [],
): { payload: unknown; withheld?: string } {
  const conditions = (payload as { conditions?: unknown } | null)?.conditions;
  if (!Array.isArray(conditions)) return { payload };
  const index = conditions.findIndex(
    (c) => (c as { type?: unknown })?.type === 'Finalized' && (c as { status?: unknown }).status === 'True',
  );
  if (index === -1) return { payload };
  // A field of this payload that failed to evaluate (now null) never lets Finalized=True through.
  const cause = incompletePass(ctx) ?? (failedFields.length > 0 ? `a payload field failed to evaluate (${failedFields[0]})` : undefined);
  if (cause === undefined) return { payload };
  const guarded = [...conditions];
  guarded[index] = {
    ...(conditions[index] as object),
    status: 'False',
    reason: INCOMPLETE_PASS_REASON,
    message: `Finalized withheld: ${cause}`,
  };
  return { payload: { ...(payload as object), conditions: guarded }, withheld: cause };
}
