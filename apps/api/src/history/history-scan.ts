/**
 * One page of the events that concern a resource, read from its stream in chunks of `HISTORY_CHUNK`
 * events: memory is bounded by one chunk plus the page whatever the stream's length (a cluster with
 * 20,000 status reports), never the whole stream at once. REST `GET /resources/{id}/events` and GraphQL
 * `history` share it, with the same maxima (`size` 1..1000).
 */
import type { EventStore, RecordedEvent } from '@decom/event-store';

/** Events read per store call. */
export const HISTORY_CHUNK = 500;
/** Largest page, REST and GraphQL alike (PageQueryDto). */
export const HISTORY_MAX_SIZE = 1_000;

export interface HistoryScan {
  readonly items: RecordedEvent[];
  /** Events concerning the resource in the whole stream; undefined when `countAll` was false. */
  readonly total?: number;
}

/**
 * `page` 1-based, `size` events per page (callers check the bounds). `countAll`: go on to the end of the
 * stream to count every concerning event (REST's `total`); false stops once the page is full.
 */
export async function scanHistory(
  store: EventStore,
  stream: string,
  id: string,
  page: number,
  size: number,
  countAll: boolean,
): Promise<HistoryScan> {
  const skip = (page - 1) * size;
  const items: RecordedEvent[] = [];
  let seen = 0;
  let from = 0;
  for (;;) {
    const chunk = await store.readStream(stream, { fromRevision: from, maxCount: HISTORY_CHUNK });
    for (const event of chunk) {
      if (!concerns(event.data, id)) continue;
      if (seen >= skip && items.length < size) items.push(event);
      seen += 1;
    }
    if (chunk.length < HISTORY_CHUNK || (!countAll && items.length >= size)) break;
    from = chunk[chunk.length - 1]!.revision + 1;
  }
  return countAll ? { items, total: seen } : { items };
}

/** An event concerns a resource when it is about it, or (force delete) lists it among removed subresources. */
export function concerns(data: unknown, id: string): boolean {
  const d = data as { id?: string; subresources?: { id: string }[] };
  return d.id === id || (d.subresources ?? []).some((s) => s.id === id);
}
