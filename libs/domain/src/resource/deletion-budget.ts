/**
 * The deletion budget (blast-radius limit): per tenant and per kind, at most `max_in_flight` top-level deletions
 * (DELETE requests, not their cascaded members) still Finalizing, and at most `max_per_hour` accepted in any
 * hour. A runaway script cannot delete the fleet; an administrator may pass an override reason, recorded on the
 * `DeletionRequested` of the resource deleted. Pure: the API counts the use in the read model and asks here.
 */
import { DeletionBudgetExceeded } from './errors.js';

/** One kind's budget (`limits.deletions.<Kind>`, or `'*'` for every kind without its own). Absent bound = unlimited. */
export interface DeletionBudget {
  readonly max_in_flight?: number;
  readonly max_per_hour?: number;
}

/** Kind (or `'*'`) → budget, as configured. */
export type DeletionBudgets = Readonly<Record<string, DeletionBudget>>;

/** What one tenant used of one kind's budget when a DELETE arrives. */
export interface DeletionBudgetUse {
  /** Top-level deletions of that kind and tenant still Finalizing. */
  readonly in_flight: number;
  /** Top-level deletions of that kind and tenant requested in the hour before `now`. */
  readonly in_last_hour: number;
  /** RFC 3339: the oldest of those (it leaves the window first); absent when none. */
  readonly oldest_in_last_hour?: string;
}

/** Seconds a refused caller is told to wait when the in-flight bound is hit: no clock says when one finishes. */
export const IN_FLIGHT_RETRY_AFTER_SECONDS = 60;

const HOUR_MS = 3_600_000;

/** The budget of `kind`: its own, else the `'*'` one, else none. */
export function deletionBudgetOf(budgets: DeletionBudgets | undefined, kind: string): DeletionBudget | undefined {
  return budgets?.[kind] ?? budgets?.['*'];
}

/** When the hour window that `use` was counted over started (`now` − 1 h), RFC 3339. */
export function budgetWindowStart(now: string): string {
  return new Date(Date.parse(now) - HOUR_MS).toISOString();
}

/**
 * Refuses one more top-level DELETE of `kind` beyond the budget: the in-flight bound first (it says more about
 * a runaway), then the hourly one. `tenant` only names the budget in the refusal.
 * @throws DeletionBudgetExceeded with the bound hit, its limit, the use and the seconds to wait (`Retry-After`):
 *   for the hourly bound until the oldest deletion counted leaves the window (at least 1 s).
 */
export function refuseOverBudget(
  kind: string,
  tenant: string | undefined,
  budget: DeletionBudget | undefined,
  use: DeletionBudgetUse,
  now: string,
): void {
  if (!budget) return;
  if (budget.max_in_flight !== undefined && use.in_flight >= budget.max_in_flight) {
    throw new DeletionBudgetExceeded(kind, tenant, 'max_in_flight', budget.max_in_flight, use.in_flight, IN_FLIGHT_RETRY_AFTER_SECONDS);
  }
  if (budget.max_per_hour !== undefined && use.in_last_hour >= budget.max_per_hour) {
    const leaves = use.oldest_in_last_hour ? Date.parse(use.oldest_in_last_hour) + HOUR_MS - Date.parse(now) : HOUR_MS;
    throw new DeletionBudgetExceeded(
      kind,
      tenant,
      'max_per_hour',
      budget.max_per_hour,
      use.in_last_hour,
      Math.max(1, Math.ceil(leaves / 1000)),
    );
  }
}
