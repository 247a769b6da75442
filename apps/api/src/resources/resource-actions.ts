/**
 * What the resource routes do, shared by top-level, nested and kind-agnostic routes and GraphQL: authorize, check
 * the input, build the command, execute it through `RecordedCommands` (read-your-writes), answer. Each step is a
 * collaborator of its own; this is the order they run in.
 */
import { Inject, Injectable } from '@nestjs/common';
import { DeletionBudgetExceeded, type KindRegistry, type ReportAdapterStatus, type ReportFence, type RequestDeletion } from '@decom/domain';
import {
  AbandonAdapterCommand,
  CreateResourceCommand,
  ForceDeleteCommand,
  ForceOrphanCommand,
  SetPausedCommand,
  KIND_REGISTRY,
  PatchResourceCommand,
  ReportAdapterStatusCommand,
  RequestDeletionCommand,
  type CommandContext,
} from '@decom/application';
import type { ResourceJson } from '@decom/projections';
import { Problems } from '../problem-details/problem.js';
import { ID_GENERATOR, type IdGenerator } from '../tokens.js';
import { CallerAuthorization } from '../auth/caller-authorization.js';
import type { AdapterStatusDto } from './dto/adapter-status.dto.js';
import type { CreateResourceDto } from './dto/create-resource.dto.js';
import type { PatchResourceDto } from './dto/patch-resource.dto.js';
import type { ResourceTarget } from './resource-target.js';
import { DryRunRefused } from '../problem-details/dry-run-refused.js';
import type { DeletionPreviewJson } from './deletion-preview-answer.js';
import { BreakGlassActions } from '../break-glass/break-glass-actions.js';
import { BreakGlassAccepted } from '../break-glass/break-glass-accepted.js';
import { RecordedCommands } from '../commands/recorded-commands.js';
import { requireRouteKind, requireValidName, validLabels } from './resource-field-checks.js';
import { ReferenceValidation } from './reference-validation.js';
import { NameConflicts } from './name-conflicts.js';
import { ReferrerRedaction } from './referrer-redaction.js';
import { DeletionPlanner } from './deletion-planner.js';
import { DeletionBudgetCheck } from './deletion-budget-check.js';
import { ResourceAnswers } from './resource-answers.js';
import { statusReportOutcome, type StatusReportOutcome } from './status-report-outcome.js';

export type { StatusReportOutcome } from './status-report-outcome.js';

@Injectable()
export class ResourceActions {
  constructor(
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly authorization: CallerAuthorization,
    private readonly references: ReferenceValidation,
    private readonly names: NameConflicts,
    private readonly deletions: DeletionPlanner,
    private readonly budget: DeletionBudgetCheck,
    private readonly redaction: ReferrerRedaction,
    private readonly breakGlass: BreakGlassActions,
    private readonly commands: RecordedCommands,
    private readonly answers: ResourceAnswers,
  ) {}

  async create(
    kind: string,
    body: CreateResourceDto,
    owner: { id: string; kind: string } | undefined,
    context: CommandContext,
  ): Promise<ResourceJson> {
    this.authorization.authorize(context, 'create');
    const descriptor = this.kinds.get(kind);
    requireRouteKind(kind, body.kind);
    requireValidName(body.name, descriptor);
    const labels = validLabels(body.labels ?? {});
    const scope = context.audit?.tenant ?? null;
    // Names are unique per kind and parent (HyperFleet's CNF-001): a fast path here, the store decides.
    await this.names.refuseKnown(kind, body.name, owner, scope);
    const id = this.ids.next();
    const outcome = await this.commands
      .run(
        new CreateResourceCommand(
          {
            type: 'CreateResource',
            id,
            kind,
            name: body.name,
            spec: body.spec,
            labels,
            ...(owner ? { owner } : {}),
            ...(body.deletion_policy ? { deletion_policy: body.deletion_policy } : {}),
            ...(body.references ? { references: await this.references.validNow(body.references, scope) } : {}),
            ...(context.audit?.tenant ? { tenant: context.audit.tenant } : {}),
            ...(body.deletion_protection !== undefined ? { deletion_protection: body.deletion_protection } : {}),
            ...(body.deletion_protection_reason !== undefined ? { deletion_protection_reason: body.deletion_protection_reason } : {}),
            metadata: this.commands.metadata(context),
          },
          context,
        ),
      )
      .catch((error: unknown) => this.names.explain(error, kind, owner));
    return this.answers.present(outcome, id);
  }

  /**
   * @throws HttpProblem 400 `HYPERFLEET-VAL-005` when the body sets no field (HyperFleet's BadRequest "at least one field must be provided").
   * @throws HttpProblem 403 for `deletion_protection: false` without the clearing role (admin, or operator when configured),
   *   whatever the resource's current protection: deny by default, before any read.
   */
  async patch(target: ResourceTarget, body: PatchResourceDto, context: CommandContext): Promise<ResourceJson> {
    this.authorization.authorize(context, 'patch');
    if (body.deletion_protection === false) this.authorization.authorize(context, 'clear_deletion_protection');
    if (
      body.spec === undefined &&
      body.labels === undefined &&
      body.deletion_policy === undefined &&
      body.references === undefined &&
      body.deletion_protection === undefined
    ) {
      throw Problems.badRequest('at least one field must be provided');
    }
    const labels = body.labels === undefined ? undefined : validLabels(body.labels);
    const outcome = await this.commands.run(
      new PatchResourceCommand(
        {
          type: 'PatchResource',
          id: target.id,
          kind: target.kind,
          ...(body.spec ? { spec: body.spec } : {}),
          ...(labels ? { labels } : {}),
          ...(body.deletion_policy ? { deletion_policy: body.deletion_policy } : {}),
          ...(body.references ? { references: await this.references.validNow(body.references, context.audit?.tenant ?? null) } : {}),
          ...(body.deletion_protection !== undefined ? { deletion_protection: body.deletion_protection } : {}),
          ...(body.deletion_protection_reason !== undefined ? { deletion_protection_reason: body.deletion_protection_reason } : {}),
          metadata: this.commands.metadata(context),
        },
        context,
      ),
    );
    return this.answers.present(outcome, target.id);
  }

  /**
   * DELETE. The seed 004 guard: live referrers (from the reference index) block it unless `deleteForMove`
   * and every referrer is paused (DeletionPlanner: the read model then shows every referrer committed before
   * the request). Then the deletion budget (DeletionBudgetCheck).
   */
  async delete(
    target: ResourceTarget,
    context: CommandContext,
    deleteForMove = false,
    propagationPolicy?: string,
    budgetOverride?: string,
  ): Promise<ResourceJson> {
    const planned = await this.deletions.plan(target, context, deleteForMove, propagationPolicy);
    // What the domain refuses (protection, InUse, a cycle) is refused as such before the budget is counted: a 409
    // says what to fix where a 429 would only say to wait, and a refused DELETE uses no budget.
    if (this.budget.applies(target.kind)) {
      const preview = await this.deletions.preview(planned);
      if (preview.outcome === 'Refused') throw await this.redaction.redact(preview.refusal, context);
    }
    const override = await this.budget.check(target, planned, context, budgetOverride, false);
    const command: RequestDeletion = override ? { ...planned, budget_override_reason: override } : planned;
    const outcome = await this.commands.run(new RequestDeletionCommand(command, context)).catch(async (error: unknown) => {
      throw await this.redaction.redact(error, context);
    });
    return this.answers.present(outcome, target.id);
  }

  /**
   * The DELETE's preview (`?dryRun=All`): the same authorization, validation, referrer reads and decision as
   * `delete`, and nothing recorded. Writes being refused (503 on a DELETE) do not stop it: it writes nothing.
   * @throws DryRunRefused wrapping the domain error the DELETE would throw (redacted for the caller's tenant
   * as the DELETE's), answered with the DELETE's status and problem body plus `dry_run: true`.
   * @throws HttpProblem 403, ValidationFailed, ResourceNotFound exactly as `delete`.
   */
  async previewDelete(
    target: ResourceTarget,
    context: CommandContext,
    deleteForMove = false,
    propagationPolicy?: string,
    budgetOverride?: string,
  ): Promise<DeletionPreviewJson> {
    const command = await this.deletions.plan(target, context, deleteForMove, propagationPolicy);
    // The domain's refusal first, as the DELETE answers it (see `delete`).
    const preview = await this.deletions.preview(command);
    if (preview.outcome === 'Refused') throw new DryRunRefused(await this.redaction.redact(preview.refusal, context));
    await this.budget.check(target, command, context, budgetOverride, true).catch((error: unknown) => {
      throw error instanceof DeletionBudgetExceeded ? new DryRunRefused(error) : error;
    });
    return this.answers.presentPreview(preview, target.id, deleteForMove, command.propagation_policy);
  }

  /** Pause (`paused=true`) or unpause, any state, reason required (seed 004). */
  async setPaused(
    target: ResourceTarget,
    paused: boolean,
    reason: string | undefined,
    context: CommandContext,
  ): Promise<ResourceJson | BreakGlassAccepted> {
    this.authorization.authorize(context, paused ? 'pause' : 'unpause');
    if (!paused && this.breakGlass.required)
      return this.answers.presentRequested(await this.breakGlass.request('unpause', target, reason, context), target.id);
    const outcome = await this.commands.run(
      new SetPausedCommand(
        { type: 'SetPaused', id: target.id, kind: target.kind, paused, reason: reason ?? '', metadata: this.commands.metadata(context) },
        context,
      ),
    );
    return this.answers.present(outcome, target.id);
  }

  /** Force-orphan break-glass (seed 003): admin only, only while Finalizing. */
  async forceOrphan(
    target: ResourceTarget,
    reason: string | undefined,
    context: CommandContext,
  ): Promise<ResourceJson | BreakGlassAccepted> {
    this.authorization.authorize(context, 'force_orphan');
    if (this.breakGlass.required)
      return this.answers.presentRequested(await this.breakGlass.request('force_orphan', target, reason, context), target.id);
    const outcome = await this.commands.run(
      new ForceOrphanCommand(
        { type: 'ForceOrphan', id: target.id, kind: target.kind, reason: reason ?? '', metadata: this.commands.metadata(context) },
        context,
      ),
    );
    return this.answers.present(outcome, target.id);
  }

  /**
   * Abandons one adapter of a Finalizing resource's frozen set (abandon-adapter.ts): admin only.
   * @throws HttpProblem 403; ValidationFailed (reason); ResourceNotFound; NotFinalizing or AdapterNotPending (409).
   */
  async abandonAdapter(
    target: ResourceTarget,
    adapter: string,
    reason: string | undefined,
    context: CommandContext,
  ): Promise<ResourceJson | BreakGlassAccepted> {
    this.authorization.authorize(context, 'abandon_adapter');
    // Abandoning every adapter of the frozen set reaches as far as a force delete: under the two-person rule it
    // waits for a second administrator too.
    if (this.breakGlass.required)
      return this.answers.presentRequested(await this.breakGlass.request('abandon_adapter', target, reason, context, adapter), target.id);
    const outcome = await this.commands.run(
      new AbandonAdapterCommand(
        {
          type: 'AbandonAdapter',
          id: target.id,
          kind: target.kind,
          adapter,
          reason: reason ?? '',
          metadata: this.commands.metadata(context),
        },
        context,
      ),
    );
    return this.answers.present(outcome, target.id);
  }

  /** @throws HttpProblem 403 unless the caller is an administrator (a Decom choice; docs/security.md). */
  async forceDelete(target: ResourceTarget, reason: string | undefined, context: CommandContext): Promise<void | BreakGlassAccepted> {
    this.authorization.authorize(context, 'force_delete');
    if (this.breakGlass.required) {
      // A force delete of an existing Finalizing resource always records a request; nothing recorded = nothing to do.
      const requested = await this.breakGlass.request('force_delete', target, reason, context);
      return requested instanceof BreakGlassAccepted ? requested : undefined;
    }
    await this.commands.run(
      new ForceDeleteCommand(
        { type: 'ForceDelete', id: target.id, kind: target.kind, reason: reason ?? '', metadata: this.commands.metadata(context) },
        context,
      ),
    );
  }

  /**
   * A status report; accepted only from an identity bound to `body.adapter` when bindings apply.
   * `fence`: the run's `X-Decom-Fence` (a stale one is recorded as `AdapterStatusDiscarded` with reason `StaleFence`, answered 204).
   * @throws HttpProblem 403 `HYPERFLEET-AUZ-001` before anything is recorded otherwise.
   */
  async reportStatus(
    target: ResourceTarget,
    body: AdapterStatusDto,
    context: CommandContext,
    fence?: ReportFence,
  ): Promise<StatusReportOutcome> {
    this.authorization.authorizeReport(context, body.adapter);
    const command: ReportAdapterStatus = {
      type: 'ReportAdapterStatus',
      id: target.id,
      kind: target.kind,
      adapter: body.adapter,
      observed_generation: body.observed_generation,
      observed_time: body.observed_time,
      conditions: body.conditions.map((c) => ({
        type: c.type,
        status: c.status,
        ...(c.reason !== undefined ? { reason: c.reason } : {}),
        ...(c.message !== undefined ? { message: c.message } : {}),
      })),
      ...(body.metadata ? { report_metadata: body.metadata } : {}),
      ...(body.data ? { data: body.data } : {}),
      ...(fence && { fence }),
      metadata: this.commands.metadata(context),
    };
    return statusReportOutcome(await this.commands.run(new ReportAdapterStatusCommand(command, context)), command);
  }
}
