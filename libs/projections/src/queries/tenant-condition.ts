import type { Tenancy } from '@decom/domain';
import type { ReadModelQueries } from '../runner/index.js';

/**
 * SQL (on `resources.tenant` / `resource_index.tenant`) for "tenancy contains `scope`"; undefined when
 * unscoped. Dimension keys are identifiers (server-config.ts checks them), so the JSON path is safe.
 */
export function tenantCondition(
  scope: Tenancy | null | undefined,
  dialect: ReadModelQueries['dialect'],
): { sql: string; params: unknown[] } | undefined {
  const entries = Object.entries(scope ?? {});
  if (entries.length === 0) return undefined;
  const postgres = dialect === 'postgres';
  return {
    sql: entries.map(() => (postgres ? `(tenant::jsonb ->> CAST(? AS text)) = ?` : `json_extract(tenant, ?) = ?`)).join(' AND '),
    params: entries.flatMap(([key, value]) => [postgres ? key : `$."${key}"`, value]),
  };
}
