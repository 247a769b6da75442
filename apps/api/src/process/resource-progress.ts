/**
 * The read model as the dead-letter pruner sees it (libs/jobs dead-letter-pruner.ts): `resource_index`
 * says whether a resource was hard-deleted and why; the `resources` row its current generation.
 */
import type { ResourceProgress, ResourceProgressSource } from '@decom/jobs';
import type { ResourceQueries } from '@decom/projections';

/** A `ResourceProgressSource` over the API's read queries (SQLite or PostgreSQL read model). */
export function resourceProgressOf(queries: ResourceQueries): ResourceProgressSource {
  return {
    async progressOf(id: string): Promise<ResourceProgress | undefined> {
      const indexed = await queries.locate(id);
      if (!indexed) return undefined;
      if (indexed.hard_deleted_time) return { phase: 'HardDeleted', cause: indexed.hard_delete_cause ?? '' };
      const resource = await queries.get(id);
      // Indexed but no row (a read model mid-rebuild): not known well enough to drop anything.
      if (!resource) return undefined;
      return { phase: 'Present', generation: resource.generation };
    },
  };
}
