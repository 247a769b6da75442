/**
 * What the resource routes do, shared by top-level, nested and kind-agnostic routes: build the command,
 * execute it through the CommandBus, wait until the read side shows it (read-your-writes), answer.
 */
import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  CascadeThroughLiveReference,
  DeletionBudgetExceeded,
  DependencyCycle,
  LiveReferrers,
  NameAlreadyTaken,
  PROPAGATION_POLICIES,
  ResourceNotFound,
  isPropagationPolicy,
  ValidationFailed,
  computeResourceConditions,
  budgetWindowStart,
  deletionBudgetOf,
  refuseOverBudget,
  MAX_REASON_LENGTH,
  discardMessage,
  discardReason,
  isSameReport,
  labelViolations,
  nameViolations,
  type DeletionPreview,
  type PropagationPolicy,
  type References,
  type RequestDeletion,
  type ReportAdapterStatus,
  type ReportFence,
  type KindRegistry,
  type FieldViolation,
  type ResourceState,
  type Tenancy,
} from '@decom/domain';
import {
  AbandonAdapterCommand,
  CreateResourceCommand,
  ForceDeleteCommand,
  ForceOrphanCommand,
  SetPausedCommand,
  KIND_REGISTRY,
  PatchResourceCommand,
  PreviewDeletionQuery,
  RESOURCE_QUERIES,
  ReportAdapterStatusCommand,
  RequestDeletionCommand,
  type CommandContext,
  type DecisionOutcome,
} from '@decom/application';
import { resourceHref, type ResourceJson, type ResourceQueries } from '@decom/projections';
import type { AdapterStatus } from '@decom/domain';
import { Problems } from '../problem-details/problem.js';
import {
  ACCESS_POLICY,
  DELETION_BUDGETS,
  ID_GENERATOR,
  READ_SIDE,
  type DeletionBudgetSettings,
  type IdGenerator,
  type ReadSide,
} from '../tokens.js';
import type { AccessPolicy, Principal, ResourceAction } from '../auth/access-policy.js';
import type { AdapterStatusDto } from './dto/adapter-status.dto.js';
import type { CreateResourceDto } from './dto/create-resource.dto.js';
import type { PatchResourceDto } from './dto/patch-resource.dto.js';
import type { ResourceTarget } from './resource-target.js';
import { DryRunRefused } from '../problem-details/dry-run-refused.js';
import { presentPreview, type DeletionPreviewJson } from './deletion-preview-answer.js';
import { BreakGlassActions } from '../break-glass/break-glass-actions.js';
import { BreakGlassAccepted } from '../break-glass/break-glass-accepted.js';
import { RecordedCommands, type RecordedOutcome } from '../commands/recorded-commands.js';

/** A report stored, or discarded (204) with the rule that discarded it, when one did (`undefined`: nothing to say). */
export type StatusReportOutcome =
  | { readonly stored: true; readonly status: AdapterStatus }
  | { readonly stored: false; readonly discarded?: { readonly reason: string; readonly message: string } };

@Injectable()
export class ResourceActions {
  constructor(
    private readonly queryBus: QueryBus,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
    @Inject(READ_SIDE) private readonly readSide: ReadSide,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(ACCESS_POLICY) private readonly access: AccessPolicy,
    @Inject(DELETION_BUDGETS) private readonly budgets: DeletionBudgetSettings,
    private readonly breakGlass: BreakGlassActions,
    private readonly commands: RecordedCommands,
  ) {}

  async create(
    kind: string,
    body: CreateResourceDto,
    owner: { id: string; kind: string } | undefined,
    context: CommandContext,
  ): Promise<ResourceJson> {
    this.authorize(context, 'create');
    const descriptor = this.kinds.get(kind);
    if (body.kind !== kind) {
      throw new ValidationFailed(`kind must be '${kind}' on this route, got '${body.kind}'`, [
        { field: 'kind', value: body.kind, constraint: 'enum', message: `kind must be '${kind}'` },
      ]);
    }
    const names = nameViolations(body.name, descriptor);
    if (names.length > 0) throw new ValidationFailed(names.map((v) => v.message).join('; '), names);
    const labels = validLabels(body.labels ?? {});
    // Names are unique per kind and parent (HyperFleet's CNF-001). This read-model look-up is only a fast
    // path; the decision is the store's (a name reservation in the create's append, name-reservations.ts).
    const known = await this.queries.findByName(kind, body.name, owner?.id, context.audit?.tenant ?? null);
    if (known) throw Problems.nameTaken(new NameAlreadyTaken(kind, body.name, known.id).message, { id: known.id, href: known.href });
    const id = this.ids.next();
    const outcome = await this.execute(
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
          ...(body.references ? { references: await this.validReferencesNow(body.references, context.audit?.tenant ?? null) } : {}),
          ...(context.audit?.tenant ? { tenant: context.audit.tenant } : {}),
          ...(body.deletion_protection !== undefined ? { deletion_protection: body.deletion_protection } : {}),
          ...(body.deletion_protection_reason !== undefined ? { deletion_protection_reason: body.deletion_protection_reason } : {}),
          metadata: this.metadata(context),
        },
        context,
      ),
    ).catch((error: unknown) => this.explainNameTaken(error, kind, owner));
    return this.present(outcome, id);
  }

  /** `references` checked against a read model that has caught up with the log (no lagging read). */
  private async validReferencesNow(references: Record<string, unknown>, scope: Tenancy | null): Promise<References> {
    await this.readSide.catchUp?.();
    return validReferences(references, this.kinds, this.queries, scope);
  }

  /** A store-decided name conflict → 409 naming the holder (`id`, `href`); anything else unchanged. */
  private async explainNameTaken(error: unknown, kind: string, owner: { id: string; kind: string } | undefined): Promise<never> {
    if (!(error instanceof NameAlreadyTaken) || !error.existingId) throw error;
    const ownerHref = owner ? (await this.queries.get(owner.id))?.href : undefined;
    const href = (await this.queries.get(error.existingId))?.href ?? resourceHref(this.kinds, kind, error.existingId, ownerHref);
    throw Problems.nameTaken(error.message, { id: error.existingId, href });
  }

  /**
   * @throws HttpProblem 400 `HYPERFLEET-VAL-005` when the body sets no field (HyperFleet's BadRequest "at least one field must be provided").
   * @throws HttpProblem 403 for `deletion_protection: false` without the clearing role (admin, or operator when configured),
   *   whatever the resource's current protection: deny by default, before any read.
   */
  async patch(target: ResourceTarget, body: PatchResourceDto, context: CommandContext): Promise<ResourceJson> {
    this.authorize(context, 'patch');
    if (body.deletion_protection === false) this.authorize(context, 'clear_deletion_protection');
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
    const outcome = await this.execute(
      new PatchResourceCommand(
        {
          type: 'PatchResource',
          id: target.id,
          kind: target.kind,
          ...(body.spec ? { spec: body.spec } : {}),
          ...(labels ? { labels } : {}),
          ...(body.deletion_policy ? { deletion_policy: body.deletion_policy } : {}),
          ...(body.references ? { references: await this.validReferencesNow(body.references, context.audit?.tenant ?? null) } : {}),
          ...(body.deletion_protection !== undefined ? { deletion_protection: body.deletion_protection } : {}),
          ...(body.deletion_protection_reason !== undefined ? { deletion_protection_reason: body.deletion_protection_reason } : {}),
          metadata: this.metadata(context),
        },
        context,
      ),
    );
    return this.present(outcome, target.id);
  }

  /**
   * DELETE. The seed 004 guard: live referrers (from the reference index) block it unless `deleteForMove`
   * and every referrer is paused. The check reads the read model once it has applied every event committed
   * before the request (`catchUp`): a referrer created in the same instant in another tree can still slip
   * through (documented in docs/policies.md).
   */
  async delete(
    target: ResourceTarget,
    context: CommandContext,
    deleteForMove = false,
    propagationPolicy?: string,
    budgetOverride?: string,
  ): Promise<ResourceJson> {
    const planned = await this.deletionCommand(target, context, deleteForMove, propagationPolicy);
    // What the domain refuses (protection, InUse, a cycle) is refused as such before the budget is counted: a 409
    // says what to fix where a 429 would only say to wait, and a refused DELETE uses no budget.
    if (deletionBudgetOf(this.budgets.budgets, target.kind)) {
      const preview = await this.queryBus.execute<PreviewDeletionQuery, DeletionPreview>(new PreviewDeletionQuery(planned));
      if (preview.outcome === 'Refused') throw await this.redactReferrers(preview.refusal, principalOfContext(context).tenant);
    }
    const override = await this.withinBudget(target, planned, context, budgetOverride, false);
    const command: RequestDeletion = override ? { ...planned, budget_override_reason: override } : planned;
    const outcome = await this.execute(new RequestDeletionCommand(command, context)).catch(async (error: unknown) => {
      throw await this.redactReferrers(error, principalOfContext(context).tenant);
    });
    return this.present(outcome, target.id);
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
    const command = await this.deletionCommand(target, context, deleteForMove, propagationPolicy);
    // The domain's refusal first, as the DELETE answers it (see `delete`).
    const preview = await this.queryBus.execute<PreviewDeletionQuery, DeletionPreview>(new PreviewDeletionQuery(command));
    if (preview.outcome === 'Refused')
      throw new DryRunRefused(await this.redactReferrers(preview.refusal, principalOfContext(context).tenant));
    await this.withinBudget(target, command, context, budgetOverride, true).catch((error: unknown) => {
      throw error instanceof DeletionBudgetExceeded ? new DryRunRefused(error) : error;
    });
    return presentPreview(preview, await this.queries.get(target.id), deleteForMove, command.propagation_policy);
  }

  /**
   * The deletion budget (deletion-budget.ts) of `target`'s kind for its tenancy, counted in the read model (caught
   * up by `deletionCommand`): top-level deletions still Finalizing and those of the last hour. A resource already
   * deleting is not counted again (its DELETE records nothing). Two DELETEs checked at the same instant may both
   * pass: the bound can be exceeded by the number of concurrent requests (docs/policies.md).
   * @returns the administrator's override reason when the budget was exceeded and overridden (to record), else undefined.
   * @throws DeletionBudgetExceeded (429 with Retry-After); HttpProblem 403 for an override by a non-administrator;
   *   ValidationFailed for a blank or too long override reason.
   */
  private async withinBudget(
    target: ResourceTarget,
    command: RequestDeletion,
    context: CommandContext,
    override: string | undefined,
    dryRun: boolean,
  ): Promise<string | undefined> {
    if (override !== undefined) {
      this.authorize(context, 'override_deletion_budget');
      const reason = override.trim();
      if (reason === '' || [...reason].length > MAX_REASON_LENGTH) {
        const message = `deletion_budget_override must be a reason of 1..${MAX_REASON_LENGTH} characters`;
        throw new ValidationFailed(message, [
          { field: 'deletion_budget_override', value: override, constraint: reason === '' ? 'required' : 'max_length', message },
        ]);
      }
    }
    const budget = deletionBudgetOf(this.budgets.budgets, target.kind);
    if (!budget) return undefined;
    const current = await this.queries.get(target.id);
    if (!current || current.deleted_time) return undefined;
    const now = command.metadata.now;
    const use = await this.queries.deletionBudgetUse(target.kind, target.id, budgetWindowStart(now));
    const metrics = dryRun ? undefined : this.budgets.metrics;
    const kind = target.kind;
    if (budget.max_in_flight !== undefined) {
      metrics?.deletionBudgetLimit.set({ kind, budget: 'in_flight' }, budget.max_in_flight);
      metrics?.deletionBudgetUsed.set({ kind, budget: 'in_flight' }, use.in_flight);
    }
    if (budget.max_per_hour !== undefined) {
      metrics?.deletionBudgetLimit.set({ kind, budget: 'per_hour' }, budget.max_per_hour);
      metrics?.deletionBudgetUsed.set({ kind, budget: 'per_hour' }, use.in_last_hour);
    }
    try {
      refuseOverBudget(kind, use.tenant, budget, use, now);
    } catch (error) {
      if (!(error instanceof DeletionBudgetExceeded) || override === undefined) {
        metrics?.deletionBudgetChecks.inc({ kind, outcome: 'refused' });
        throw error;
      }
      metrics?.deletionBudgetChecks.inc({ kind, outcome: 'overridden' });
      return override.trim();
    }
    metrics?.deletionBudgetChecks.inc({ kind, outcome: 'allowed' });
    return undefined;
  }

  /**
   * The `RequestDeletion` of a DELETE on `target`, from a read side caught up with the log (the guard's referrers).
   * @throws HttpProblem 403 without the delete role; ValidationFailed for a `propagationPolicy` outside PROPAGATION_POLICIES.
   */
  private async deletionCommand(
    target: ResourceTarget,
    context: CommandContext,
    deleteForMove: boolean,
    propagationPolicy: string | undefined,
  ): Promise<RequestDeletion> {
    this.authorize(context, 'delete');
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
      metadata: this.metadata(context),
    };
  }

  /**
   * A guard's 409 names referrers (or a cycle's members); one in a tenant the caller cannot see is counted or
   * shown as outside the caller's tenant, not named (as in
   * HyperFleet: outside its tenancy a resource is as unknown as a missing one). The guard itself is unchanged.
   */
  private async redactReferrers(error: unknown, scope: Tenancy | null): Promise<unknown> {
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

  /** Pause (`paused=true`) or unpause, any state, reason required (seed 004). */
  async setPaused(
    target: ResourceTarget,
    paused: boolean,
    reason: string | undefined,
    context: CommandContext,
  ): Promise<ResourceJson | BreakGlassAccepted> {
    this.authorize(context, paused ? 'pause' : 'unpause');
    if (!paused && this.breakGlass.required)
      return this.requested(await this.breakGlass.request('unpause', target, reason, context), target.id);
    const outcome = await this.execute(
      new SetPausedCommand(
        { type: 'SetPaused', id: target.id, kind: target.kind, paused, reason: reason ?? '', metadata: this.metadata(context) },
        context,
      ),
    );
    return this.present(outcome, target.id);
  }

  /** Force-orphan break-glass (seed 003): admin only, only while Finalizing. */
  async forceOrphan(
    target: ResourceTarget,
    reason: string | undefined,
    context: CommandContext,
  ): Promise<ResourceJson | BreakGlassAccepted> {
    this.authorize(context, 'force_orphan');
    if (this.breakGlass.required) return this.requested(await this.breakGlass.request('force_orphan', target, reason, context), target.id);
    const outcome = await this.execute(
      new ForceOrphanCommand(
        { type: 'ForceOrphan', id: target.id, kind: target.kind, reason: reason ?? '', metadata: this.metadata(context) },
        context,
      ),
    );
    return this.present(outcome, target.id);
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
    this.authorize(context, 'abandon_adapter');
    // Abandoning every adapter of the frozen set reaches as far as a force delete: under the two-person rule it
    // waits for a second administrator too.
    if (this.breakGlass.required)
      return this.requested(await this.breakGlass.request('abandon_adapter', target, reason, context, adapter), target.id);
    const outcome = await this.execute(
      new AbandonAdapterCommand(
        { type: 'AbandonAdapter', id: target.id, kind: target.kind, adapter, reason: reason ?? '', metadata: this.metadata(context) },
        context,
      ),
    );
    return this.present(outcome, target.id);
  }

  /**
   * Under the two-person rule (`authorization.break_glass`): the recorded request (202), or, when the action
   * would change nothing and nothing was recorded, the resource as it is (as a repeat answers).
   */
  private async requested(result: BreakGlassAccepted | DecisionOutcome, id: string): Promise<ResourceJson | BreakGlassAccepted> {
    return result instanceof BreakGlassAccepted ? result : this.present({ ...result, readSideCurrent: true }, id);
  }

  /** @throws HttpProblem 403 `HYPERFLEET-AUZ-001` when the access policy refuses `action` to the caller. */
  private authorize(context: CommandContext, action: ResourceAction): void {
    const decision = this.access.can(principalOfContext(context), action);
    if (!decision.allowed) throw Problems.forbidden(decision.reason);
  }

  /** @throws HttpProblem 403 unless the caller is an administrator (a Decom choice; docs/security.md). */
  async forceDelete(target: ResourceTarget, reason: string | undefined, context: CommandContext): Promise<void | BreakGlassAccepted> {
    this.authorize(context, 'force_delete');
    if (this.breakGlass.required) {
      // A force delete of an existing Finalizing resource always records a request; nothing recorded = nothing to do.
      const requested = await this.breakGlass.request('force_delete', target, reason, context);
      return requested instanceof BreakGlassAccepted ? requested : undefined;
    }
    await this.execute(
      new ForceDeleteCommand(
        { type: 'ForceDelete', id: target.id, kind: target.kind, reason: reason ?? '', metadata: this.metadata(context) },
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
    const decision = this.access.canReport(principalOfContext(context), body.adapter);
    if (!decision.allowed) throw Problems.forbidden(decision.reason);
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
      metadata: this.metadata(context),
    };
    const outcome = await this.execute(new ReportAdapterStatusCommand(command, context));
    const reported = outcome.events.find((e) => e.type === 'AdapterStatusReported');
    if (reported && reported.type === 'AdapterStatusReported') return { stored: true, status: reported.data.status };
    // An identical repeat records nothing new (transitions only) but is not a discard: answer the stored
    // status. Unless the report is one HyperFleet discards anyway (a repeated Available=Unknown): 204.
    const resource = outcome.state.resources.get(target.id);
    const stored = resource?.adapter_statuses[body.adapter];
    if (stored && isSameReport(stored, command) && discardReason(resource!, command) === undefined) return { stored: true, status: stored };
    const recorded = outcome.events.find((e) => e.type === 'AdapterStatusDiscarded');
    if (recorded && recorded.type === 'AdapterStatusDiscarded')
      return { stored: false, discarded: { reason: recorded.data.reason, message: recorded.data.message } };
    const reason = resource && discardReason(resource, command);
    return reason ? { stored: false, discarded: { reason, message: discardMessage(reason, resource, command) } } : { stored: false };
  }

  private metadata(context: CommandContext) {
    return this.commands.metadata(context);
  }

  private execute(command: object): Promise<RecordedOutcome> {
    return this.commands.run(command);
  }

  /**
   * The answer of a command: fields from the decided state (so `generation`/`deleted_time` are the
   * ones just recorded), conditions from the projection that has applied the events; when the read
   * side could not be read after the command was recorded, conditions computed from the decided state.
   */
  private async present(outcome: RecordedOutcome, id: string): Promise<ResourceJson> {
    const state = outcome.state.resources.get(id) ?? outcome.before.resources.get(id);
    if (!state) throw new ResourceNotFound('Resource', id);
    const read = (resourceId: string) =>
      outcome.readSideCurrent ? this.queries.get(resourceId).catch(() => undefined) : Promise.resolve(undefined);
    const view = await read(id);
    const owner = state.owner_references;
    const ownerHref = owner ? ((await read(owner.id))?.href ?? hrefFromState(outcome, this.kinds, owner.id)) : undefined;
    return presentState(state, this.kinds, view, ownerHref);
  }
}

/** A command's outcome as recorded; `readSideCurrent` false when the read models were not reached after it. */

/** The href of `id` from the decided state (its owners' chain), when the read model cannot be asked. */
function hrefFromState(outcome: DecisionOutcome, kinds: KindRegistry, id: string): string | undefined {
  const state = outcome.state.resources.get(id) ?? outcome.before.resources.get(id);
  if (!state) return undefined;
  const ownerHref = state.owner_references ? hrefFromState(outcome, kinds, state.owner_references.id) : undefined;
  if (state.owner_references && !ownerHref) return undefined;
  return resourceHref(kinds, state.kind, state.id, ownerHref);
}

function principalOfContext(context: CommandContext): Principal {
  return {
    identity: context.caller,
    issuer: context.audit?.issuer ?? null,
    subject: context.audit?.subject ?? null,
    tenant: context.audit?.tenant ?? null,
  };
}

/** At most this many references per resource (each is a row in the reference index). */
const MAX_REFERENCES = 100;

/**
 * Checks `references`: ref_type → [{ id, kind }], each target an existing, not deleting resource of that kind
 * (HyperFleet: referencing a soft-deleted target is a 400). @throws ValidationFailed listing every problem.
 */
async function validReferences(
  raw: Record<string, unknown>,
  kinds: KindRegistry,
  queries: ResourceQueries,
  scope: Tenancy | null,
): Promise<References> {
  const violations: FieldViolation[] = [];
  let count = 0;
  for (const [refType, targets] of Object.entries(raw)) {
    if (!/^[a-z0-9]([-a-z0-9_]*[a-z0-9])?$/.test(refType)) {
      violations.push({
        field: `references.${refType}`,
        constraint: 'pattern',
        message: 'ref_type must match ^[a-z0-9]([-a-z0-9_]*[a-z0-9])?$',
      });
      continue;
    }
    if (!Array.isArray(targets)) {
      violations.push({ field: `references.${refType}`, constraint: 'format', message: 'must be a list of { id, kind }' });
      continue;
    }
    for (const [i, t] of targets.entries()) {
      const field = `references.${refType}[${i}]`;
      const target = t as { id?: unknown; kind?: unknown };
      if (++count > MAX_REFERENCES) {
        violations.push({ field, constraint: 'max', message: `at most ${MAX_REFERENCES} references` });
        break;
      }
      if (typeof target?.id !== 'string' || target.id === '' || typeof target.kind !== 'string' || !kinds.find(target.kind)) {
        violations.push({ field, constraint: 'format', message: 'must be { id, kind } with a configured kind' });
        continue;
      }
      // A target outside the caller's tenancy is as unknown as a missing one (as in HyperFleet).
      const found = (await queries.visible(target.id, scope)) ? await queries.get(target.id) : undefined;
      if (!found || found.kind !== target.kind) {
        violations.push({ field, value: target.id, constraint: 'format', message: `no ${target.kind} with id '${target.id}'` });
      } else if (found.deleted_time) {
        violations.push({
          field,
          value: target.id,
          constraint: 'format',
          message: `${target.kind} '${target.id}' is marked for deletion and cannot be referenced`,
        });
      }
    }
  }
  if (violations.length > 0) throw new ValidationFailed(violations.map((v) => v.message).join('; '), violations);
  return raw as References;
}

/** @throws ValidationFailed naming every label that breaks Kubernetes' label syntax (labels.ts). */
function validLabels(labels: Record<string, unknown>): Record<string, string> {
  const violations = labelViolations(labels);
  if (violations.length > 0) throw new ValidationFailed(violations.map((v) => v.message).join('; '), violations);
  return labels as Record<string, string>;
}

function presentState(
  state: ResourceState,
  kinds: KindRegistry,
  view: ResourceJson | undefined,
  ownerHref: string | undefined,
): ResourceJson {
  const href = view?.href ?? resourceHref(kinds, state.kind, state.id, ownerHref);
  const conditions =
    view?.status.conditions ??
    computeResourceConditions({
      generation: state.generation,
      ...(state.deleted_time ? { deleted_time: state.deleted_time } : {}),
      required_adapters: kinds.find(state.kind)?.required_adapters ?? [],
      adapter_statuses: state.adapter_statuses,
      child_record_count: 0,
      created_time: state.created_time,
      updated_time: state.updated_time,
      previous: [],
    });
  return {
    id: state.id,
    kind: state.kind,
    href,
    name: state.name,
    spec: { ...state.spec },
    ...(Object.keys(state.labels).length > 0 ? { labels: { ...state.labels } } : {}),
    generation: state.generation,
    status: { conditions },
    ...(state.owner_references && ownerHref ? { owner_references: { ...state.owner_references, href: ownerHref } } : {}),
    created_time: state.created_time,
    updated_time: state.updated_time,
    created_by: state.created_by,
    updated_by: state.updated_by,
    ...(state.deleted_time ? { deleted_time: state.deleted_time, deleted_by: state.deleted_by ?? '' } : {}),
    deletion_policy: view?.deletion_policy ?? state.deletion_policy ?? 'Delete',
    ...(view?.references ? { references: view.references } : {}),
    effective_deletion_policy: view?.effective_deletion_policy ?? {
      policy: state.deletion_policy ?? 'Delete',
      source: state.deletion_policy ? 'own' : 'default',
    },
    ...(view?.deletion_propagation ? { deletion_propagation: view.deletion_propagation } : {}),
    ...(view?.deletion_required_adapters ? { deletion_required_adapters: view.deletion_required_adapters } : {}),
    ...(state.deletion_protection ? { deletion_protection: true as const, deletion_protection_set: { ...state.deletion_protection } } : {}),
  };
}
