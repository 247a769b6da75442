/**
 * Resource names are unique per kind and parent (HyperFleet's `HYPERFLEET-CNF-001`). A child lives in its
 * root's stream, so `decideCreate` checks its siblings atomically; a top-level resource roots a stream of
 * its own, so its name is a store reservation taken in the create's append and released in the append
 * that hard-deletes it (event-store `AppendOptions.reserve` / `release`).
 *
 * Key: `name/<tenant>/<kind>/<parent id>/<name>`, `-` for "no tenant" and "no parent". The tenant slot is
 * there so multi-tenancy can scope names without a new key format (a tenant id never is `-`).
 */
import type { ResourceEvent } from './resource.events.js';
import type { TreeState } from './resource.state.js';
import { tenancyKey } from './tenancy.js';

export interface NameKeyParts {
  readonly kind: string;
  readonly name: string;
  readonly parentId?: string;
  /** `tenancyKey` of the resource's tenancy (tenancy.ts); undefined = untenanted. */
  readonly tenant?: string;
}

export function nameReservationKey(parts: NameKeyParts): string {
  return ['name', parts.tenant ?? '-', parts.kind, parts.parentId ?? '-', parts.name].join('/');
}

/** The reservations an append of `events` to a tree in `before` takes (top-level creates) and gives back (their hard deletes). */
export function nameReservationsOf(
  events: readonly ResourceEvent[],
  before: TreeState,
): { readonly reserve: { key: string; holder: string }[]; readonly release: string[] } {
  const reserve: { key: string; holder: string }[] = [];
  const release: string[] = [];
  for (const event of events) {
    if (event.type === 'ResourceCreated' && !event.data.owner_references) {
      reserve.push({
        key: nameReservationKey({ kind: event.data.kind, name: event.data.name, tenant: tenancyKey(event.data.tenant) }),
        holder: event.data.id,
      });
    }
    if (event.type === 'HardDeleted' && !event.data.owner_references) {
      const resource = before.resources.get(event.data.id);
      if (resource) release.push(nameReservationKey({ kind: resource.kind, name: resource.name, tenant: tenancyKey(resource.tenant) }));
    }
  }
  return { reserve, release };
}
