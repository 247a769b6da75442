/**
 * Runs reactors: event-store subscriptions with a stored checkpoint whose handlers cause side effects
 * outside the read-model database (enqueuing jobs). At-least-once: a checkpoint is saved only for an event
 * whose handler succeeded, so a crash in between replays the event (handlers must be idempotent — job ids are).
 *
 * Saves are coalesced: while one is being written, the events handled meanwhile are covered by the next
 * save, of the latest handled position. A reactor sees every event of the log (the leak inventory's acts
 * on few of them), and one read-model transaction per event per reactor was most of the read-model
 * commits of a bulk deletion. What a crash replays stays bounded by the events handled during one save.
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
  /** Position of the last checkpoint written (or loaded). */
  private saved = 0;
  /** The save in flight, which goes on to the latest handled position before it settles. */
  private saving: Promise<void> | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly reactor: Reactor,
    private readonly onError: (error: unknown) => void,
  ) {}

  async start(): Promise<void> {
    this.position = await this.checkpoints.load(this.reactor.name);
    this.saved = this.position;
    this.subscription = this.store.subscribeToAll(
      async (event) => {
        await this.reactor.handle(event);
        this.position = event.position;
        this.saveCheckpoint();
      },
      { afterPosition: this.position, onError: (error) => this.onError(error) },
    );
  }

  /** Last position handled by this runner. */
  checkpoint(): number {
    return this.position;
  }

  /**
   * Stops the subscription, then writes the checkpoint of the last handled event. A failure of that last
   * write is not reported: the events after the stored checkpoint are handled again at the next start.
   */
  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
    await this.saving;
    this.saveCheckpoint(() => undefined);
    await this.saving;
  }

  /**
   * Writes the handled position unless a save is in flight (it writes the newest position before settling).
   * A failed save goes to `onError`, as a failed handler does: the owner restarts the runner, which resumes
   * from the last checkpoint written.
   */
  private saveCheckpoint(onError: (error: unknown) => void = this.onError): void {
    if (this.saving || this.saved >= this.position) return;
    this.saving = (async () => {
      try {
        while (this.saved < this.position) {
          const position = this.position;
          await this.checkpoints.save(this.reactor.name, position);
          this.saved = position;
        }
      } catch (error) {
        onError(error);
      } finally {
        this.saving = undefined;
      }
    })();
  }
}
