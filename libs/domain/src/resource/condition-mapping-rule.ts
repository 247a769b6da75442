/**
 * HyperFleet condition mapping rules (hyperfleet-api `docs/condition-mapping.md`): per kind,
 * CEL rules that turn adapter conditions into extra resource conditions. The domain holds the shapes and
 * the naming rules only; compiling is libs/config's job (with libs/cel), evaluating the projection's.
 */
import { ConditionType, adapterConditionType } from './conditions.js';

/** A compiled CEL expression. Structural, so the domain does not depend on the CEL library. */
export interface MappingExpression {
  /** The expression text as configured. */
  readonly source: string;
  /** @throws on any evaluation failure (the caller skips the rule for that report). */
  evaluate(vars: Readonly<Record<string, unknown>>, options?: { now?: () => Date }): unknown;
}

/** One `conditions[]` entry of an entity descriptor, compiled. */
export interface ConditionMappingRule {
  /** Output condition type: ≤ 100 characters, unique per kind, not reserved. */
  readonly type: string;
  /** Boolean gate: the rule produces a condition only when this is `true`. */
  readonly when: MappingExpression;
  /** Must give "True"/"False" (case-insensitive). */
  readonly status: MappingExpression;
  /** ≤ 256 characters, or the condition is skipped. */
  readonly reason: MappingExpression;
  /** Truncated to 2048 characters. */
  readonly message: MappingExpression;
}

/** HyperFleet's field length limits for mapped conditions. */
export const MAPPED_CONDITION_LIMITS = { type: 100, reason: 256, message: 2048 } as const;

/**
 * Condition types a mapping rule may not produce: HyperFleet's aggregates (`Reconciled`,
 * `LastKnownReconciled`), the per-adapter `<Adapter>Successful` types of `required_adapters`, and
 * Decom's own resource conditions (`Deleting`, `DeletionBlocked`, `Paused`, `DeletionTimedOut`).
 */
export function reservedConditionTypes(requiredAdapters: readonly string[]): ReadonlySet<string> {
  return new Set<string>([
    ConditionType.Reconciled,
    ConditionType.LastKnownReconciled,
    ConditionType.Deleting,
    ConditionType.DeletionBlocked,
    ConditionType.Paused,
    ConditionType.DeletionTimedOut,
    ...requiredAdapters.map(adapterConditionType),
  ]);
}
