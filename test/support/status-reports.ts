/**
 * Adapter status reports as the e2e suites send them while playing an adapter
 * (HyperFleet: hyperfleet-api pkg/handlers/resource_status_handler.go
 * `PUT .../statuses`): `observed_generation`, `observed_time` now, and one condition per entry of `conditions`
 * with `reason` `<Type>Reason` and message `<Type> is <Status>` unless a reason is given.
 */

/** Condition type → status (`'True'` / `'False'` / `'Unknown'`). */
export type ConditionStatuses = Readonly<Record<string, string>>;

/** Work applied and healthy, not deleting. */
export const AVAILABLE: ConditionStatuses = { Applied: 'True', Available: 'True', Health: 'True', Finalized: 'False' };
/** Deleting, cleanup still in progress (same statuses as AVAILABLE, named for what a deleting adapter says). */
export const IN_PROGRESS: ConditionStatuses = AVAILABLE;
/** Cleanup done: the adapter's objects are gone (seeds/000 "Finalized"). */
export const FINALIZED: ConditionStatuses = { Applied: 'False', Available: 'False', Health: 'True', Finalized: 'True' };
/** Applied but unhealthy. */
export const UNHEALTHY: ConditionStatuses = { Applied: 'True', Available: 'True', Health: 'False', Finalized: 'False' };

/** The `PUT .../statuses` body of `adapter` at `generation`. */
export function statusReport(adapter: string, generation: number, conditions: ConditionStatuses, reason?: string) {
  return {
    adapter,
    observed_generation: generation,
    observed_time: new Date().toISOString(),
    conditions: Object.entries(conditions).map(([type, status]) => ({
      type,
      status,
      reason: reason ?? `${type}Reason`,
      message: `${type} is ${status}`,
    })),
  };
}
