import type { LoopStatus, Supervisor } from '@decom/event-store';
import type { Sweeper } from '@decom/jobs';
import type { WatchStatus } from '@decom/adapter';

/** A loop as `/readyz` lists it: its supervisor's status and how far it has read the log. */
export interface ReadinessLoop {
  status(): LoopStatus;
  position(): number;
}

/**
 * What starts after the API listens (the hosted adapters, dispatch, the sweeper, the leak inventory) but is
 * read by what starts before it (`/readyz`, the Redis and Kubernetes recovery hooks, the metrics). Each
 * reader answers for a part not started yet: dispatch `starting`, no adapters, no watches, nothing swept.
 */
export class StartedAfterListen {
  sweeper: Sweeper | undefined;
  dispatch: { readonly supervisor: Supervisor; checkpoint(): number } | undefined;
  /** Names of the adapters this process hosts (the Kubernetes recovery re-queues their runs). */
  hostedAdapters: readonly string[] = [];
  /** The hosted adapters' Kubernetes watches: information in `/readyz`, never a condition. */
  watchStatuses: (() => WatchStatus[]) | undefined;
  /** Supervised loops besides projections and dispatch (leak inventory), listed in `/readyz` after dispatch. */
  readonly extraLoops: ReadinessLoop[] = [];
  private readonly startedAt = new Date().toISOString();

  dispatchLoop(): ReadinessLoop {
    return {
      status: () => this.dispatch?.supervisor.status() ?? { name: 'dispatch', state: 'starting', since: this.startedAt, restarts: 0 },
      position: () => this.dispatch?.checkpoint() ?? 0,
    };
  }

  watches(): WatchStatus[] {
    return this.watchStatuses?.() ?? [];
  }
}
