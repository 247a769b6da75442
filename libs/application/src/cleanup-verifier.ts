/**
 * The port the hard-delete job gathers cleanup facts through (verify before hard delete, libs/domain
 * cleanup-verification.ts): which adapters this installation hosts, and what of theirs remains for a resource.
 */
import type { CleanupCheck } from '@decom/domain';

export interface CleanupVerifier {
  /**
   * The adapters whose objects this installation can discover by ownership (the Kubernetes adapters of its
   * adapters folder). An adapter outside it (a HyperFleet adapter reporting over HTTP) is never verified.
   */
  readonly hostedAdapters: readonly string[];
  /**
   * What of `adapters` still owns objects for `<kind>/<id>`. Never throws: an adapter whose objects could not be
   * listed (Kubernetes unreachable, not connected yet) comes back in `unverified` with the reason.
   */
  check(kind: string, id: string, adapters: readonly string[]): Promise<CleanupCheck>;
}

/** DI token of the `CleanupVerifier` (absent: nothing is verified, as with no hosted adapter). */
export const CLEANUP_VERIFIER = Symbol('CleanupVerifier');
