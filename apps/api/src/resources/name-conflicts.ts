/**
 * A create's name already held by another resource of the same kind under the same parent (HyperFleet's
 * CNF-001), answered 409 naming the holder (`id`, `href`) whether the read model or the store found it.
 */
import { Inject, Injectable } from '@nestjs/common';
import { KIND_REGISTRY, RESOURCE_QUERIES } from '@decom/application';
import { NameAlreadyTaken, type KindRegistry, type Tenancy } from '@decom/domain';
import { resourceHref, type ResourceQueries } from '@decom/projections';
import { Problems } from '../problem-details/problem.js';

/** The parent a child is created under (`owner_references`); undefined for a top-level resource. */
type Owner = { readonly id: string; readonly kind: string } | undefined;

@Injectable()
export class NameConflicts {
  constructor(
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
  ) {}

  /**
   * The fast path, before anything is decided: a holder the read model already shows in `scope`. The decision
   * is the store's (a name reservation in the create's append, name-reservations.ts); see `explain`.
   * @throws HttpProblem 409 `HYPERFLEET-CNF-001` naming the holder.
   */
  async refuseKnown(kind: string, name: string, owner: Owner, scope: Tenancy | null): Promise<void> {
    const known = await this.queries.findByName(kind, name, owner?.id, scope);
    if (known) throw Problems.nameTaken(new NameAlreadyTaken(kind, name, known.id).message, { id: known.id, href: known.href });
  }

  /**
   * A create's failure explained: a store-decided name conflict becomes the 409 naming the holder, its href from
   * the read model or, while that lags, from the kinds; anything else is rethrown unchanged.
   * @throws HttpProblem 409 `HYPERFLEET-CNF-001`, or `error`.
   */
  async explain(error: unknown, kind: string, owner: Owner): Promise<never> {
    if (!(error instanceof NameAlreadyTaken) || !error.existingId) throw error;
    const ownerHref = owner ? (await this.queries.get(owner.id))?.href : undefined;
    const href = (await this.queries.get(error.existingId))?.href ?? resourceHref(this.kinds, kind, error.existingId, ownerHref);
    throw Problems.nameTaken(error.message, { id: error.existingId, href });
  }
}
