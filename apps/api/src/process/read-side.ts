import type { Logger } from 'pino';
import type { KindRegistry } from '@decom/domain';
import type { EventStore, LoopStatus, Supervisor } from '@decom/event-store';
import { ProjectionRunner, type ReadModelStore } from '@decom/projections';
import type { Closers } from '@decom/runtime';
import type { ReadSide } from '../tokens.js';
import { createProjections } from './rebuild-projections.js';
import type { EngineLoops } from './engine-loops.js';

/**
 * The read side of one process: the projections (supervised, started), and what the API's read-your-writes
 * asks of them. Until the read models have applied the head seen at start they are catching up with a backlog
 * (a restart behind the log). Commands still run meanwhile: each decides from its tree's stream in the event
 * store, not from a read model; the few reads a decision needs exact (the delete guard's referrers and the
 * deletion budget, `references` targets, a child's stream) wait for the read models to reach the head seen when
 * they ask (`catchUp`, bounded: 503 past it), and a command's answer comes from the decided state without
 * waiting for the backlog (`catchingUp`): a restart 20,000 events behind accepts writes as soon as it listens
 * instead of after the whole replay.
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
  static async start(parts: {
    store: EventStore;
    readModels: ReadModelStore;
    kinds: KindRegistry;
    loops: EngineLoops;
    logger: Logger;
    closers: Closers;
  }): Promise<EngineReadSide> {
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

  /** Why commands are refused now (503): the projections are not running; undefined when they may run. */
  writeRefusal(): string | undefined {
    return this.supervisor.state === 'running'
      ? undefined
      : `the read models are ${this.supervisor.state} (event store or read-model database unavailable)`;
  }

  /** Whether the read models are still applying the backlog seen at start. */
  catchingUp(): boolean {
    if (!this.hasCaughtUp) this.hasCaughtUp = this.projections.appliedPosition() >= this.startHead;
    return !this.hasCaughtUp;
  }

  /** What the API's read-your-writes needs (`READ_SIDE`). */
  forApi(): ReadSide {
    return {
      waitFor: (position) => this.projections.waitFor(position),
      writeRefusal: () => this.writeRefusal(),
      catchingUp: () => this.catchingUp(),
      catchUp: async () => this.projections.waitFor(await this.store.headPosition()),
    };
  }

  /** The projections loop as `/readyz` lists it. */
  loop(): { status(): LoopStatus; position(): number } {
    return { status: () => this.supervisor.status(), position: () => this.projections.appliedPosition() };
  }
}
