/**
 * The read model as the dead-letter pruner sees it (libs/jobs dead-letter-pruner.ts): `resource_index`
 * says whether a resource was hard-deleted; the `resources` row its generation, deletion and `Reconciled`;
 * `adapter_statuses` each adapter's last observed generation.
 */
import type { ResourceProgress, ResourceProgressSource } from '@decom/jobs';
import type { ResourceQueries } from '@decom/projections';

/** Adapters a resource reports for are a handful; one page covers them (HyperFleet's page size cap). */
const STATUS_PAGE = 100;

/** A `ResourceProgressSource` over the API's read queries (SQLite or PostgreSQL read model). */
export function resourceProgressOf(queries: ResourceQueries): ResourceProgressSource {
  return {
    async progressOf(id: string): Promise<ResourceProgress | undefined> {
      const indexed = await queries.locate(id);
      if (!indexed) return undefined;
      if (indexed.hard_deleted_time) return { phase: 'HardDeleted' };
      const resource = await queries.get(id);
      // Indexed but no row (a read model mid-rebuild): not known well enough to drop anything.
      if (!resource) return undefined;
      const reconciled = resource.status.conditions.find((c) => c.type === 'Reconciled');
      const statuses = await queries.statuses(id, 1, STATUS_PAGE);
      return {
        phase: 'Present',
        generation: resource.generation,
        isDeleting: resource.deleted_time !== undefined,
        ...(reconciled && { reconciled: { status: reconciled.status, observed_generation: reconciled.observed_generation } }),
        observedGenerations: Object.fromEntries(statuses.items.map((s) => [s.adapter, s.observed_generation])),
      };
    },
  };
}
