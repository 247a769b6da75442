import { createHash } from 'node:crypto';
import type { KubeObject, ResourceTransport } from '../transport/resource-transport.port.js';
import { TransportError } from '../transport/transport-error.js';
import type { ExecutionContext } from './execution-context.js';
import {
  OWNER_ANNOTATION,
  RELEASED_BY_ANNOTATION,
  RELEASED_FROM_ANNOTATION,
  RELEASED_TIME_ANNOTATION,
  withoutOwnershipMarks,
} from './ownership.js';
import { describeObject, errorMessage, failCall, operation } from './resource-operation.js';
import { remember, type Target } from './resource-target.js';

/**
 * Orphan inside a namespace another adapter deletes (docs/policies.md "Orphan inside a namespace another
 * adapter deletes"). Kubernetes deletes what a Namespace contains, so a namespaced object released by an
 * Orphan deletion (orphan-target.ts) would be deleted anyway by the adapter that owns its Namespace (the
 * shipped layout: `np-configmap`'s ConfigMap inside `validation`'s Namespace).
 *
 * Why the decision is taken here, in the adapters, and not by refusing the DELETE at the API: adapters are
 * independent processes (HyperFleet); the API does not know external adapters' task configs, nor which
 * namespace an object will render into, nor whether the object even exists. The cluster is the one place
 * both adapters see truthfully. So:
 * - the releasing adapter records each namespaced object it releases on that object's Namespace, one
 *   annotation per object (`kept.decom.io/<hash>`, a JSON `KeptRecord`);
 * - the adapter that owns the Namespace, about to delete it, reads those records; while one names an object
 *   that still exists it does not delete the Namespace: it releases it too (ownership marks removed, release
 *   marker added) and reports it (`policy.outcomes` and its `Finalized=True` message name the Namespace and
 *   the kept objects).
 * Order: when the release runs first (the shipped `Foreground` cluster deletion always does: the nodepool's
 * adapters run before the cluster's), the record is there before the namespace owner looks. When the
 * namespace owner runs first (`Background`), the Namespace may already be terminating when the release
 * comes: Kubernetes then deletes the released object with it, and the releasing adapter says so in its
 * outcome and `Finalized` message (never silently) — that window is not closed.
 * The `kept.decom.io/` prefix is outside `decom.io/`, so releasing the Namespace itself keeps the records:
 * they say why it is still there.
 */
export const KEPT_ANNOTATION_PREFIX = 'kept.decom.io/';

/** One released object recorded on its Namespace (the annotation's JSON value). */
export interface KeptRecord {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** The former owner mark (`<kind>/<id>/<adapter>`). */
  readonly releasedFrom: string;
  /** RFC 3339. */
  readonly releasedTime: string;
}

/** `kept.decom.io/<first 32 hex of sha256(apiVersion/kind/name)>`: a valid annotation name for any object name. */
function keptKey(apiVersion: string, kind: string, name: string): string {
  return `${KEPT_ANNOTATION_PREFIX}${createHash('sha256').update(`${apiVersion}/${kind}/${name}`).digest('hex').slice(0, 32)}`;
}

/** The records on a Namespace; a value that is not a record is kept as its raw text (it still keeps the Namespace). */
function keptRecords(namespace: KubeObject): (KeptRecord | string)[] {
  return Object.entries(namespace.metadata.annotations ?? {})
    .filter(([key]) => key.startsWith(KEPT_ANNOTATION_PREFIX))
    .map(([key, value]) => {
      try {
        const record = JSON.parse(value) as KeptRecord;
        return typeof record?.apiVersion === 'string' && typeof record.kind === 'string' && typeof record.name === 'string'
          ? record
          : `${key}: ${value}`;
      } catch {
        return `${key}: ${value}`;
      }
    });
}

/** A copy of `desired` carrying the `kept.decom.io/*` records of `existing` (an update of the Namespace never drops them). */
export function withKeptRecords(desired: KubeObject, existing: KubeObject | undefined): KubeObject {
  const kept = Object.entries(existing?.metadata.annotations ?? {}).filter(([key]) => key.startsWith(KEPT_ANNOTATION_PREFIX));
  if (kept.length === 0) return desired;
  return { ...desired, metadata: { ...desired.metadata, annotations: { ...Object.fromEntries(kept), ...desired.metadata.annotations } } };
}

/** Runs one cluster call within the caller's bound (orphan-target.ts `bounded`). */
export type BoundCall = <T>(call: () => Promise<T>, what: string) => Promise<T>;

/**
 * Releasing side: records `released` (just released from `releasedFrom` at `releasedTime`) on its Namespace,
 * so the Namespace's owner keeps it. Best effort, one retry on a 409. Never throws.
 * @returns `{recorded: true, note}` when the record is on the Namespace; otherwise `{recorded: false, note}`
 *   saying why and what it means (the Namespace is terminating or the record could not be written: the
 *   object goes with the Namespace if its owner deletes it). `undefined`: cluster-scoped, or a Namespace no
 *   Decom adapter owns (no `decom.io/owner`: no Decom deletion takes it).
 */
export async function recordKeptInNamespace(
  transport: ResourceTransport,
  released: KubeObject,
  releasedFrom: string,
  releasedTime: string,
  bound: BoundCall,
): Promise<{ recorded: boolean; note: string } | undefined> {
  const namespace = released.metadata.namespace;
  if (!namespace) return undefined;
  const ref = { apiVersion: 'v1', kind: 'Namespace', name: namespace };
  const record: KeptRecord = {
    apiVersion: released.apiVersion,
    kind: released.kind,
    name: released.metadata.name,
    releasedFrom,
    releasedTime,
  };
  const key = keptKey(record.apiVersion, record.kind, record.name);
  try {
    for (let attempt = 1; ; attempt++) {
      const current = await bound(() => transport.get(ref), `read Namespace ${namespace}`);
      if (!current) return { recorded: false, note: `its Namespace ${namespace} was not found` };
      if (current.metadata.deletionTimestamp) {
        return {
          recorded: false,
          note: `LOST: its Namespace ${namespace} is being deleted (since ${current.metadata.deletionTimestamp}); Kubernetes deletes this object with it`,
        };
      }
      // Decom deletes only what carries its owner marker: a Namespace without one (another tool's, or one
      // already released, e.g. by this very pass) is never deleted by an adapter, so there is nothing to record.
      if (current.metadata.annotations?.[OWNER_ANNOTATION] === undefined) return undefined;
      // Owned by the very resource and adapter releasing this object: it is releasing its Namespace in this
      // pass too (the orphan path never deletes), so no other owner needs telling.
      if (current.metadata.annotations[OWNER_ANNOTATION] === releasedFrom) return undefined;
      const recordedNote = {
        recorded: true,
        note: `recorded on its Namespace ${namespace} (${key}), so the Namespace's owner keeps the Namespace`,
      };
      if (current.metadata.annotations?.[key] !== undefined) return recordedNote;
      const annotations = { ...current.metadata.annotations, [key]: JSON.stringify(record) };
      try {
        await bound(
          () => transport.replace({ ...current, metadata: { ...current.metadata, annotations } }),
          `record on Namespace ${namespace}`,
        );
        return recordedNote;
      } catch (error) {
        if (attempt > 1 || !(error instanceof TransportError && error.reason === 'Conflict')) throw error;
      }
    }
  } catch (error) {
    return {
      recorded: false,
      note: `not recorded on its Namespace ${namespace} (${errorMessage(error)}): if the Namespace's owner deletes it, this object goes with it`,
    };
  }
}

/**
 * Releasing side, object not found: when its Namespace is gone or terminating, Kubernetes most likely deleted
 * the object with it (the Namespace's owner ran first, e.g. `Background` propagation), and the message must
 * say so rather than "nothing to leave in place". Never throws.
 * @returns the note, or undefined (cluster-scoped, the Namespace is there, or it cannot be read).
 */
export async function namespaceGoneNote(
  transport: ResourceTransport,
  namespace: string | undefined,
  bound: BoundCall,
): Promise<string | undefined> {
  if (!namespace) return undefined;
  try {
    const current = await bound(
      () => transport.get({ apiVersion: 'v1', kind: 'Namespace', name: namespace }),
      `read Namespace ${namespace}`,
    );
    if (!current) return `LOST: its Namespace ${namespace} is gone; Kubernetes deleted what it held`;
    if (current.metadata.deletionTimestamp)
      return `LOST: its Namespace ${namespace} is being deleted (since ${current.metadata.deletionTimestamp}); Kubernetes deletes what it holds`;
    return undefined;
  } catch {
    return undefined;
  }
}

/**
 * Namespace owner's side, just before `target` (its object `current`) would be deleted: when `current` is a
 * Namespace whose records name objects that still exist, it is released instead (Decom's marks removed,
 * `decom.io/released-*` added, the records left), counts as absent, and the release is reported
 * (`policy.outcomes` `Orphaned`, trace `orphan`, and `verdicts.keptNamespaces` for the `Finalized` message).
 * A record whose object is gone no longer keeps the Namespace; a record that cannot be checked (read error)
 * or parsed does (never guess "gone").
 * @returns true when the Namespace was kept (the caller must not delete it) or the release failed (recorded
 *   as a resource error: nothing deleted, retried on the next pass); false: delete as usual.
 */
export async function keepNamespaceOfReleased(ctx: ExecutionContext, target: Target, current: KubeObject): Promise<boolean> {
  if (current.kind !== 'Namespace' || (current.apiVersion ?? 'v1') !== 'v1') return false;
  const records = keptRecords(current);
  if (records.length === 0) return false;
  const kept: string[] = [];
  for (const record of records) {
    if (typeof record === 'string') {
      kept.push(`unreadable record ${record}`);
      continue;
    }
    const what = `${record.kind} ${current.metadata.name}/${record.name} (released from ${record.releasedFrom})`;
    try {
      if (
        await target.transport.get({
          apiVersion: record.apiVersion,
          kind: record.kind,
          name: record.name,
          namespace: current.metadata.name,
        })
      )
        kept.push(what);
    } catch (error) {
      kept.push(`${what}, not checked: ${errorMessage(error)}`);
    }
  }
  if (kept.length === 0) return false;
  const { object: stripped, removed } = withoutOwnershipMarks(current);
  const annotations = {
    ...stripped.metadata.annotations,
    [RELEASED_FROM_ANNOTATION]: ctx.ownerMark,
    [RELEASED_TIME_ANNOTATION]: ctx.inputs.now().toISOString(),
    ...(ctx.resourcePolicy.deletedBy && { [RELEASED_BY_ANNOTATION]: ctx.resourcePolicy.deletedBy }),
  };
  try {
    await target.transport.replace({ ...stripped, metadata: { ...stripped.metadata, annotations } });
  } catch (error) {
    remember(ctx, target, current);
    failCall(
      ctx,
      target.spec.name,
      `not deleted, it holds objects an Orphan deletion released (${kept.join(', ')}); releasing it failed: ${errorMessage(error)}`,
      error,
    );
    ctx.recorder.operation(operation(target, current, 'blocked', `release failed: ${errorMessage(error)}`));
    return true;
  }
  remember(ctx, target, undefined);
  const summary = `${describeObject(current)} kept (released, not deleted): it holds ${kept.join(', ')}, which an Orphan deletion keeps and Kubernetes would delete with the Namespace`;
  const text = `${summary}; removed ${removed.join(', ') || 'nothing'}; release marker ${RELEASED_FROM_ANNOTATION}: ${ctx.ownerMark} added`;
  ctx.recorder.operation(operation(target, current, 'orphan', text));
  ctx.recorder.policyOutcome({
    resource: target.spec.name,
    outcome: 'Orphaned',
    message: text,
    kind: current.kind,
    name: current.metadata.name,
  });
  ctx.recorder.log({ level: 'warning', message: `${target.spec.name}: ${summary}`, where: target.spec.where });
  ctx.verdicts.keptNamespaces.push(summary);
  return true;
}
