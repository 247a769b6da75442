/**
 * Turns the reference index's entries of a DELETE (`RequestDeletion.reference_index`: who references the
 * cascade) into reference edges with each referrer's facts read from its own tree by the domain's rule
 * (`referenceEdgeFrom`: paused by itself or an ancestor, deleting), so the guard never weighs a read
 * model's idea of "paused" (seed 004 "Delete guard"). For a referrer inside the target's own tree the
 * decision reads the facts again from the very state it decides on (its edge to another tree is still
 * needed here: a cycle may run through it). A referrer that is gone by now (hard-deleted after the index
 * was read) is dropped: it references nothing any more.
 */
import { ResourceNotFound, referenceEdgeFrom, type ReferenceEdge, type RequestDeletion } from '@decom/domain';
import type { ResourceTreeRepository } from './resource-tree.repository.js';
import type { StreamLocator } from './stream-locator.js';

/**
 * @returns `command` with `referrers` extended by the resolved edges.
 * @throws what loading a referrer's tree throws (a store outage: the DELETE answers 503, nothing recorded).
 */
export async function resolveReferences(
  command: RequestDeletion,
  locator: StreamLocator,
  repository: ResourceTreeRepository,
): Promise<RequestDeletion> {
  const index = command.reference_index ?? [];
  if (index.length === 0) return command;
  const streams = new Map<string, string | undefined>();
  const streamOf = async (kind: string, id: string) => {
    if (!streams.has(id))
      streams.set(
        id,
        await locator
          .forExisting(kind, id)
          .catch((error: unknown) => (error instanceof ResourceNotFound ? undefined : Promise.reject(error))),
      );
    return streams.get(id);
  };
  const resolved: ReferenceEdge[] = [];
  for (const entry of index) {
    const stream = await streamOf(entry.kind, entry.id);
    if (stream === undefined) continue;
    // The repository's tree cache makes the referrers of one tree one fold.
    const { state } = await repository.load(stream);
    const edge = referenceEdgeFrom(state, entry.id, entry.target_id);
    if (edge) resolved.push(edge);
  }
  return { ...command, referrers: [...(command.referrers ?? []), ...resolved] };
}
