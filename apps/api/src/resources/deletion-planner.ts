/**
 * A DELETE's `RequestDeletion` (seed 004's guard needs who references the cascade) and the domain's answer to
 * it without recording anything (`PreviewDeletionQuery`): what both the DELETE and its dry run start from.
 */
import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { PreviewDeletionQuery, RESOURCE_QUERIES, type CommandContext } from '@decom/application';
import {
  PROPAGATION_POLICIES,
  ValidationFailed,
  isPropagationPolicy,
  type DeletionPreview,
  type PropagationPolicy,
  type RequestDeletion,
} from '@decom/domain';
import type { ResourceQueries } from '@decom/projections';
import { CallerAuthorization } from '../auth/caller-authorization.js';
import { RecordedCommands } from '../commands/recorded-commands.js';
import { READ_SIDE, type ReadSide } from '../tokens.js';
import type { ResourceTarget } from './resource-target.js';

@Injectable()
export class DeletionPlanner {
  constructor(
    private readonly queryBus: QueryBus,
    @Inject(READ_SIDE) private readonly readSide: ReadSide,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
    private readonly authorization: CallerAuthorization,
    private readonly commands: RecordedCommands,
  ) {}

  /**
   * The `RequestDeletion` of a DELETE on `target`, from a read side caught up with the log: the reference index
   * then holds every referrer committed before the request (one created in the same instant in another tree can
   * still slip through, docs/policies.md).
   * @throws HttpProblem 403 without the delete role; ValidationFailed for a `propagationPolicy` outside PROPAGATION_POLICIES.
   */
  async plan(
    target: ResourceTarget,
    context: CommandContext,
    deleteForMove: boolean,
    propagationPolicy: string | undefined,
  ): Promise<RequestDeletion> {
    this.authorization.authorize(context, 'delete');
    if (propagationPolicy !== undefined && !isPropagationPolicy(propagationPolicy)) {
      throw new ValidationFailed(`propagationPolicy must be one of ${PROPAGATION_POLICIES.join(', ')}`, [
        {
          field: 'propagationPolicy',
          value: propagationPolicy,
          constraint: 'enum',
          message: `propagationPolicy must be one of ${PROPAGATION_POLICIES.join(', ')}`,
        },
      ]);
    }
    await this.readSide.catchUp?.();
    // Who references the cascade (and, bounded, their referrers): the index's facts only; the handler reads
    // each referrer's paused and deleting state from its own tree.
    const reference_index = await this.queries.indexedReferences(target.id);
    return {
      type: 'RequestDeletion',
      id: target.id,
      kind: target.kind,
      reference_index,
      delete_for_move: deleteForMove,
      ...(propagationPolicy ? { propagation_policy: propagationPolicy as PropagationPolicy } : {}),
      metadata: this.commands.metadata(context),
    };
  }

  /** What the domain would decide on `command` now (`Refused` with the error a DELETE would throw), recording nothing. */
  preview(command: RequestDeletion): Promise<DeletionPreview> {
    return this.queryBus.execute<PreviewDeletionQuery, DeletionPreview>(new PreviewDeletionQuery(command));
  }
}
