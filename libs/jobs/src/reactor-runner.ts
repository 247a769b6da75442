/**
 * Runs reactors: event-store subscriptions with a stored checkpoint whose handlers cause side effects
 * outside the read-model database (enqueuing jobs). At-least-once: the checkpoint is saved after the
 * handler succeeded, so a crash in between replays the event (handlers must be idempotent — job ids are).
 */
import type { EventStore, RecordedEvent, Subscription } from '@decom/event-store';

export interface Reactor {
  readonly name: string;
  handle(event: RecordedEvent): Promise<void>;
}

export interface CheckpointStore {
  /** Last handled position for `name` (0 when never run). */
  load(name: string): Promise<number>;
  save(name: string, position: number): Promise<void>;
}

export class ReactorRunner {
  private subscription?: Subscription;
  private position = 0;

  constructor(
    private readonly store: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly reactor: Reactor,
    private readonly onError: (error: unknown) => void,
  ) {}

  async start(): Promise<void> {
    this.position = await this.checkpoints.load(this.reactor.name);
    this.subscription = this.store.subscribeToAll(
      async (event) => {
        await this.reactor.handle(event);
        await this.checkpoints.save(this.reactor.name, event.position);
        this.position = event.position;
      },
      { afterPosition: this.position, onError: (error) => this.onError(error) },
    );
  }

  /** Last position handled by this runner. */
  checkpoint(): number {
    return this.position;
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
  }
}
