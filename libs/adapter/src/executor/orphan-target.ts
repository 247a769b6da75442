import type { KubeObject, ResourceTransport } from '../transport/resource-transport.port.js';
import { TransportError, isConnectionFailure } from '../transport/transport-error.js';
import { leaveForeign } from './delete-target.js';
import { namespaceGoneNote, recordKeptInNamespace } from './kept-in-namespace.js';
import type { ExecutionContext } from './execution-context.js';
import { discoverOwned } from './owned-discovery.js';
import { findOwnedStrays } from './owned-strays.js';
import { RELEASED_BY_ANNOTATION, RELEASED_FROM_ANNOTATION, RELEASED_TIME_ANNOTATION, withoutOwnershipMarks } from './ownership.js';

/**
 * Records a released namespaced object on its Namespace (kept-in-namespace.ts), within the orphan path's bound.
 * Kubernetes targets only: a Maestro target's Namespace lives on the managed cluster, behind ManifestWorks.
 * @returns the note for the messages, and whether the object is at risk (not recorded: its Namespace may take it).
 */
async function recordOnNamespace(
  target: Target,
  released: KubeObject,
  release: Release,
  budget: OrphanBudget,
): Promise<{ note: string; atRisk: boolean } | undefined> {
  if (target.consumer) return undefined;
  const result = await recordKeptInNamespace(target.transport, released, release.mark, release.time, (call, what) =>
    bounded(call, budget.callTimeoutMs, what),
  );
  return result && { note: result.note, atRisk: !result.recorded };
}

/** A copy of `object` carrying the release marker of `release`. */
function withReleaseMarker(object: KubeObject, release: Release): KubeObject {
  const annotations = {
    ...object.metadata.annotations,
    [RELEASED_FROM_ANNOTATION]: release.mark,
    [RELEASED_TIME_ANNOTATION]: release.time,
    ...(release.by && { [RELEASED_BY_ANNOTATION]: release.by }),
  };
  return { ...object, metadata: { ...object.metadata, annotations } };
}
import { describeObject, errorMessage, operation } from './resource-operation.js';
import { remember, type Target } from './resource-target.js';

/** How long one orphan call may take, and which clusters already proved unreachable in this pass. */
export interface OrphanBudget {
  readonly callTimeoutMs: number;
  /** Transport → first connection error: later objects on it are not tried again this pass. */
  readonly unreachable: Map<ResourceTransport, string>;
}

/** What happened to one orphaned resource. */
export type OrphanResult =
  | { readonly kind: 'unmarked'; readonly object: string; readonly inNamespace?: { readonly note: string; readonly atRisk: boolean } }
  | { readonly kind: 'marks-kept'; readonly resource: string; readonly cause: string }
  | { readonly kind: 'absent'; readonly lost?: string }
  | { readonly kind: 'foreign' };

/**
 * Bounds a cluster call. The client's own timeouts are not always configured (a black-holed
 * server could hang the pass), and an orphan must finish without a live connection; the late
 * answer of a timed-out call is ignored.
 */
async function bounded<T>(call: () => Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransportError('Timeout', `${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([call(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Who released an object, and when, for its release marker (ownership.ts). */
export interface Release {
  readonly mark: string;
  readonly time: string;
  readonly by?: string;
}

/**
 * Removes the marks and leaves the release marker, re-reading once when someone else
 * changed the object in between (409).
 */
async function unmark(target: Target, object: KubeObject, budget: OrphanBudget, release: Release): Promise<string[]> {
  let current = object;
  for (let attempt = 1; ; attempt++) {
    const { object: stripped, removed } = withoutOwnershipMarks(current);
    if (removed.length === 0) return removed;
    const released = withReleaseMarker(stripped, release);
    try {
      await bounded(() => target.transport.replace(released), budget.callTimeoutMs, `unmark ${describeObject(current)}`);
      return removed;
    } catch (error) {
      if (attempt > 1 || !(error instanceof TransportError && error.reason === 'Conflict')) throw error;
      const again = (await bounded(() => discoverOwned(target, release.mark), budget.callTimeoutMs, `discover ${target.spec.name}`)).owned;
      if (!again) return [];
      current = again;
    }
  }
}

/**
 * Orphan path of one resource (seed 003): never deletes. Best effort, bounded: find our object,
 * remove Decom's ownership marks (ownership.ts) with a replace, and leave it in place. When the
 * cluster cannot be reached (or refuses), the object is still left in place and the cause is
 * recorded (`OrphanMarksKept`); the pass does not fail. The resource counts as absent for CEL
 * afterwards, so a config's `Finalized` expression sees nothing left to clean up.
 * @param why `deletion_policy Orphan` or `lifecycle.delete.policy Orphan`, for messages.
 */
export async function orphanTarget(ctx: ExecutionContext, target: Target, budget: OrphanBudget, why: string): Promise<OrphanResult> {
  const name = target.spec.name;
  const known = budget.unreachable.get(target.transport);
  try {
    if (known !== undefined)
      throw new TransportError('ConnectionFailure', `not tried: the cluster was unreachable earlier in this pass (${known})`);
    const found = await bounded(() => discoverOwned(target, ctx.ownerMark), budget.callTimeoutMs, `discover ${name}`);
    if (!found.owned) {
      if (found.foreign) {
        leaveForeign(ctx, target, found.foreign, `left in place (${why}), not touched`);
        return { kind: 'foreign' };
      }
      remember(ctx, target, undefined);
      const lost = target.consumer
        ? undefined
        : await namespaceGoneNote(target.transport, target.desired.metadata.namespace, (call, what) =>
            bounded(call, budget.callTimeoutMs, what),
          );
      ctx.recorder.operation(
        operation(target, target.desired, 'orphan', `${why}: nothing to leave in place (not found)${lost ? `; ${lost}` : ''}`),
      );
      if (lost) {
        ctx.recorder.log({
          level: 'warning',
          message: `${name}: ${describeObject(target.desired)} not found: ${lost}`,
          where: target.spec.where,
        });
        return { kind: 'absent', lost: `${describeObject(target.desired)} not found: ${lost}` };
      }
      return { kind: 'absent' };
    }
    const release: Release = {
      mark: ctx.ownerMark,
      time: ctx.inputs.now().toISOString(),
      ...(ctx.resourcePolicy.deletedBy && { by: ctx.resourcePolicy.deletedBy }),
    };
    const removed = await unmark(target, found.owned, budget, release);
    remember(ctx, target, undefined);
    const inNamespace = await recordOnNamespace(target, found.owned, release, budget);
    const text = `left in place (${why}); removed ${removed.length > 0 ? `${removed.join(', ')}; release marker ${RELEASED_FROM_ANNOTATION}: ${ctx.ownerMark} added` : 'nothing (no marks left)'}${inNamespace ? `; ${inNamespace.note}` : ''}`;
    if (inNamespace?.atRisk)
      ctx.recorder.log({
        level: 'warning',
        message: `${name}: ${describeObject(found.owned)} ${inNamespace.note}`,
        where: target.spec.where,
      });
    ctx.recorder.operation(operation(target, found.owned, 'orphan', text));
    ctx.recorder.policyOutcome({
      resource: name,
      outcome: 'Orphaned',
      message: `${describeObject(found.owned)} ${text}`,
      kind: found.owned.kind,
      name: found.owned.metadata.name,
      ...(found.owned.metadata.namespace && { namespace: found.owned.metadata.namespace }),
    });
    return { kind: 'unmarked', object: describeObject(found.owned), ...(inNamespace && { inNamespace }) };
  } catch (error) {
    const cause = errorMessage(error);
    if (isConnectionFailure(error) && known === undefined) budget.unreachable.set(target.transport, cause);
    remember(ctx, target, undefined);
    const text = `left in place (${why}); ownership marks not removed: ${cause}`;
    ctx.recorder.operation(operation(target, target.desired, 'orphan', text));
    ctx.recorder.policyOutcome({
      resource: name,
      outcome: 'OrphanMarksKept',
      message: text,
      kind: target.desired.kind,
      name: target.desired.metadata.name,
      ...(target.desired.metadata.namespace && { namespace: target.desired.metadata.namespace }),
    });
    ctx.recorder.log({ level: 'warning', message: `${name}: ${text}`, where: target.spec.where });
    return { kind: 'marks-kept', resource: name, cause };
  }
}

/** The `Finalized=True/Orphaned` message of a pass that orphaned everything. */
export function orphanedMessage(why: string, results: readonly OrphanResult[]): string {
  const unmarked = results.flatMap((r) => (r.kind === 'unmarked' ? [r.object] : []));
  const kept = results.flatMap((r) => (r.kind === 'marks-kept' ? [r] : []));
  const parts = [`Left in place (${why})`];
  if (unmarked.length > 0) parts.push(`Decom's ownership marks removed from ${unmarked.join(', ')}`);
  if (kept.length > 0)
    parts.push(`ownership marks could not be removed from ${kept.map((k) => k.resource).join(', ')} (${kept[0]!.cause})`);
  const lost = results.flatMap((r) => (r.kind === 'absent' && r.lost ? [r.lost] : []));
  if (unmarked.length === 0 && kept.length === 0 && lost.length === 0) parts.push('no object of this adapter was found');
  parts.push(...lost);
  // Where each namespaced object was recorded for its Namespace's owner, or why it may go with the Namespace.
  parts.push(...results.flatMap((r) => (r.kind === 'unmarked' && r.inNamespace ? [`${r.object} ${r.inNamespace.note}`] : [])));
  return parts.join('; ');
}

/**
 * Discovery by ownership on the orphan path: objects of the target's kind still carrying this
 * resource's and adapter's marker under another name or generation are released too (marks removed, release
 * marker added), so nothing stays marked as owned by a resource that is gone. Best effort and bounded like
 * the rest of the orphan path; an unreachable cluster is not tried again.
 * @returns the objects released (`kind ns/name`, and whether their Namespace may take them).
 */
export async function orphanStrays(
  ctx: ExecutionContext,
  target: Target,
  budget: OrphanBudget,
  why: string,
  claimed: readonly KubeObject[],
): Promise<OrphanResult[]> {
  if (budget.unreachable.has(target.transport)) return [];
  const released: OrphanResult[] = [];
  try {
    const strays = await bounded(
      () => findOwnedStrays(target, ctx.ownerMark, claimed),
      budget.callTimeoutMs,
      `discover by ownership ${target.spec.name}`,
    );
    const release: Release = {
      mark: ctx.ownerMark,
      time: ctx.inputs.now().toISOString(),
      ...(ctx.resourcePolicy.deletedBy && { by: ctx.resourcePolicy.deletedBy }),
    };
    for (const stray of strays) {
      const removed = await unmark(target, stray, budget, release);
      const inNamespace = await recordOnNamespace(target, stray, release, budget);
      const text = `left in place (${why}), under another name or generation (discovery by ownership); removed ${removed.join(', ') || 'nothing'}; release marker ${RELEASED_FROM_ANNOTATION}: ${ctx.ownerMark} added${inNamespace ? `; ${inNamespace.note}` : ''}`;
      ctx.recorder.operation(operation(target, stray, 'orphan', text));
      released.push({ kind: 'unmarked', object: describeObject(stray), ...(inNamespace && { inNamespace }) });
    }
  } catch (error) {
    const cause = errorMessage(error);
    if (isConnectionFailure(error)) budget.unreachable.set(target.transport, cause);
    ctx.recorder.log({
      level: 'warning',
      message: `${target.spec.name}: objects under other names not released: ${cause}`,
      where: target.spec.where,
    });
  }
  return released;
}
