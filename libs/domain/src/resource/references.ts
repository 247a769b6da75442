/** Non-ownership references between resources (seed 004 delete guard). Types only. */

/** A non-ownership reference (HyperFleet `references`: ref_type → targets). */
export interface ObjectReference {
  readonly id: string;
  readonly kind: string;
}
export type References = Readonly<Record<string, readonly ObjectReference[]>>;
