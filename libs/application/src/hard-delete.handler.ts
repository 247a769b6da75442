/**
 * Hard-deletes bottom-up when the gate holds (seed 000 API Hard-Delete Signal); run by the hard-delete job.
 * Verify before hard delete: when the gate holds for resources with hosted adapters, their objects are looked
 * up by ownership first (one label-selected list per managed kind and resource) and the facts go to the decider.
 */
import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommand, type ICommandHandler } from '@nestjs/cqrs';
import { decideHardDelete, hardDeleteCandidates, type CleanupCheck, type HardDelete, type KindRegistry } from '@decom/domain';
import type { CommandContext } from './command-context.js';
import { CLEANUP_VERIFIER, type CleanupVerifier } from './cleanup-verifier.js';
import { KIND_REGISTRY } from './tokens.js';
import { ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';

export class HardDeleteCommand implements ICommand {
  constructor(
    readonly payload: HardDelete,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(HardDeleteCommand)
export class HardDeleteHandler implements ICommandHandler<HardDeleteCommand, DecisionOutcome> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Optional() @Inject(CLEANUP_VERIFIER) private readonly verifier?: CleanupVerifier,
  ) {}

  async execute({ payload, context }: HardDeleteCommand): Promise<DecisionOutcome> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    const command = await this.withCleanupChecks(stream, payload);
    return this.repository.decideAndAppend(stream, (state) => decideHardDelete(command, state, this.kinds), context);
  }

  /**
   * `payload` with the hosted adapters and, for each resource the check would remove, what its hosted adapters
   * left. Nothing is listed while the gate does not hold (most checks).
   */
  private async withCleanupChecks(stream: string, payload: HardDelete): Promise<HardDelete> {
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
