import type { Logger } from 'pino';
import type { KindRegistry } from '@decom/domain';
import type { EventStore, LoopStatus, Supervisor } from '@decom/event-store';
import { ProjectionRunner, type ReadModelStore } from '@decom/projections';
import type { ReadSide } from '@decom/api';
import { createProjections } from './rebuild-projections.js';
import type { EngineLoops } from './engine-loops.js';
import type { Closers } from './closers.js';

/**
 * The read side of one process: the projections (supervised, started), and the read-your-writes gate the API
 * waits on. Writes wait until the read models caught up with the head seen at start, so no name check or
 * delete guard reads a read model that lags behind what an earlier process accepted.
 */
export class EngineReadSide {
  private hasCaughtUp = false;

  private constructor(
    readonly projections: ProjectionRunner,
    private readonly supervisor: Supervisor,
    private readonly store: EventStore,
    private readonly startHead: number,
  ) {}

  /** Starts the projections of `kinds` over `store` into `readModels`; stopped by `closers`. */
  static async start(parts: { store: EventStore; readModels: ReadModelStore; kinds: KindRegistry; loops: EngineLoops; logger: Logger; closers: Closers }): Promise<EngineReadSide> {
    const startHead = await parts.store.headPosition();
    let supervisor: Supervisor | undefined;
    const projections = new ProjectionRunner(parts.store, parts.readModels, createProjections(parts.kinds), {
      onError: (error: unknown) => supervisor?.fail(error),
      onSchemaChange: (names) => parts.logger.info(`read-model schema changed (${names.join(', ')}): replaying the event log into them`),
    });
    supervisor = parts.loops.supervise('projections', projections);
    await supervisor.start();
    const started = supervisor;
    parts.closers.add(() => started.stop());
    return new EngineReadSide(projections, started, parts.store, startHead);
  }

  /** Why commands are refused now (503), or undefined when they may run. */
  writeRefusal(): string | undefined {
    if (this.supervisor.state !== 'running') return `the read models are ${this.supervisor.state} (event store or read-model database unavailable)`;
    if (!this.hasCaughtUp) this.hasCaughtUp = this.projections.appliedPosition() >= this.startHead;
    return this.hasCaughtUp ? undefined : `the read models are catching up after start (position ${this.projections.appliedPosition()} of ${this.startHead})`;
  }

  /** What the API's read-your-writes needs (`READ_SIDE`). */
  forApi(): ReadSide {
    return {
      waitFor: (position) => this.projections.waitFor(position),
      writeRefusal: () => this.writeRefusal(),
      catchUp: async () => this.projections.waitFor(await this.store.headPosition()),
    };
  }

  /** The projections loop as `/readyz` lists it. */
  loop(): { status(): LoopStatus; position(): number } {
    return { status: () => this.supervisor.status(), position: () => this.projections.appliedPosition() };
  }
}
