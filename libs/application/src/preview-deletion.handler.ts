/**
 * Previews a DELETE (Kubernetes' `dryRun=All`): the tree loaded exactly as `RequestDeletionHandler` loads it,
 * the same decision run on it (`previewDeletion` → `decideDeletion`), and nothing recorded — no append, so no
 * projection, reactor or adapter job ever sees it.
 */
import { Inject } from '@nestjs/common';
import { QueryHandler, type IQuery, type IQueryHandler } from '@nestjs/cqrs';
import { previewDeletion, type DeletionPreview, type KindRegistry, type RequestDeletion } from '@decom/domain';
import { KIND_REGISTRY } from './tokens.js';
import { ResourceTreeRepository } from './resource-tree.repository.js';
import { resolveReferences } from './resolve-references.js';
import { StreamLocator } from './stream-locator.js';

/** The very `RequestDeletion` a DELETE would execute (same referrers, flags and metadata). */
export class PreviewDeletionQuery implements IQuery {
  constructor(readonly payload: RequestDeletion) {}
}

@QueryHandler(PreviewDeletionQuery)
export class PreviewDeletionHandler implements IQueryHandler<PreviewDeletionQuery, DeletionPreview> {
  constructor(
    private readonly repository: ResourceTreeRepository,
    private readonly locator: StreamLocator,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
  ) {}

  /**
   * @returns the plan (`WouldDelete`, hard-delete order), `AlreadyDeleting`, or `Refused` with the domain error the
   * DELETE would throw (deletion-preview.ts).
   * @throws ResourceNotFound when the resource was never created or is hard-deleted, as the DELETE does.
   */
  async execute({ payload }: PreviewDeletionQuery): Promise<DeletionPreview> {
    const stream = await this.locator.forExisting(payload.kind, payload.id);
    const command = await resolveReferences(payload, this.locator, this.repository);
    const { state } = await this.repository.load(stream);
    return previewDeletion(command, state, this.kinds);
  }
}
