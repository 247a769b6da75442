/**
 * The refusal a deletion preview met: the domain error the real DELETE would have thrown. It is answered
 * with the same status and problem body as that DELETE (Kubernetes' dry run fails as the real call would),
 * plus `dry_run: true` so a client can tell nothing would have been attempted either way (error-map.ts).
 */
export class DryRunRefused extends Error {
  constructor(readonly refusal: unknown) {
    super(refusal instanceof Error ? refusal.message : String(refusal));
    this.name = 'DryRunRefused';
  }
}
