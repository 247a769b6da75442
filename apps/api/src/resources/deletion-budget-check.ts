/**
 * The deletion budget (deletion-budget.ts) at the edge: a kind's bound on deletions in flight and per hour for
 * the deleting tenancy, counted in the read model, with an administrator's override and the budget metrics.
 */
import { Inject, Injectable } from '@nestjs/common';
import { RESOURCE_QUERIES, type CommandContext } from '@decom/application';
import {
  DeletionBudgetExceeded,
  MAX_REASON_LENGTH,
  ValidationFailed,
  budgetWindowStart,
  deletionBudgetOf,
  refuseOverBudget,
  type RequestDeletion,
} from '@decom/domain';
import type { ResourceQueries } from '@decom/projections';
import { CallerAuthorization } from '../auth/caller-authorization.js';
import { DELETION_BUDGETS, type DeletionBudgetSettings } from '../tokens.js';
import type { ResourceTarget } from './resource-target.js';

@Injectable()
export class DeletionBudgetCheck {
  constructor(
    @Inject(DELETION_BUDGETS) private readonly budgets: DeletionBudgetSettings,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
    private readonly authorization: CallerAuthorization,
  ) {}

  /** Whether deletions of `kind` are budgeted at all. */
  applies(kind: string): boolean {
    return Boolean(deletionBudgetOf(this.budgets.budgets, kind));
  }

  /**
   * Counts `target`'s DELETE against its kind's budget for its tenancy in the read model (caught up by the caller):
   * top-level deletions still Finalizing and those of the last hour. A resource already deleting is not counted
   * again (its DELETE records nothing). Two DELETEs checked at the same instant may both pass: the bound can be
   * exceeded by the number of concurrent requests (docs/policies.md). A dry run (`dryRun`) leaves the metrics alone.
   * @returns the administrator's override reason when the budget was exceeded and overridden (to record), else undefined.
   * @throws DeletionBudgetExceeded (429 with Retry-After); HttpProblem 403 for an override by a non-administrator;
   *   ValidationFailed for a blank or too long override reason.
   */
  async check(
    target: ResourceTarget,
    command: RequestDeletion,
    context: CommandContext,
    override: string | undefined,
    dryRun: boolean,
  ): Promise<string | undefined> {
    if (override !== undefined) this.requireValidOverride(override, context);
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
   * An override is checked whether or not the budget is reached: only an administrator gives one, with a reason.
   * @throws HttpProblem 403 without the override role; ValidationFailed for a blank or too long reason.
   */
  private requireValidOverride(override: string, context: CommandContext): void {
    this.authorization.authorize(context, 'override_deletion_budget');
    const reason = override.trim();
    if (reason === '' || [...reason].length > MAX_REASON_LENGTH) {
      const message = `deletion_budget_override must be a reason of 1..${MAX_REASON_LENGTH} characters`;
      throw new ValidationFailed(message, [
        { field: 'deletion_budget_override', value: override, constraint: reason === '' ? 'required' : 'max_length', message },
      ]);
    }
  }
}
