/**
 * Adapter-status ingestion rules (hyperfleet-api `pkg/handlers/resource_status_handler.go`): validation (400) and
 * discard (204).
 */
import { ConditionType, MANDATORY_REPORT_CONDITIONS, type AdapterCondition, type ConditionStatus } from './conditions.js';
import { ValidationFailed, type FieldViolation } from './errors.js';
import type { ReportAdapterStatus } from './resource.commands.js';
import type { AdapterStatus } from './resource.events.js';
import type { ResourceState } from './resource.state.js';

/** An adapter clock may run at most this far ahead of ours (now + 5m, as HyperFleet's API allows). */
export const MAX_OBSERVED_TIME_SKEW_MS = 5 * 60_000;
/** A report may be at most this old (now − 30m, as HyperFleet's API allows). */
export const MAX_OBSERVED_TIME_AGE_MS = 30 * 60_000;

const STATUSES: readonly string[] = ['True', 'False', 'Unknown'];
/** RFC 3339 date-time (`2026-03-25T10:00:00Z`, fractions and offsets allowed). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** @throws ValidationFailed listing every violation at once. */
export function validateReport(command: ReportAdapterStatus): void {
  const violations: FieldViolation[] = [];
  if (!command.adapter || command.adapter.trim() === '') {
    violations.push({ field: 'adapter', value: command.adapter, constraint: 'required', message: 'adapter is required' });
  }
  if (!Number.isInteger(command.observed_generation) || command.observed_generation < 1) {
    violations.push({
      field: 'observed_generation',
      value: command.observed_generation,
      constraint: 'min',
      message: 'observed_generation must be an integer >= 1',
    });
  }
  const observed = RFC3339.test(command.observed_time ?? '') ? Date.parse(command.observed_time) : NaN;
  const now = Date.parse(command.metadata.now);
  if (Number.isNaN(observed)) {
    violations.push({
      field: 'observed_time',
      value: command.observed_time,
      constraint: 'format',
      message: 'observed_time must be an RFC 3339 date-time',
    });
  } else if (observed > now + MAX_OBSERVED_TIME_SKEW_MS) {
    violations.push({
      field: 'observed_time',
      value: command.observed_time,
      constraint: 'max',
      message: 'observed_time is more than 5m in the future',
    });
  } else if (observed < now - MAX_OBSERVED_TIME_AGE_MS) {
    violations.push({
      field: 'observed_time',
      value: command.observed_time,
      constraint: 'min',
      message: 'observed_time is more than 30m in the past',
    });
  }
  const seen = new Set<string>();
  command.conditions.forEach((c, i) => {
    if (!c.type) violations.push({ field: `conditions[${i}].type`, constraint: 'required', message: 'condition type is required' });
    else if (seen.has(c.type))
      violations.push({
        field: `conditions[${i}].type`,
        value: c.type,
        constraint: 'unique',
        message: `duplicate condition type '${c.type}'`,
      });
    seen.add(c.type);
    if (!STATUSES.includes(c.status)) {
      violations.push({
        field: `conditions[${i}].status`,
        value: c.status,
        constraint: 'enum',
        message: 'status must be one of True, False, Unknown',
      });
    }
  });
  for (const mandatory of MANDATORY_REPORT_CONDITIONS) {
    if (!seen.has(mandatory)) {
      violations.push({ field: 'conditions', constraint: 'required', message: `missing mandatory condition '${mandatory}'` });
    }
  }
  if (violations.length > 0) {
    throw new ValidationFailed(violations.map((v) => v.message).join('; '), violations);
  }
}

export type DiscardReason = 'FutureGeneration' | 'StaleGeneration' | 'StaleObservedTime' | 'AvailableUnknown';

/**
 * Why a valid report is discarded (answered 204, nothing recorded), or undefined to store it.
 * Decom's choice: while deleting, a report carrying `Finalized` is never discarded for `Available=Unknown`.
 */
export function discardReason(resource: ResourceState, command: ReportAdapterStatus): DiscardReason | undefined {
  const stored = resource.adapter_statuses[command.adapter];
  if (command.observed_generation > resource.generation) return 'FutureGeneration';
  if (stored && command.observed_generation < stored.observed_generation) return 'StaleGeneration';
  if (
    stored &&
    command.observed_generation === stored.observed_generation &&
    Date.parse(command.observed_time) < Date.parse(stored.last_report_time)
  ) {
    return 'StaleObservedTime';
  }
  const available = command.conditions.find((c) => c.type === ConditionType.Available)?.status;
  const carriesFinalized = command.conditions.some((c) => c.type === ConditionType.Finalized);
  if (available === 'Unknown' && stored && !(resource.deleted_time !== undefined && carriesFinalized)) {
    return 'AvailableUnknown';
  }
  return undefined;
}

/**
 * What a discard tells the adapter (the API's `Warning` header on the 204): the rule and the values it compared,
 * e.g. `observed_generation 99 is ahead of the resource's generation 2`.
 */
export function discardMessage(reason: DiscardReason, resource: ResourceState, command: ReportAdapterStatus): string {
  const stored = resource.adapter_statuses[command.adapter];
  switch (reason) {
    case 'FutureGeneration':
      return `observed_generation ${command.observed_generation} is ahead of the resource's generation ${resource.generation}`;
    case 'StaleGeneration':
      return `observed_generation ${command.observed_generation} is older than the stored report's ${stored?.observed_generation}`;
    case 'StaleObservedTime':
      return `observed_time ${command.observed_time} is older than the stored report's ${stored?.last_report_time}`;
    case 'AvailableUnknown':
      return 'Available=Unknown does not replace a stored report';
  }
}

/** The stored form: `last_transition_time` kept from the stored report while a condition's status is unchanged. */
export function toAdapterStatus(command: ReportAdapterStatus, stored: AdapterStatus | undefined): AdapterStatus {
  const now = command.metadata.now;
  const conditions: AdapterCondition[] = command.conditions.map((c) => {
    const before = stored?.conditions.find((s) => s.type === c.type);
    return {
      type: c.type,
      status: c.status as ConditionStatus,
      ...(c.reason !== undefined ? { reason: c.reason } : {}),
      ...(c.message !== undefined ? { message: c.message } : {}),
      last_transition_time: before && before.status === c.status ? before.last_transition_time : now,
    };
  });
  return {
    adapter: command.adapter,
    observed_generation: command.observed_generation,
    conditions,
    ...(command.report_metadata !== undefined ? { metadata: command.report_metadata } : {}),
    ...(command.data !== undefined ? { data: command.data } : {}),
    created_time: stored?.created_time ?? now,
    last_report_time: new Date(Date.parse(command.observed_time)).toISOString(),
  };
}
