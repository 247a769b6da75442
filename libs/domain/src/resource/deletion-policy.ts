/**
 * The deletion policy vocabulary (seed 003): what happens to an adapter's objects when their resource goes,
 * and where the effective policy comes from. Types only, so events, state and commands can name them
 * without depending on the rules in `policies.ts`.
 */

/** `Delete` (default) cleans up the adapters' objects; `Orphan` leaves them and removes only the ownership marks. */
export type DeletionPolicy = 'Delete' | 'Orphan';

/**
 * Where an effective deletion policy comes from: `own` (declared on the resource),
 * `inherited from <Kind>/<id>`, `force-orphan on <Kind>/<id>` (the break-glass), or `default` (nothing declared).
 * Per adapter object a task config's `lifecycle.delete.policy: Orphan` may still orphan it (docs/policies.md).
 */
export type DeletionPolicySource = 'own' | 'default' | `inherited from ${string}` | `force-orphan on ${string}`;

export interface EffectiveDeletionPolicy {
  readonly policy: DeletionPolicy;
  readonly source: DeletionPolicySource;
}
