/**
 * Hard-deletes bottom-up when the gate holds (seed 000 API Hard-Delete Signal); run by the hard-delete job.
 * Verify before hard delete: when the gate holds for resources with hosted adapters, their objects are looked
 * up by ownership first (one label-selected list per managed kind and resource) and the facts go to the decider.
 */
import { Inject, Optional } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import {
  decideHardDelete,
  hardDeleteCandidates,
  type CleanupCheck,
  type HardDelete,
  type KindRegistry,
  type ResourceEvent,
  type TreeState,
} from '@decom/domain';
import { CLEANUP_VERIFIER, type CleanupVerifier } from './cleanup-verifier.js';
import { KIND_REGISTRY } from './tokens.js';
import { ResourceTreeRepository } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';
import { TreeCommand } from './tree-command.js';
import { TreeCommandHandler } from './tree-command.handler.js';

export class HardDeleteCommand extends TreeCommand<HardDelete> {}

@CommandHandler(HardDeleteCommand)
export class HardDeleteHandler extends TreeCommandHandler<HardDelete> {
  constructor(
    repository: ResourceTreeRepository,
    locator: StreamLocator,
    @Inject(KIND_REGISTRY) kinds: KindRegistry,
    @Optional() @Inject(CLEANUP_VERIFIER) private readonly verifier?: CleanupVerifier,
  ) {
    super(repository, locator, kinds);
  }

  protected decide(payload: HardDelete, state: TreeState): ResourceEvent[] {
    return decideHardDelete(payload, state, this.kinds);
  }

  /**
   * `payload` with the hosted adapters and, for each resource the check would remove, what its hosted adapters
   * left. Nothing is listed while the gate does not hold (most checks).
   */
  protected override async resolve(payload: HardDelete, stream: string): Promise<HardDelete> {
    const hosted = this.verifier?.hostedAdapters ?? [];
    if (!this.verifier || hosted.length === 0) return payload;
    const { state } = await this.repository.load(stream);
    const checks: Record<string, CleanupCheck> = {};
    for (const candidate of hardDeleteCandidates(state, payload.id, this.kinds, hosted)) {
      if (candidate.adapters.length === 0) continue;
      const check = await this.verifier.check(candidate.kind, candidate.id, candidate.adapters);
      checks[candidate.id] = check;
      // The walk stops at a resource with leftovers: its owners are not removed by this check.
      if (check.objects.length > 0 || check.unverified.length > 0) break;
    }
    return { ...payload, hosted_adapters: hosted, cleanup_checks: checks };
  }
}
