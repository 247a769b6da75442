/**
 * Thrown when an append reuses event ids in a way that is not an exact retry: ids repeated inside the
 * batch, ids already stored in another stream or in another order, or a batch that only partly
 * overlaps events already stored. Nothing is written.
 * (An exact retry, i.e. the same ids to the same stream at the same place, is not an error: it returns
 * the original `AppendResult`.)
 */
export class DuplicateEventId extends Error {
  override readonly name = 'DuplicateEventId';
  constructor(
    readonly stream: string,
    readonly eventIds: readonly string[],
  ) {
    super(`stream '${stream}': event id(s) already used elsewhere: ${eventIds.join(', ')}`);
  }
}
