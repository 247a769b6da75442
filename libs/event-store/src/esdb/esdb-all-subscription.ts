/**
 * The port's `$all` subscription on EventStoreDB's catch-up subscription (backlog, then live, one stream).
 */
import type { AllStreamSubscription } from '@eventstore/db-client';
import type { RecordedEvent, SubscribeOptions, Subscription } from '../event-store.port.js';
import { toRecordedEvent, type EsdbStreamNames } from './esdb-recorded-event.js';

/**
 * Pulls events from `source` one at a time (async iteration keeps the gRPC stream's backpressure, so the
 * handler is awaited before the next event is read), skips what is not ours, and hands the rest to the
 * handler in order. The server's `fromPosition` is exclusive; events at or before `afterPosition` are
 * still dropped here, so a resumed consumer can never see its checkpoint's event twice.
 * A handler or server error stops it and goes to `onError` (unhandled rejection without one).
 */
export class EsdbAllSubscription implements Subscription {
  private isClosed = false;
  private readonly finished: Promise<void>;

  constructor(
    private readonly source: AllStreamSubscription,
    private readonly names: EsdbStreamNames,
    private readonly handler: (event: RecordedEvent) => Promise<void>,
    private readonly options: SubscribeOptions,
    onFinished: (subscription: EsdbAllSubscription) => void,
  ) {
    this.finished = this.run().finally(() => onFinished(this));
  }

  /** Stops delivery; resolves once the running handler (if any) returned. Do not await it from the handler. */
  async close(): Promise<void> {
    this.isClosed = true;
    await this.unsubscribe();
    await this.finished;
  }

  private async run(): Promise<void> {
    let afterPosition = this.options.afterPosition;
    try {
      for await (const resolved of this.source) {
        if (this.isClosed) return;
        const event = toRecordedEvent(resolved, this.names);
        if (!event || event.position <= afterPosition) continue;
        await this.handler(event);
        afterPosition = event.position;
      }
    } catch (error) {
      if (this.isClosed) return;
      this.isClosed = true;
      if (this.options.onError) this.options.onError(error);
      else void Promise.reject(error);
    } finally {
      await this.unsubscribe();
    }
  }

  private async unsubscribe(): Promise<void> {
    try {
      await this.source.unsubscribe();
    } catch {
      // Already ended (server closed it, or we did).
    }
  }
}
