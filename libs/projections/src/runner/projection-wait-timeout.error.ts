/** Thrown by `ProjectionRunner.waitFor` when the read models did not reach `position` within `timeoutMs`. */
export class ProjectionWaitTimeout extends Error {
  override readonly name = 'ProjectionWaitTimeout';
  /** The read side is behind, not broken: callers answer 503 and retry (supervision/transient-error.ts). */
  readonly isTransient = true;
  constructor(
    readonly position: number,
    readonly checkpoint: number,
    readonly timeoutMs: number,
  ) {
    super(`read models at position ${checkpoint} did not reach ${position} within ${timeoutMs} ms`);
  }
}
