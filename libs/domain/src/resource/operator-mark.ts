/** An operator action's record (pause, force orphan): types only, shared by events, state and policies. */

/** A recorded operator action: who, why, when. */
export interface OperatorMark {
  readonly caller: string;
  readonly reason: string;
  /** RFC 3339. */
  readonly time: string;
}
