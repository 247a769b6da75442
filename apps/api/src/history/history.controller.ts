/**
 * Per-resource history for incident investigation: every event that concerns a resource, read from the
 * event store (so it survives hard and force delete): who did what, when, with which reason and statuses.
 */
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { EVENT_STORE, RESOURCE_QUERIES } from '@decom/application';
import { ResourceNotFound } from '@decom/domain';
import type { EventStore } from '@decom/event-store';
import type { ResourceQueries } from '@decom/projections';

export interface HistoryEntry {
  readonly position: number;
  readonly revision: number;
  readonly type: string;
  readonly recorded_time: string;
  readonly caller?: string;
  readonly data: unknown;
}

@Controller('api/hyperfleet/v1/resources')
export class HistoryController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
  ) {}

  @Get(':id/events')
  async events(@Param('id') id: string): Promise<{ id: string; kind: string; stream: string; total: number; items: HistoryEntry[] }> {
    const located = await this.queries.locate(id);
    if (!located) throw new ResourceNotFound('Resource', id);
    const items = (await this.store.readStream(located.stream))
      .filter((e) => concerns(e.data, id))
      .map((e) => ({
        position: e.position,
        revision: e.revision,
        type: e.type,
        recorded_time: e.recorded_time,
        ...(typeof e.metadata['caller'] === 'string' ? { caller: e.metadata['caller'] } : {}),
        data: e.data,
      }));
    return { id, kind: located.kind, stream: located.stream, total: items.length, items };
  }
}

/** An event concerns a resource when it is about it, or (force delete) lists it among removed subresources. */
function concerns(data: unknown, id: string): boolean {
  const d = data as { id?: string; subresources?: { id: string }[] };
  return d.id === id || (d.subresources ?? []).some((s) => s.id === id);
}
