/**
 * Audit entries a caller of tenancy `scope` may see (HyperFleet §8.1): those about a resource visible to it
 * (resource_index keeps the tenancy after hard delete). Filtered after the limit, so a scoped caller may get
 * fewer than `limit` entries; null scope = everything.
 */
import type { Tenancy } from '@decom/domain';
import type { AuditEntry, ResourceQueries } from '@decom/projections';

export async function visibleAudit(entries: readonly AuditEntry[], queries: ResourceQueries, scope: Tenancy | null): Promise<AuditEntry[]> {
  if (!scope) return [...entries];
  const out: AuditEntry[] = [];
  for (const entry of entries) if (await queries.visible(entry.id, scope)) out.push(entry);
  return out;
}
