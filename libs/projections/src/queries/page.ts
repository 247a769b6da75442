/** One page of a list answer (HyperFleet's list shape): `page` is 1-based, `size` the items on this page. */
export interface Page<T> {
  readonly page: number;
  readonly size: number;
  readonly total: number;
  readonly items: readonly T[];
}
