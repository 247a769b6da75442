/**
 * Verify before hard delete: for the adapters Decom hosts, a `Finalized=True` is not taken on trust. Before
 * `HardDeleted` the hard-delete job lists, by ownership (`decom.io/owner-id` label, `decom.io/owner` annotation),
 * the objects each such adapter created or adopted for the resource; while one remains (a terminating one
 * included), or while that listing could not be made, the resource stays Finalizing and its `LeftoverObjects` /
 * `CleanupUnverified` blockers name why. The job gathers the facts (`CleanupCheck`); the rule is here.
 * Abandoned adapters and force delete bypass it (they record a leak inventory instead, leaks.ts); adapters
 * Decom does not host (HyperFleet adapters reporting over HTTP) are never verified: their objects are not
 * discoverable by Decom. A kind with `verify_cleanup: false` is not verified at all, nor is a deletion whose
 * effective policy is `Orphan`: its adapters leave their objects by design (seed 003), and when they could not
 * release them (Kubernetes unreachable) the `Orphaned` event says so; holding the hard delete for objects meant
 * to stay would turn an Orphan deletion into one that waits for Kubernetes.
 * @see docs/policies.md "Verify before hard delete".
 */
import type { KindRegistry } from './kinds.js';
import { requiredAdaptersOf } from './required-adapters.js';
import type { ResourceState, TreeState } from './resource.state.js';
import { effectiveDeletionPolicy } from './policies.js';
import type { DeletionStatusBlocker } from './blocker-vocabulary.js';
import type { CleanupCheck, LeftoverObject, RecordedLeftovers, UnverifiedAdapter } from './leftover-object.js';

export type { CleanupCheck, LeftoverObject, RecordedLeftovers, UnverifiedAdapter } from './leftover-object.js';

/**
 * The adapters whose cleanup must be verified before `resource` is hard-deleted: its deletion's frozen
 * required set that this installation hosts (`hosted`), less the abandoned ones; none when its kind says
 * `verify_cleanup: false` or its effective deletion policy (`tree`: the tree it lives in) is `Orphan`.
 */
export function adaptersToVerify(tree: TreeState, resource: ResourceState, kinds: KindRegistry, hosted: readonly string[]): string[] {
  if (kinds.find(resource.kind)?.verify_cleanup === false) return [];
  if (effectiveDeletionPolicy(tree, resource) === 'Orphan') return [];
  const abandoned = resource.abandoned_adapters ?? {};
  return requiredAdaptersOf(resource, kinds)
    .filter((a) => hosted.includes(a) && abandoned[a] === undefined)
    .sort();
}

/**
 * `clean`: the check covers every adapter and found nothing; `leftovers`: it found objects or could not list an
 * adapter; `missing`: no check covering every adapter came with the command (the tree changed since the job
 * looked; the next check gathers it).
 */
export type CleanupVerdict = 'clean' | 'leftovers' | 'missing';

export function cleanupVerdict(check: CleanupCheck | undefined, adapters: readonly string[]): CleanupVerdict {
  if (adapters.length === 0) return 'clean';
  if (!check || adapters.some((a) => !check.adapters.includes(a))) return 'missing';
  return check.objects.length === 0 && check.unverified.length === 0 ? 'clean' : 'leftovers';
}

/** Same objects and same unverified adapters (reasons included) as recorded: nothing new to record. */
export function sameLeftovers(recorded: RecordedLeftovers | undefined, check: CleanupCheck): boolean {
  if (!recorded) return false;
  const key = (o: LeftoverObject) => `${o.adapter} ${o.apiVersion} ${o.kind} ${o.namespace ?? ''} ${o.name} ${o.terminating ? 't' : ''}`;
  const objects = (list: readonly LeftoverObject[]) => list.map(key).sort().join('\n');
  const unverified = (list: readonly UnverifiedAdapter[]) =>
    list
      .map((u) => `${u.adapter} ${u.reason}`)
      .sort()
      .join('\n');
  return objects(recorded.objects) === objects(check.objects) && unverified(recorded.unverified) === unverified(check.unverified);
}

/** `validation: ConfigMap ns/cm (terminating)`. */
export function describeLeftover(object: LeftoverObject): string {
  return `${object.adapter}: ${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}${object.terminating ? ' (terminating)' : ''}`;
}

/**
 * The blockers a recorded verification gives: `CleanupUnverified` naming each adapter that could not be listed
 * and why, then `LeftoverObjects` naming each object (`3 object(s) ... : validation: ConfigMap ns/cm (terminating), ...`).
 */
export function leftoverBlockers(recorded: RecordedLeftovers): DeletionStatusBlocker[] {
  const out: DeletionStatusBlocker[] = [];
  if (recorded.unverified.length > 0) {
    const described = recorded.unverified.map((u) => `${u.adapter} (${u.reason})`).join(', ');
    out.push({
      type: 'CleanupUnverified',
      message: `cleanup not verified for ${described} at ${recorded.checked_time}: the hard delete waits until the objects can be listed`,
      adapters: recorded.unverified,
      checked_time: recorded.checked_time,
    });
  }
  if (recorded.objects.length > 0) {
    out.push({
      type: 'LeftoverObjects',
      message: `${recorded.objects.length} object(s) still carry this resource's ownership marker at ${recorded.checked_time}, although their adapters reported Finalized=True: ${recorded.objects.map(describeLeftover).join(', ')}; the hard delete waits until they are gone`,
      objects: recorded.objects,
      checked_time: recorded.checked_time,
    });
  }
  return out;
}
