/**
 * Live updates for dashboards: one `$all` subscription per process, shared by every open
 * Server-Sent Events connection, so a hundred open browser tabs cost one store subscription and no
 * polling. An event is announced only after the projections applied it (`ReadSide.waitFor`), so a client
 * that re-reads a read model on an announcement sees the change.
 */
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { EVENT_STORE } from '@decom/application';
import type { EventStore, RecordedEvent, Subscription } from '@decom/event-store';
import { READ_SIDE, type ReadSide } from '../tokens.js';

/** What an SSE client receives per event: enough to know which resource changed, not the full data. */
export interface LiveEvent {
  readonly position: number;
  readonly type: string;
  readonly stream: string;
  readonly recorded_time: string;
  readonly caller?: string;
  /** The resource the event is about (`data.id`, `data.kind`), when it names one. */
  readonly resource?: { readonly id: string; readonly kind?: string };
}

export type LiveListener = (event: LiveEvent) => void;

export function toLiveEvent(event: RecordedEvent): LiveEvent {
  const data = event.data as { id?: unknown; kind?: unknown } | null;
  return {
    position: event.position,
    type: event.type,
    stream: event.stream,
    recorded_time: event.recorded_time,
    ...(typeof event.metadata['caller'] === 'string' ? { caller: event.metadata['caller'] } : {}),
    ...(data && typeof data.id === 'string'
      ? { resource: { id: data.id, ...(typeof data.kind === 'string' ? { kind: data.kind } : {}) } }
      : {}),
  };
}

@Injectable()
export class EventFeed implements OnModuleDestroy {
  private readonly listeners = new Set<LiveListener>();
  private readonly closers = new Set<() => void>();
  private subscription: Subscription | undefined;
  private starting: Promise<void> | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_SIDE) private readonly readSide: ReadSide,
  ) {}

  /**
   * Registers `listener` for events after the current head; `onClose` runs when the application shuts
   * down (an open SSE response would otherwise keep the HTTP server from closing). Returns the unsubscribe.
   */
  async listen(listener: LiveListener, onClose: () => void): Promise<() => void> {
    this.listeners.add(listener);
    this.closers.add(onClose);
    await this.ensureSubscribed();
    return () => {
      this.listeners.delete(listener);
      this.closers.delete(onClose);
      if (this.listeners.size === 0) void this.unsubscribe();
    };
  }

  /** Events after `position` already in the log (a reconnecting client's `Last-Event-ID`), at most `max`. */
  backlog(afterPosition: number, max: number): Promise<LiveEvent[]> {
    return this.store.readAll({ afterPosition, maxCount: max }).then((events) => events.map(toLiveEvent));
  }

  async onModuleDestroy(): Promise<void> {
    for (const close of [...this.closers]) close();
    this.listeners.clear();
    this.closers.clear();
    await this.unsubscribe();
  }

  private async ensureSubscribed(): Promise<void> {
    if (this.subscription) return;
    this.starting ??= (async () => {
      const head = await this.store.headPosition();
      this.subscription = this.store.subscribeToAll(
        async (event) => {
          await this.readSide.waitFor(event.position);
          const live = toLiveEvent(event);
          for (const listener of [...this.listeners]) listener(live);
        },
        // A store error ends the feed and every open stream with it: a stream left open would stay silent
        // for good. Clients reconnect with Last-Event-ID (the UI does), get what they missed from the
        // backlog, and the first of them starts a new subscription.
        { afterPosition: head, onError: () => void this.endOpenStreams() },
      );
    })().finally(() => (this.starting = undefined));
    await this.starting;
  }

  private async endOpenStreams(): Promise<void> {
    await this.unsubscribe();
    for (const close of [...this.closers]) close();
  }

  private async unsubscribe(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.close();
  }
}
