/**
 * A deletion guard's 409 (seed 004) as a tenant-scoped caller may see it: referrers (or a cycle's members) in a
 * tenant the caller cannot see are counted or shown as outside the caller's tenant, not named (as in HyperFleet:
 * outside its tenancy a resource is as unknown as a missing one). The guard itself is unchanged.
 */
import { Inject, Injectable } from '@nestjs/common';
import { RESOURCE_QUERIES, type CommandContext } from '@decom/application';
import { CascadeThroughLiveReference, DependencyCycle, LiveReferrers } from '@decom/domain';
import type { ResourceQueries } from '@decom/projections';

@Injectable()
export class ReferrerRedaction {
  constructor(@Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries) {}

  /**
   * `error` as the caller of `context` may see it: a `LiveReferrers`, `CascadeThroughLiveReference` or
   * `DependencyCycle` seen through the caller's tenancy; any other error, or any error for an unscoped
   * caller, unchanged.
   */
  async redact(error: unknown, context: CommandContext): Promise<unknown> {
    const scope = context.audit?.tenant ?? null;
    if (!scope || !(error instanceof LiveReferrers || error instanceof CascadeThroughLiveReference || error instanceof DependencyCycle))
      return error;
    const ids =
      error instanceof LiveReferrers
        ? error.referrers.map((r) => r.id)
        : error instanceof DependencyCycle
          ? error.members.map((m) => m.id)
          : error.references.map((r) => r.referrer.id);
    const visible = new Set<string>();
    for (const id of new Set(ids)) if (await this.queries.visible(id, scope)) visible.add(id);
    return error.seenBy((r) => visible.has(r.id));
  }
}
