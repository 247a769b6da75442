/** The fence an adapter run's report carries (`X-Decom-Fence`): types only; the rule is `staleFence` in `fencing.ts`. */

/** A run's fence as the report carries it. */
export interface ReportFence {
  /** The generation the run was started for. */
  readonly generation: number;
  /** Grows with every run of this resource and adapter (job-queue `JobFence.sequence`). */
  readonly sequence: number;
}
