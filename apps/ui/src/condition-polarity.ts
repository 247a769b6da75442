/**
 * What a condition's status means, declared once for the whole UI. A condition type has a polarity:
 * `positive` types are good when True (Available, Reconciled, ...), `negative` types report an abnormal
 * state and are bad when True (DeletionBlocked, Paused, ...). Colouring by the literal True/False would show
 * `Paused=True` as healthy. Unknown types and `Unknown` statuses are neutral: the UI does not guess.
 *
 * The type names are those `libs/domain` emits (`resource/conditions.ts`: resource and adapter-report
 * conditions; the blocker reasons DependentsExist, InUse and DependencyCycle also name abnormal states) and
 * the per-adapter `<Adapter>Successful` conditions HyperFleet's API adds. Kept free of imports so it runs both in
 * the browser bundle and under Jest.
 */

export type Polarity = 'positive' | 'negative' | 'informational';

/** How a condition reads to an operator: good, bad, or neither (unknown type, `Unknown` status, informational). */
export type ConditionTone = 'good' | 'bad' | 'neutral';

/** Condition type → polarity. One entry per type; a type absent here is neutral unless a suffix rule below names it. */
export const CONDITION_POLARITY: Readonly<Record<string, Polarity>> = {
  // HyperFleet's resource conditions and the mandatory adapter-report conditions.
  Reconciled: 'positive',
  LastKnownReconciled: 'positive',
  Available: 'positive',
  Applied: 'positive',
  Health: 'positive',
  Finalized: 'positive',
  Ready: 'positive',
  // Decom's deletion conditions (seed 004). Deleting=True is the expected state of a deletion: neither good nor bad.
  Deleting: 'informational',
  DeletionBlocked: 'negative',
  DeletionTimedOut: 'negative',
  Paused: 'negative',
  // Abnormal states the domain reports as blocker reasons; negative should they ever appear as a type.
  DependencyCycle: 'negative',
  InUse: 'negative',
  DependentsExist: 'negative',
  DeadLettered: 'negative',
  JobQueueUnavailable: 'negative',
  TimedOut: 'negative',
  // Kubernetes-style abnormal conditions adapters may forward.
  Degraded: 'negative',
  Stalled: 'negative',
};

/** Suffixes that name a positive type: `ValidationSuccessful` (per adapter), `ControlPlaneReady`, `ClusterHealthy`. */
const POSITIVE_SUFFIXES = ['Successful', 'Ready', 'Healthy', 'Available'] as const;

/** The polarity of condition `type`: the table first, then the suffix rule; undefined when unknown. */
export function conditionPolarity(type: string): Polarity | undefined {
  const declared = CONDITION_POLARITY[type];
  if (declared) return declared;
  return POSITIVE_SUFFIXES.some((suffix) => type.endsWith(suffix) && type.length > suffix.length) ? 'positive' : undefined;
}

/** `Available`/`True` → good, `Paused`/`True` → bad, `DeletionBlocked`/`False` → good; unknown type or status → neutral. */
export function conditionTone(type: string, status: string): ConditionTone {
  const polarity = conditionPolarity(type);
  if (polarity !== 'positive' && polarity !== 'negative') return 'neutral';
  if (status !== 'True' && status !== 'False') return 'neutral';
  return (status === 'True') === (polarity === 'positive') ? 'good' : 'bad';
}
