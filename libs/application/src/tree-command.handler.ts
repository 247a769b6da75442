/**
 * The one way a command changes a resource tree: find the tree's stream, run the domain's pure `decide*` on the
 * folded tree, append what it decided (`ResourceTreeRepository.decideAndAppend`, re-deciding on a conflict).
 *
 * A new command is written as
 * ```ts
 * export class PatchResourceCommand extends TreeCommand<PatchResource> {}
 *
 * @CommandHandler(PatchResourceCommand)
 * export class PatchResourceHandler extends TreeCommandHandler<PatchResource> {
 *   protected decide(payload: PatchResource, state: TreeState): ResourceEvent[] {
 *     return decidePatch(payload, state);
 *   }
 * }
 * ```
 * and listed in `COMMAND_HANDLERS` (index.ts). An operator's command (DELETE, force-delete, force-orphan, pause,
 * abandon an adapter, a break-glass) extends `OperatorCommandHandler` instead, for its longer conflict budget. No constructor: the base one injects the repository, the stream
 * locator and the kind registry (`this.kinds`). Override `streamOf` for a resource that does not exist yet and
 * `resolve` to read other trees before deciding.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import type { KindRegistry, ResourceEvent, TreeState } from '@decom/domain';
import { KIND_REGISTRY } from './tokens.js';
import { ResourceTreeRepository, type DecisionOutcome } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';
import type { ResourceAddress, TreeCommand } from './tree-command.js';

@Injectable()
export abstract class TreeCommandHandler<P extends ResourceAddress> implements ICommandHandler<TreeCommand<P>, DecisionOutcome> {
  /** Re-decisions after a conflict; `undefined` is the repository's default (MAX_CONFLICT_RETRIES). */
  protected readonly maxConflictRetries: number | undefined = undefined;

  constructor(
    protected readonly repository: ResourceTreeRepository,
    protected readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) protected readonly kinds: KindRegistry,
  ) {}

  /**
   * @returns the appended events and the tree before and after them.
   * @throws ResourceNotFound when the resource was never created; what `decide` throws (domain errors);
   * ConcurrencyConflict when the caller's `expectedRevision` no longer holds or the conflict rounds ran out.
   */
  async execute({ payload, context }: TreeCommand<P>): Promise<DecisionOutcome> {
    const stream = await this.streamOf(payload);
    const command = await this.resolve(payload, stream);
    const retries = this.maxConflictRetries;
    return this.repository.decideAndAppend(
      stream,
      (state) => this.decide(command, state),
      retries === undefined ? context : { ...context, maxConflictRetries: retries },
    );
  }

  /** The domain's decision on the folded tree: the events to append (none when nothing changes). Pure. */
  protected abstract decide(payload: P, state: TreeState): ResourceEvent[];

  /** The tree stream the resource lives in. @throws ResourceNotFound when it was never created. */
  protected streamOf(payload: P): Promise<string> {
    return this.locator.forExisting(payload.kind, payload.id);
  }

  /**
   * The payload completed with facts read before deciding (other trees, or `stream`: the tree's own stream,
   * located once by `execute`); as given by default.
   */
  protected resolve(payload: P, _stream: string): Promise<P> {
    return Promise.resolve(payload);
  }
}
