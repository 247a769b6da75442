import type { AdoptionPolicy } from '../config/task-config.types.js';
import { GENERATION_ANNOTATION, generationOf } from '../transport/newest-generation.js';
import type { KubeObject } from '../transport/resource-transport.port.js';
import { describeDrift, manifestDifferences } from './manifest-match.js';
import { OWNER_ANNOTATION, RELEASED_BY_ANNOTATION, RELEASED_FROM_ANNOTATION, RELEASED_TIME_ANNOTATION, withOwner } from './ownership.js';
import { describeObject } from './resource-operation.js';

/** What the apply path does with an existing object that is not Decom's. */
export type AdoptionDecision =
  /** Take it over with one write (`write`, a full replace carrying the ownership marker). */
  | {
      readonly kind: 'adopt';
      readonly write: KubeObject;
      readonly reason: string;
      /**
       * Adoption record: `Adopted` (the object already matched, or was overwritten by the
       * manifest: `overwrote` names the fields), or `AdoptedWithDrift` (taken over as it is: `drift`
       * names each differing field with both values).
       */
      readonly record: 'Adopted' | 'AdoptedWithDrift';
      readonly drift?: readonly string[];
      readonly overwrote?: readonly string[];
    }
  /** Leave it alone, write nothing: `Applied=False` with `reason`. */
  | {
      readonly kind: 'refuse';
      readonly reason: 'AdoptionConflict' | 'AlreadyExists' | 'Released';
      readonly message: string;
      readonly differences?: readonly string[];
    };

/**
 * Decides the adoption of `existing` (not ours) for the rendered manifest `desired` (pure).
 * - `Adopt`: today's apply + the marker: a changed `hyperfleet.io/generation` replaces it with the
 *   manifest (never recreated: adoption does not delete), an equal one only gains the marker.
 * - `AdoptIfMatching`: adopt only when every field the manifest sets matches (manifest-match.ts);
 *   the write adds the marker and the manifest's generation annotation and keeps the object's
 *   other fields. Otherwise `AdoptionConflict` naming the differing fields.
 * - `FailIfExists`: `AlreadyExists`.
 * Whatever the policy, an object carrying another owner's `decom.io/owner` is never adopted
 * (`AlreadyExists`). An object carrying a release marker (`decom.io/released-from`: orphaned by a
 * deletion) is refused with `Released` naming the former owner, unless the policy is `AdoptReleased`
 * (which adopts as `Adopt` does and removes the release marker).
 * Every adoption says what differed (`record`, `drift`, `overwrote`): never silent.
 * @see seeds/003 "Adoption policy", docs/policies.md "Adapter side".
 */
export function decideAdoption(policy: AdoptionPolicy, desired: KubeObject, existing: KubeObject, mark: string): AdoptionDecision {
  const what = describeObject(existing);
  const otherOwner = existing.metadata.annotations?.[OWNER_ANNOTATION];
  if (otherOwner !== undefined && otherOwner !== mark) {
    // Another Decom resource or adapter manages it: taking it over would make that one's deletion
    // skip it, and two adapters would take it from each other on every pass.
    return {
      kind: 'refuse',
      reason: 'AlreadyExists',
      message: `${what} already exists and belongs to ${otherOwner} (${OWNER_ANNOTATION}): never adopted, nothing written`,
    };
  }
  const releasedFrom = existing.metadata.annotations?.[RELEASED_FROM_ANNOTATION];
  if (releasedFrom !== undefined && policy !== 'AdoptReleased') {
    const annotations = existing.metadata.annotations ?? {};
    const when = annotations[RELEASED_TIME_ANNOTATION] ? ` at ${annotations[RELEASED_TIME_ANNOTATION]}` : '';
    const by = annotations[RELEASED_BY_ANNOTATION] ? ` by ${annotations[RELEASED_BY_ANNOTATION]}` : '';
    return {
      kind: 'refuse',
      reason: 'Released',
      message: `${what} was released from ${releasedFrom}${when}${by} (${RELEASED_FROM_ANNOTATION}) and is kept for whoever chose to keep it: not adopted, nothing written (adoptionPolicy AdoptReleased allows it)`,
    };
  }
  const base = releasedFrom === undefined ? existing : withoutRelease(existing);
  if (policy === 'FailIfExists') {
    return {
      kind: 'refuse',
      reason: 'AlreadyExists',
      message: `${what} already exists and is not Decom's (adoptionPolicy FailIfExists): nothing written`,
    };
  }
  if (policy === 'AdoptIfMatching') {
    const differences = manifestDifferences(desired, existing);
    if (differences.length > 0) {
      return {
        kind: 'refuse',
        reason: 'AdoptionConflict',
        message: `${what} exists, is not Decom's and differs from the manifest in ${differences.join(', ')} (adoptionPolicy AdoptIfMatching): nothing written`,
        differences,
      };
    }
    const generation = desired.metadata.annotations?.[GENERATION_ANNOTATION];
    const marked = withOwner(base, mark);
    const write =
      generation === undefined
        ? marked
        : {
            ...marked,
            metadata: { ...marked.metadata, annotations: { ...marked.metadata.annotations, [GENERATION_ANNOTATION]: generation } },
          };
    return { kind: 'adopt', write, reason: 'adopted: every field the manifest sets already matches', record: 'Adopted' };
  }
  const differences = manifestDifferences(desired, existing);
  const before = generationOf(existing);
  const after = generationOf(desired);
  if (before === after) {
    if (differences.length === 0)
      return {
        kind: 'adopt',
        write: withOwner(base, mark),
        reason: `adopted (generation ${after} unchanged: marker added)`,
        record: 'Adopted',
      };
    const drift = describeDrift(desired, existing, differences);
    return {
      kind: 'adopt',
      write: withOwner(base, mark),
      reason: `adopted as it is (generation ${after} unchanged: marker added), differs from the manifest in ${drift.join('; ')}`,
      record: 'AdoptedWithDrift',
      drift,
    };
  }
  const write = withOwner({ ...desired, metadata: { ...desired.metadata, resourceVersion: existing.metadata.resourceVersion } }, mark);
  const overwrote = describeDrift(desired, existing, differences);
  return {
    kind: 'adopt',
    write,
    reason: `adopted and updated (generation changed ${before}->${after})${overwrote.length > 0 ? `, overwrote ${overwrote.join('; ')}` : ''}`,
    record: 'Adopted',
    ...(overwrote.length > 0 && { overwrote }),
  };
}

/** `object` without its release marker (it is adopted again). */
function withoutRelease(object: KubeObject): KubeObject {
  const annotations = Object.fromEntries(
    Object.entries(object.metadata.annotations ?? {}).filter(
      ([key]) => ![RELEASED_FROM_ANNOTATION, RELEASED_TIME_ANNOTATION, RELEASED_BY_ANNOTATION].includes(key),
    ),
  );
  return { ...object, metadata: { ...object.metadata, annotations } };
}
