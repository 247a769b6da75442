/**
 * List query parameters (hyperfleet-api `pkg/handlers/list_params.go`) → read-side options, shared by the Nest routes
 * and the plain Fastify read routes (resource-read-routes.ts).
 */
import type { Page } from '@decom/projections';
import { Problems } from '../problem-details/problem.js';
import { DEFAULT_PAGE_SIZE, type ListQueryDto } from './dto/list-query.dto.js';
import { selectFields } from './sparse-fields.js';

type ListQuery = Readonly<ListQueryDto>;

/** `page`, `size`, `order`, `search`, `ref_type` + `ref_target_id` as `ResourceQueries.list` takes them. @throws HttpProblem 400 for half a reference filter */
export function listOptions(query: ListQuery) {
  const order = (query.order ?? '')
    .split(',')
    .map((part) => part.trim().split(/\s+/))
    .filter((parts) => parts[0])
    .map(([field, direction]) => ({ field: field!, direction: direction?.toLowerCase() === 'asc' ? ('asc' as const) : ('desc' as const) }));
  return {
    page: query.page ?? 1,
    size: query.size ?? DEFAULT_PAGE_SIZE,
    order,
    ...(query.search !== undefined && { search: query.search }),
    ...(referenceFilter(query) && { reference: referenceFilter(query)! }),
  };
}

/** `ref_type` + `ref_target_id`: both or neither, as HyperFleet's API requires. */
function referenceFilter(query: ListQuery): { type: string; targetId: string } | undefined {
  if (query.ref_type === undefined && query.ref_target_id === undefined) return undefined;
  if (query.ref_type === undefined || query.ref_target_id === undefined) {
    const missing = query.ref_type === undefined ? 'ref_type' : 'ref_target_id';
    throw Problems.validation('ref_type and ref_target_id must be given together', [
      {
        field: missing,
        constraint: 'required',
        message: `${missing} is required when ${missing === 'ref_type' ? 'ref_target_id' : 'ref_type'} is given`,
      },
    ]);
  }
  return { type: query.ref_type, targetId: query.ref_target_id };
}

/** A page with each item reduced to the `fields=` paths (parseFields; id always kept); unchanged without. */
export function sparse<T extends object>(page: Page<T>, paths: readonly string[][] | undefined): Page<Partial<T>> {
  return paths ? { ...page, items: page.items.map((item) => selectFields(item, paths)) } : page;
}
