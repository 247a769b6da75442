/**
 * HyperFleet hrefs: top-level `/api/hyperfleet/v1/{plural}/{id}`, child
 * `{owner_href}/{plural}/{id}`.
 */
import type { KindRegistry } from '@decom/domain';

export const API_BASE_PATH = '/api/hyperfleet/v1';

export function resourceHref(kinds: KindRegistry, kind: string, id: string, ownerHref?: string): string {
  const plural = kinds.get(kind).plural;
  return `${ownerHref ?? API_BASE_PATH}/${plural}/${id}`;
}
