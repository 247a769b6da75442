import { DELETION_WAITS_FOR_UNPAUSE, HOLDING_DATA_KEY } from '@decom/domain';
import type { ExecutionContext } from './execution-context.js';
import type { ConditionOverride } from './execution-result.js';
import { incompletePass } from './finalized-guard.js';
import { CONNECTION_FAILURE_REASON } from './resource-operation.js';

/** Reasons of the conditions Decom's executor sets itself (docs/policies.md "Adapter side"). */
export const DecomReason = {
  /** Finalized=True: the adapter's objects were left in place (deletion_policy / lifecycle.delete.policy Orphan, force-orphan). */
  Orphaned: 'Orphaned',
  /** Finalized=False: the resource (or an ancestor) is paused; nothing was done. */
  DeletionPaused: 'DeletionPaused',
  /** Applied=False: AdoptIfMatching found an existing object that differs; nothing written. */
  AdoptionConflict: 'AdoptionConflict',
  /** Applied=False: FailIfExists found an existing object; nothing written. */
  AlreadyExists: 'AlreadyExists',
  /**
   * Applied=False: the existing object was released (orphaned) from another resource; adopted only under AdoptReleased.
   */
  Released: 'Released',
  /**
   * Applied=True: this pass adopted an existing object (it matched, or the manifest overwrote it: the message says
   * which fields).
   */
  Adopted: 'Adopted',
  /**
   * Applied=True: this pass adopted an existing object as it is; the message names each differing field with both
   * values.
   */
  AdoptedWithDrift: 'AdoptedWithDrift',
  /** Health=False: the cluster (Kubernetes or Maestro) could not be reached; the adapter keeps retrying. */
  ConnectionFailure: CONNECTION_FAILURE_REASON,
} as const;

type Condition = { type?: unknown; status?: unknown; reason?: unknown; message?: unknown } & Record<string, unknown>;
type Change = Omit<ConditionOverride, 'payload'>;

/** The conditions Decom's rules impose on this execution's status payloads, in order. */
function changesFor(ctx: ExecutionContext): Change[] {
  const changes: Change[] = [];
  const { verdicts } = ctx;
  if (verdicts.pausedHold)
    changes.push({ type: 'Finalized', status: 'False', reason: DecomReason.DeletionPaused, message: DELETION_WAITS_FOR_UNPAUSE });
  if (verdicts.orphaned !== undefined && incompletePass(ctx) === undefined) {
    changes.push({ type: 'Finalized', status: 'True', reason: DecomReason.Orphaned, message: verdicts.orphaned });
  }
  const refused = ctx.recorder.policyOutcomes.filter(
    (o) => o.outcome === 'AdoptionConflict' || o.outcome === 'AlreadyExists' || o.outcome === 'Released',
  );
  const adopted = ctx.recorder.policyOutcomes.filter((o) => o.outcome === 'Adopted' || o.outcome === 'AdoptedWithDrift');
  if (refused.length > 0) {
    changes.push({ type: 'Applied', status: 'False', reason: refused[0]!.outcome, message: refused.map((o) => o.message).join('; ') });
  } else if (adopted.length > 0 && ctx.adapterMetadata().executionStatus === 'success') {
    // Adoption is never silent: the report says what was taken over and what differed.
    const reason = adopted.some((o) => o.outcome === 'AdoptedWithDrift') ? DecomReason.AdoptedWithDrift : DecomReason.Adopted;
    changes.push({ type: 'Applied', status: 'True', reason, message: adopted.map((o) => o.message).join('; ') });
  }
  if (verdicts.connectionFailure !== undefined && ctx.adapterMetadata().executionStatus === 'failed') {
    changes.push({
      type: 'Health',
      status: 'False',
      reason: DecomReason.ConnectionFailure,
      message: `cannot reach the cluster, will retry: ${verdicts.connectionFailure}`,
    });
  }
  return changes;
}

/**
 * Decom's overrides of a built status payload (one whose `conditions` is a list), after the
 * Finalized guard: whatever the task config's expressions said, `Finalized` is False/DeletionPaused
 * while a pause holds the deletion and True/Orphaned after a complete orphaning pass; `Applied` is
 * False/AdoptionConflict or AlreadyExists when adoption was refused; `Health` is
 * False/ConnectionFailure when the cluster was unreachable. A condition the payload lacks is
 * added. A `Finalized=True` that left objects in place because they are not Decom's says so in
 * its message, and so does one that kept a Namespace for objects an Orphan deletion released
 * (kept-in-namespace.ts). Every change is recorded (`policy.overrides`).
 * @see docs/adapter-expression-context.md rule 14, docs/policies.md "Adapter side".
 */
export function applyStatusOverrides(payloadName: string, payload: unknown, ctx: ExecutionContext): unknown {
  const conditions = (payload as { conditions?: unknown } | null)?.conditions;
  if (!Array.isArray(conditions)) return payload;
  const result = [...(conditions as Condition[])];
  const record = (change: Change) => ctx.recorder.overrides.push({ payload: payloadName, ...change });
  for (const change of changesFor(ctx)) {
    const index = result.findIndex((c) => c?.type === change.type);
    const updated = { ...(index >= 0 ? result[index] : {}), ...change };
    if (index >= 0) result[index] = updated;
    else result.push(updated);
    record(change);
  }
  const attempt = ctx.inputs.attempt;
  const health = result.findIndex((c) => c?.type === 'Health' && c.status === 'False');
  if (attempt !== undefined && attempt > 1 && health >= 0) {
    // The persistent backoff's count: how long this has been failing, visible where operators look.
    const current = result[health] as Condition;
    const message = `${typeof current.message === 'string' && current.message !== '' ? `${current.message} ` : ''}(attempt ${attempt})`;
    result[health] = { ...current, message };
    record({ type: 'Health', status: 'False', reason: String(current.reason ?? ''), message });
  }
  const finalized = result.findIndex((c) => c?.type === 'Finalized' && c.status === 'True');
  const addToFinalized = (text: string) => {
    const current = result[finalized] as Condition;
    const message = `${typeof current.message === 'string' && current.message !== '' ? `${current.message}; ` : ''}${text}`;
    result[finalized] = { ...current, message };
    record({ type: 'Finalized', status: 'True', reason: String(current.reason ?? ''), message });
  };
  if (finalized >= 0 && ctx.verdicts.notOwned.length > 0) addToFinalized(`left in place, not Decom's: ${ctx.verdicts.notOwned.join(', ')}`);
  // Never silently: a Namespace kept for objects an Orphan deletion released is named with them.
  if (finalized >= 0 && ctx.verdicts.keptNamespaces.length > 0) addToFinalized(ctx.verdicts.keptNamespaces.join('; '));
  return withHolding({ ...(payload as object), conditions: result }, ctx);
}

/**
 * While deleting, the objects this pass waits on (deleted or already being deleted, still present: finalizers)
 * go into the report's free `data` under `holding`, next to whatever the task config put
 * there: `[{kind, namespace?, name, finalizers, deletion_timestamp}]`. The API keeps `data` with the report
 * and the deletion status names them (libs/domain holding.ts). A `data` that is not an object is left as the
 * config built it. Nothing is added when nothing holds (the payload is then exactly the config's).
 */
function withHolding(payload: Record<string, unknown>, ctx: ExecutionContext): Record<string, unknown> {
  const holding = ctx.verdicts.holding;
  if (!ctx.resourcePolicy.deleting || holding.length === 0) return payload;
  const data = payload.data;
  if (data !== undefined && data !== null && (typeof data !== 'object' || Array.isArray(data))) return payload;
  return { ...payload, data: { ...(data as Record<string, unknown> | null | undefined), [HOLDING_DATA_KEY]: holding } };
}
