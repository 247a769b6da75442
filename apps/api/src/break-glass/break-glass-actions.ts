/**
 * The two-person rule at the edge (libs/domain break-glass.ts): records break-glass requests, approves and
 * rejects them for a different administrator, and reads the queue. Approving a leak deletion then deletes
 * the requested objects (those still carrying the same owner marker) through the leak scanner.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  DecideBreakGlassCommand,
  RESOURCE_QUERIES,
  RequestBreakGlassCommand,
  type CommandContext,
  type DecisionOutcome,
} from '@decom/application';
import type { BreakGlassRequestJson, ResourceQueries } from '@decom/projections';
import {
  BreakGlassRequestNotFound,
  type BreakGlassAction,
  type BreakGlassRequested,
  type BreakGlassStatus,
  type RequestedLeak,
  type Tenancy,
} from '@decom/domain';
import type { AccessPolicy } from '../auth/access-policy.js';
import { CallerAuthorization } from '../auth/caller-authorization.js';
import { HttpProblem, Problems } from '../problem-details/problem.js';
import {
  ACCESS_POLICY,
  BREAK_GLASS_REQUESTS,
  CLOCK,
  ID_GENERATOR,
  type BreakGlassRequests,
  type Clock,
  type IdGenerator,
} from '../tokens.js';
import { LEAK_SCANNER } from '../leaks/leak-tokens.js';
import type { LeakJson, LeakScannerSlot } from '../leaks/leak-scanner.js';
import { deleteLeaks, leakOfRequest } from '../leaks/leak-deletion.js';
import { RecordedCommands } from '../commands/recorded-commands.js';
import { BreakGlassAccepted, presentBreakGlassRequest, type BreakGlassRequestAnswer } from './break-glass-accepted.js';

/** How many of the newest requests a tenant-scoped list filters for those in its tenancy. */
const MAX_SCOPED_SCAN = 1000;

/** What a request is for: a resource (`kind`, `id`), or for `delete_leaks` the exact objects. */
export type BreakGlassTarget =
  | { readonly kind: string; readonly id: string; readonly objects?: undefined }
  | { readonly kind?: undefined; readonly id?: undefined; readonly objects: readonly RequestedLeak[] };

/** An approval's answer: the request as now decided; for a leak deletion also what was deleted. */
export interface BreakGlassApproval {
  readonly request: BreakGlassRequestAnswer;
  readonly deleted_leaks?: { readonly total: number; readonly items: readonly LeakJson[] };
}

@Injectable()
export class BreakGlassActions {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(ACCESS_POLICY) private readonly access: AccessPolicy,
    @Inject(BREAK_GLASS_REQUESTS) private readonly requests: BreakGlassRequests,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(LEAK_SCANNER) private readonly leaks: LeakScannerSlot,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
    private readonly commands: RecordedCommands,
    private readonly authorization: CallerAuthorization,
  ) {}

  /** Whether `action` waits for a second administrator (`authorization.break_glass.approvals` ≥ 1). */
  get required(): boolean {
    return this.access.breakGlass !== undefined;
  }

  /**
   * Records a request (the caller was authorized for the action itself). @returns `BreakGlassAccepted` (202), or
   * the outcome when nothing was recorded because the action would change nothing (the caller answers as for
   * a repeat). @throws whatever the domain refuses (400 reason, 404, 409 NotFinalizing).
   */
  async request(
    action: BreakGlassAction,
    target: BreakGlassTarget,
    reason: string | undefined,
    context: CommandContext,
    adapter?: string,
  ): Promise<BreakGlassAccepted | DecisionOutcome> {
    const settings = this.access.breakGlass!;
    const outcome = await this.commands.run(
      new RequestBreakGlassCommand(
        {
          type: 'RequestBreakGlass',
          request_id: this.ids.next(),
          action,
          kind: target.kind ?? '',
          id: target.id ?? '',
          reason: reason ?? '',
          expires_after_seconds: settings.expires_after_seconds,
          ...(target.objects && { objects: target.objects }),
          ...(adapter !== undefined && { adapter }),
          metadata: this.commands.metadata(context),
        },
        context,
      ),
    );
    const requested = outcome.events.find((e): e is BreakGlassRequested => e.type === 'BreakGlassRequested');
    if (!requested) return outcome;
    // Answered from the decided event, not the lagging read model.
    const { id, kind, ...data } = requested.data;
    return new BreakGlassAccepted(presentBreakGlassRequest({ ...data, target: { kind, id }, status: 'Pending', stream: '' }));
  }

  /**
   * Approves as the caller (an administrator other than the requester) and runs the action.
   * @throws HttpProblem 403 (not an administrator); SelfApproval (403); BreakGlassRequestNotFound (404);
   *   BreakGlassNotPending (409: decided or expired); HttpProblem 409 when the target's generation moved (the
   *   request is then recorded Voided, naming both generations); whatever the action refuses.
   */
  async approve(requestId: string, reason: string | undefined, context: CommandContext): Promise<BreakGlassApproval> {
    this.authorization.authorize(context, 'decide_break_glass');
    const found = await this.find(requestId);
    await this.requireInScope(found, context);
    const outcome = await this.commands.run(
      new DecideBreakGlassCommand(
        {
          type: 'ApproveBreakGlass',
          request_id: requestId,
          ...(reason !== undefined && { reason }),
          metadata: this.commands.metadata(context),
        },
        found.stream,
        context,
      ),
    );
    const voided = outcome.events.find((e) => e.type === 'BreakGlassVoided');
    if (voided?.type === 'BreakGlassVoided') {
      const { requested_generation, current_generation } = voided.data;
      const now =
        current_generation === undefined
          ? `${found.target.kind} '${found.target.id}' no longer exists`
          : `it is at generation ${current_generation} now`;
      throw new HttpProblem(
        409,
        'HYPERFLEET-CNF-003',
        'State Conflict',
        'conflict',
        `break-glass request '${requestId}' was made at generation ${requested_generation} and ${now}: the request is voided, request the action again`,
        undefined,
        {
          request_id: requestId,
          requested_generation,
          ...(current_generation !== undefined && { current_generation }),
        },
      );
    }
    const request = presentBreakGlassRequest(await this.find(requestId));
    if (found.action !== 'delete_leaks') return { request };
    const scanner = this.leaks.current;
    if (!scanner)
      throw Problems.unavailable(
        'approved, but no Kubernetes connection in this process to delete the leaked objects: approve where KUBECONFIG is set',
      );
    const items = await deleteLeaks(
      scanner,
      (found.objects ?? []).map(leakOfRequest),
      { reason: found.reason, caller: found.requested_by, now: this.clock.now().toISOString(), context },
      this.commandBus,
    );
    return { request, deleted_leaks: { total: items.length, items } };
  }

  /** Rejects (the requester may withdraw their own). @throws as `approve`, and ValidationFailed (400) without a reason. */
  async reject(requestId: string, reason: string | undefined, context: CommandContext): Promise<BreakGlassRequestAnswer> {
    this.authorization.authorize(context, 'decide_break_glass');
    const found = await this.find(requestId);
    await this.requireInScope(found, context);
    await this.commands.run(
      new DecideBreakGlassCommand(
        { type: 'RejectBreakGlass', request_id: requestId, reason: reason ?? '', metadata: this.commands.metadata(context) },
        found.stream,
        context,
      ),
    );
    return presentBreakGlassRequest(await this.find(requestId));
  }

  /**
   * Requests, newest first, at most `limit` (1..1000). A tenant-scoped caller sees only those it could decide
   * (`requireInScope`): targets visible in its tenancy, no leak deletions. Those are filtered from the newest
   * `MAX_SCOPED_SCAN` requests, so a scoped list is bounded work too.
   */
  async list(options: { status?: BreakGlassStatus; limit: number }, scope: Tenancy | null): Promise<BreakGlassRequestAnswer[]> {
    const now = this.clock.now();
    if (!scope) return (await this.requests.list({ ...options, now })).map(presentBreakGlassRequest);
    const seen: BreakGlassRequestJson[] = [];
    for (const found of await this.requests.list({ ...options, limit: MAX_SCOPED_SCAN, now })) {
      if (seen.length === options.limit) break;
      if (await this.inScope(found, scope)) seen.push(found);
    }
    return seen.map(presentBreakGlassRequest);
  }

  /** @throws BreakGlassRequestNotFound (404), also for a request outside a tenant-scoped caller's tenancy. */
  async get(requestId: string, scope: Tenancy | null): Promise<BreakGlassRequestAnswer> {
    const found = await this.find(requestId);
    if (scope && !(await this.inScope(found, scope))) throw new BreakGlassRequestNotFound(requestId);
    return presentBreakGlassRequest(found);
  }

  /** Whether a tenant-scoped caller may see (and so decide) a request: its target is visible in the tenancy. */
  private async inScope(found: BreakGlassRequestJson, scope: Tenancy): Promise<boolean> {
    return found.action !== 'delete_leaks' && (await this.queries.visible(found.target.id, scope));
  }

  private async find(requestId: string) {
    const found = await this.requests.get(requestId, this.clock.now());
    if (!found) throw new BreakGlassRequestNotFound(requestId);
    return found;
  }

  /**
   * An administrator's writes stay in its tenancy (docs/security.md "Tenants"): a tenant-scoped caller decides only
   * requests on resources it can see, as the action itself would reach them; a leak deletion spans tenants, so
   * only a caller without a tenant scope decides it.
   * @throws BreakGlassRequestNotFound (404) for a target outside the caller's tenancy; HttpProblem 403 for a
   *   leak deletion asked of a tenant-scoped caller.
   */
  private async requireInScope(found: BreakGlassRequestJson, context: CommandContext): Promise<void> {
    const scope = context.audit?.tenant ?? null;
    if (!scope) return;
    if (found.action === 'delete_leaks')
      throw Problems.forbidden('a leak deletion spans tenants: only a caller without a tenant scope may decide it');
    if (!(await this.inScope(found, scope))) throw new BreakGlassRequestNotFound(found.request_id);
  }
}
