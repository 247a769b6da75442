/**
 * GraphQL's break-glass approval queue (two-person rule), thin over `BreakGlassActions` as the REST routes
 * (`/api/decom/v1/break-glass-requests`) are: same rules, same events, same errors.
 */
import { Inject } from '@nestjs/common';
import { Args, Context, Mutation, Query, Resolver } from '@nestjs/graphql';
import { BREAK_GLASS_STATUSES, ValidationFailed, type BreakGlassStatus } from '@decom/domain';
import { commandContextOf } from '../caller/caller.js';
import { requireFleetWide } from '../auth/fleet-wide.js';
import { scopeOf } from '../auth/request-authentication.js';
import type { AccessPolicy } from '../auth/access-policy.js';
import { ACCESS_POLICY } from '../tokens.js';
import { BreakGlassActions } from '../break-glass/break-glass-actions.js';
import { traceIdOf, withProblems } from './graphql-errors.js';
import { requestOf, type GraphQLContext } from './graphql-context.js';

@Resolver()
export class BreakGlassResolver {
  constructor(
    private readonly breakGlass: BreakGlassActions,
    @Inject(ACCESS_POLICY) private readonly access: AccessPolicy,
  ) {}

  @Query('breakGlassRequests')
  breakGlassRequests(@Args('status') status: string | null | undefined, @Args('limit') limit: number, @Context() ctx: GraphQLContext) {
    return withProblems('breakGlassRequests', traceIdOf(ctx), async () => {
      requireFleetWide(requestOf(ctx), this.access, 'break-glass requests');
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalid('limit', limit, 'limit must be 1..1000');
      if (status != null && !(BREAK_GLASS_STATUSES as readonly string[]).includes(status))
        throw invalid('status', status, `status must be one of ${BREAK_GLASS_STATUSES.join(', ')}`);
      return this.breakGlass.list({ ...(status != null && { status: status as BreakGlassStatus }), limit }, scopeOf(requestOf(ctx)));
    });
  }

  @Mutation('approveBreakGlass')
  approveBreakGlass(
    @Args('requestId') requestId: string,
    @Args('reason') reason: string | null | undefined,
    @Context() ctx: GraphQLContext,
  ) {
    return withProblems(
      'approveBreakGlass',
      traceIdOf(ctx),
      async () => (await this.breakGlass.approve(requestId, reason ?? undefined, commandContextOf(requestOf(ctx)))).request,
    );
  }

  @Mutation('rejectBreakGlass')
  rejectBreakGlass(@Args('requestId') requestId: string, @Args('reason') reason: string, @Context() ctx: GraphQLContext) {
    return withProblems('rejectBreakGlass', traceIdOf(ctx), async () =>
      this.breakGlass.reject(requestId, reason, commandContextOf(requestOf(ctx))),
    );
  }
}

function invalid(field: string, value: unknown, message: string): ValidationFailed {
  return new ValidationFailed(message, [{ field, value, constraint: field === 'limit' ? 'max' : 'enum', message }]);
}
