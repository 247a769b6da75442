/**
 * The SQL of a resource list (`GET /resources`, `GET /<kind>`, children of one parent): filters, TSL search,
 * tenancy scope and the page's order.
 */
import type { Tenancy } from '@decom/domain';
import type { ReadModelQueries } from '../runner/index.js';
import { RESOURCE_SEARCH, searchCondition } from '../search/index.js';
import { tenantCondition } from './tenant-condition.js';

export const ORDERABLE_FIELDS = ['created_time', 'updated_time', 'name', 'generation', 'deleted_time', 'id'] as const;

export interface ListOptions {
  /** Restrict to one kind; omitted for the kind-agnostic `GET /resources`. */
  readonly kind?: string;
  /** Restrict to children of this owner. */
  readonly ownerId?: string;
  /** 1-based. */
  readonly page: number;
  /** Items per page (1..100). */
  readonly size: number;
  /** Sort: `created_time desc` (default) etc.; fields limited to ORDERABLE_FIELDS. */
  readonly order?: readonly { field: string; direction: 'asc' | 'desc' }[];
  /** Only resources pending deletion (`true`) or only active ones (`false`). */
  readonly deleting?: boolean;
  /**
   * TSL search (HyperFleet's search syntax; fields: RESOURCE_SEARCH).
   * @throws SearchSyntaxError, SearchFieldError
   */
  readonly search?: string;
  /** Only resources whose `references` hold `{ type → [.. targetId ..] }` (HyperFleet `ref_type` + `ref_target_id`). */
  readonly reference?: { readonly type: string; readonly targetId: string };
  /** Only resources whose tenancy contains this one (as HyperFleet scopes it); null/absent = unscoped. */
  readonly tenant?: Tenancy | null;
}

/** A list's WHERE clause over `resources` (with its parameters) and its ORDER BY. */
export interface ListSql {
  readonly filter: string;
  readonly params: unknown[];
  readonly order: string;
}

/** @throws SearchSyntaxError, SearchFieldError */
export function listSql(options: ListOptions, dialect: ReadModelQueries['dialect']): ListSql {
  const where: string[] = [];
  const params: unknown[] = [];
  if (options.kind !== undefined) {
    where.push('kind = ?');
    params.push(options.kind);
  }
  if (options.ownerId !== undefined) {
    where.push('owner_id = ?');
    params.push(options.ownerId);
  }
  if (options.deleting !== undefined) where.push(options.deleting ? 'deleted_time IS NOT NULL' : 'deleted_time IS NULL');
  if (options.reference) {
    where.push('EXISTS (SELECT 1 FROM resource_references x WHERE x.referrer_id = resources.id AND x.ref_type = ? AND x.target_id = ?)');
    params.push(options.reference.type, options.reference.targetId);
  }
  const search = searchCondition(options.search, RESOURCE_SEARCH, dialect ?? 'sqlite');
  if (search) {
    where.push(search.sql);
    params.push(...search.params);
  }
  const scoped = tenantCondition(options.tenant, dialect);
  if (scoped) {
    where.push(scoped.sql);
    params.push(...scoped.params);
  }
  const order = (options.order?.length ? options.order : [{ field: 'created_time', direction: 'desc' as const }])
    .filter((o) => (ORDERABLE_FIELDS as readonly string[]).includes(o.field))
    .map((o) => `${o.field} ${o.direction === 'asc' ? 'ASC' : 'DESC'}`)
    .concat('id ASC')
    .join(', ');
  const filter = where.length > 0 ? where.join(' AND ') : '1 = 1';
  return { filter, params, order };
}
