import type { Logger } from 'pino';
import { Supervisor, type LoopState, type LoopStatus } from '@decom/event-store';
import { OutageLog } from '@decom/runtime';

/** A loop a `Supervisor` restarts: projections, dispatch, leak inventory. */
export interface SupervisedLoop {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The engine's long-running loops, each supervised: a failure restarts it from its checkpoint with a capped
 * jittered backoff. A state change is logged once; the store outage is logged lost at the first loop that
 * recovers and back when every loop runs again.
 */
export class EngineLoops {
  private readonly supervisors: Supervisor[] = [];
  private readonly storeOutage: OutageLog;

  /** @param storeName the event store as the log names it, e.g. `sqlite` or `postgres`. */
  constructor(
    storeName: string,
    private readonly logger: Logger,
  ) {
    this.storeOutage = new OutageLog(storeName, logger);
  }

  /** A supervisor for `loop`, not started. */
  supervise(name: string, loop: SupervisedLoop): Supervisor {
    const supervisor = new Supervisor(name, loop, { onStateChange: (status, previous) => this.onStateChange(status, previous) });
    this.supervisors.push(supervisor);
    return supervisor;
  }

  private onStateChange(status: LoopStatus, previous: LoopState): void {
    if (status.state === 'recovering' || status.state === 'failing') {
      if (status.state === 'recovering') this.storeOutage.lost(new Error(status.error ?? 'connection lost'));
      this.logger.warn(`${status.name} ${status.state === 'recovering' ? 'recovering' : 'failing, retrying'}: ${status.error ?? ''}`);
    } else if (status.state === 'running' && (previous === 'recovering' || previous === 'failing')) {
      this.logger.info(`${status.name} running again (restarts: ${status.restarts})`);
      if (this.supervisors.every((supervisor) => supervisor.state === 'running')) this.storeOutage.back();
    }
  }
}
