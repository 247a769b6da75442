/**
 * GraphQL operator commands and dashboard queries, thin over the same `ResourceActions` and read side as
 * the REST routes (same rules, same events, same errors).
 */
import { Inject } from '@nestjs/common';
import { Args, Context, Mutation, Query, Resolver } from '@nestjs/graphql';
import { EVENT_STORE, KIND_REGISTRY, RESOURCE_QUERIES, type CommandContext } from '@decom/application';
import { BLOCKER_TYPES, ResourceNotFound, type BlockerType, type KindRegistry, type Tenancy } from '@decom/domain';
import type { EventStore } from '@decom/event-store';
import { AUDIT_TYPES, type AuditType, type ResourceJson, type ResourceQueries } from '@decom/projections';
import { commandContextOf } from '../caller/caller.js';
import { scopeOf } from '../auth/request-authentication.js';
import { visibleAudit } from '../audit/visible-audit.js';
import { ResourceActions } from '../resources/resource-actions.js';
import { awaitingApproval } from '../break-glass/break-glass-accepted.js';
import { readDeadLetters } from '../finalizing/dead-letter-read.js';
import { readIdleAdapters } from '../finalizing/idle-adapters-read.js';
import { AUDIT_LOG, CLOCK, DEAD_LETTERS, type AuditLog, type Clock, type DeadLetterSource } from '../tokens.js';
import { traceIdOf, withProblems } from './graphql-errors.js';
import { requestOf, type GraphQLContext } from './graphql-context.js';
import { MAX_PAGE, requireAmong, requireRange } from './graphql-arguments.js';
import { LIST_BOUNDS } from './list-cost.js';
import { HISTORY_MAX_SIZE, scanHistory } from '../history/history-scan.js';

@Resolver()
export class ResourcesResolver {
  constructor(
    private readonly actions: ResourceActions,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DEAD_LETTERS) private readonly deadLetters: DeadLetterSource,
    @Inject(AUDIT_LOG) private readonly auditLog: AuditLog,
  ) {}

  @Query('resource')
  resource(@Args('id') id: string, @Context() ctx: GraphQLContext) {
    return withProblems('resource', traceIdOf(ctx), async () => {
      const resource = (await this.queries.visible(id, scope(ctx))) ? await this.queries.get(id) : undefined;
      return resource ? toGraph(resource) : null;
    });
  }

  @Query('resources')
  resources(
    @Args('kind') kind: string,
    @Args('page') page: number,
    @Args('size') size: number,
    @Context() ctx: GraphQLContext,
    @Args('deleting') deleting?: boolean,
  ) {
    return withProblems('resources', traceIdOf(ctx), async () => {
      if (!this.kinds.find(kind)) throw new ResourceNotFound('Kind', kind);
      // Same bounds as REST (hyperfleet-api `pkg/handlers/list_params.go`): refused, not clamped.
      requireRange('page', page, 1, MAX_PAGE);
      requireRange('size', size, 1, 100);
      const result = await this.queries.list({
        kind,
        page,
        size,
        ...(deleting === undefined || deleting === null ? {} : { deleting }),
        tenant: scope(ctx),
      });
      return { ...result, items: result.items.map(toGraph) };
    });
  }

  @Query('adapterStatuses')
  adapterStatuses(@Args('id') id: string, @Context() ctx: GraphQLContext) {
    return withProblems('adapterStatuses', traceIdOf(ctx), async () =>
      (await this.queries.visible(id, scope(ctx))) ? (await this.queries.statuses(id)).items : [],
    );
  }

  /** Whether `finalizing`'s `DeadLettered` blockers are known: the job queue answers (REST `/finalizing`'s `dead_letters`). */
  @Query('finalizingDeadLetters')
  finalizingDeadLetters(@Context() ctx: GraphQLContext) {
    return withProblems('finalizingDeadLetters', traceIdOf(ctx), async () => (await readDeadLetters(this.deadLetters)).availability);
  }

  @Query('finalizing')
  finalizing(
    @Args('olderThanSeconds') olderThanSeconds: number,
    @Args('page') page: number,
    @Args('size') size: number,
    @Context() ctx: GraphQLContext,
    @Args('kind') kind?: string,
    @Args('blocker') blocker?: string[] | null,
    @Args('search') search?: string | null,
  ) {
    return withProblems('finalizing', traceIdOf(ctx), async () => {
      requireRange('olderThanSeconds', olderThanSeconds, 0, Number.MAX_SAFE_INTEGER);
      requireRange('page', page, 1, MAX_PAGE);
      requireRange('size', size, 1, LIST_BOUNDS['Query.finalizing']!.max);
      if (kind && !this.kinds.find(kind)) throw new ResourceNotFound('Kind', kind);
      requireAmong('blocker', blocker, BLOCKER_TYPES);
      const { deadLetters, availability } = await readDeadLetters(this.deadLetters);
      const idleAdapters = await readIdleAdapters(this.deadLetters, this.kinds);
      const filter = {
        ...(blocker?.length ? { blockerTypes: blocker as BlockerType[] } : {}),
        ...(typeof search === 'string' ? { search } : {}),
        deadLetters,
        idleAdapters,
        ...(availability.status === 'unavailable' && { jobQueueUnavailable: { reason: availability.reason, since: availability.since } }),
        tenant: scope(ctx),
      };
      const all = await this.queries.finalizing(this.clock.now(), olderThanSeconds, kind ?? undefined, filter);
      return all.slice((page - 1) * size, page * size).map((f) => ({
        ...f,
        reconciled_reason: f.reconciled.reason,
        reconciled_message: f.reconciled.message,
      }));
    });
  }

  @Query('audit')
  audit(@Args('type') type: string[] | null | undefined, @Args('limit') limit: number, @Context() ctx: GraphQLContext) {
    return withProblems('audit', traceIdOf(ctx), async () => {
      requireRange('limit', limit, 1, 1000);
      requireAmong('type', type, AUDIT_TYPES);
      return visibleAudit(
        await this.auditLog.list({ ...(type?.length ? { types: type as AuditType[] } : {}), limit }),
        this.queries,
        scope(ctx),
      );
    });
  }

  @Query('history')
  history(@Args('id') id: string, @Args('page') page: number, @Args('size') size: number, @Context() ctx: GraphQLContext) {
    return withProblems('history', traceIdOf(ctx), async () => {
      requireRange('page', page, 1, MAX_PAGE);
      requireRange('size', size, 1, HISTORY_MAX_SIZE);
      const located = await this.queries.locate(id);
      if (!located || !(await this.queries.visible(id, scope(ctx)))) throw new ResourceNotFound('Resource', id);
      // Chunked reads, stopping once the page is full: a long history is never held whole (history-scan.ts).
      const { items } = await scanHistory(this.store, located.stream, id, page, size, false);
      return items.map((e) => ({
        position: e.position,
        revision: e.revision,
        type: e.type,
        recorded_time: e.recorded_time,
        caller: e.metadata['caller'] ?? null,
        data: e.data,
      }));
    });
  }

  @Mutation('deleteResource')
  deleteResource(
    @Args('id') id: string,
    @Args('deleteForMove') deleteForMove: boolean,
    @Args('propagationPolicy') propagationPolicy: string | undefined | null,
    @Context() ctx: GraphQLContext,
    @Args('dryRun') dryRun?: boolean | null,
    @Args('budgetOverride') budgetOverride?: string | null,
  ) {
    return withProblems('deleteResource', traceIdOf(ctx), async () => {
      const target = await this.target(id, ctx);
      const override = budgetOverride ?? undefined;
      if (dryRun !== true)
        return toGraph(await this.actions.delete(target, context(ctx), deleteForMove === true, propagationPolicy ?? undefined, override));
      const deletion_preview = await this.actions.previewDelete(
        target,
        context(ctx),
        deleteForMove === true,
        propagationPolicy ?? undefined,
        override,
      );
      const stored = await this.queries.get(id);
      if (!stored) throw new ResourceNotFound('Resource', id);
      return { ...toGraph(stored), deletion_preview };
    });
  }

  @Mutation('forceDelete')
  forceDelete(@Args('id') id: string, @Args('reason') reason: string, @Context() ctx: GraphQLContext) {
    return withProblems('forceDelete', traceIdOf(ctx), async () => {
      awaitingApproval(await this.actions.forceDelete(await this.target(id, ctx), reason, context(ctx)));
      return true;
    });
  }

  @Mutation('forceOrphan')
  forceOrphan(@Args('id') id: string, @Args('reason') reason: string, @Context() ctx: GraphQLContext) {
    return withProblems('forceOrphan', traceIdOf(ctx), async () =>
      toGraph(awaitingApproval(await this.actions.forceOrphan(await this.target(id, ctx), reason, context(ctx)))),
    );
  }

  @Mutation('pause')
  pause(@Args('id') id: string, @Args('reason') reason: string, @Context() ctx: GraphQLContext) {
    return withProblems('pause', traceIdOf(ctx), async () =>
      toGraph(awaitingApproval(await this.actions.setPaused(await this.target(id, ctx), true, reason, context(ctx)))),
    );
  }

  @Mutation('unpause')
  unpause(@Args('id') id: string, @Args('reason') reason: string, @Context() ctx: GraphQLContext) {
    return withProblems('unpause', traceIdOf(ctx), async () =>
      toGraph(awaitingApproval(await this.actions.setPaused(await this.target(id, ctx), false, reason, context(ctx)))),
    );
  }

  @Mutation('setDeletionProtection')
  setDeletionProtection(
    @Args('id') id: string,
    @Args('enabled') enabled: boolean,
    @Args('reason') reason: string | undefined | null,
    @Context() ctx: GraphQLContext,
  ) {
    return withProblems('setDeletionProtection', traceIdOf(ctx), async () => {
      const body = { deletion_protection: enabled, ...(reason != null ? { deletion_protection_reason: reason } : {}) };
      return toGraph(await this.actions.patch(await this.target(id, ctx), body, context(ctx)));
    });
  }

  @Mutation('abandonAdapter')
  abandonAdapter(@Args('id') id: string, @Args('adapter') adapter: string, @Args('reason') reason: string, @Context() ctx: GraphQLContext) {
    return withProblems('abandonAdapter', traceIdOf(ctx), async () =>
      toGraph(awaitingApproval(await this.actions.abandonAdapter(await this.target(id, ctx), adapter, reason, context(ctx)))),
    );
  }

  private async target(id: string, ctx: GraphQLContext) {
    const located = await this.queries.locate(id);
    if (!located || located.hard_deleted_time || !(await this.queries.visible(id, scope(ctx)))) throw new ResourceNotFound('Resource', id);
    return { kind: located.kind, id };
  }
}

function context(ctx: GraphQLContext): CommandContext {
  return commandContextOf(requestOf(ctx));
}

/** The request's tenant scope (HyperFleet's tenancy; null = unscoped). */
function scope(ctx: GraphQLContext): Tenancy | null {
  return scopeOf(requestOf(ctx));
}

function toGraph(resource: ResourceJson) {
  return { ...resource, conditions: resource.status.conditions, deletion_protection: resource.deletion_protection === true };
}
