/**
 * Where a process is in its start, before the API serves the port: `starting` (files checked, connecting),
 * `waiting` (a dependency did not answer at start and is retried with backoff), `ready` (the API took over
 * the port). Until `ready`, the start-up gate (http-edge/startup-gate.ts) answers `/readyz` 503 with
 * `report()` and every other route 503 with `Retry-After`, so a supervisor sees a live process, not a crash loop.
 */
import type { ReadinessReport } from './readiness-report.js';

/** `since` is RFC 3339 UTC: when this phase began (for `waiting`, the first failed attempt of this dependency). */
export type StartupPhase =
  | { readonly state: 'starting'; readonly since: string }
  | {
      readonly state: 'waiting';
      /** `postgres`, `eventstoredb` or `redis`: what the process waits for. */
      readonly dependency: string;
      readonly since: string;
      /** The last attempt's failure, one line. */
      readonly error: string;
      /** Failed attempts so far (absent where the client library reconnects by itself: Redis). */
      readonly attempts?: number;
    }
  | { readonly state: 'ready'; readonly since: string };

export class StartupState {
  private phase: StartupPhase;

  constructor(private readonly now: () => Date = () => new Date()) {
    this.phase = { state: 'starting', since: this.now().toISOString() };
  }

  current(): StartupPhase {
    return this.phase;
  }

  /** A failed attempt to reach `dependency`; `since` stays that of the first failure while it is the same dependency. */
  waiting(dependency: string, error: string, attempts?: number): void {
    const since = this.phase.state === 'waiting' && this.phase.dependency === dependency ? this.phase.since : this.now().toISOString();
    this.phase = { state: 'waiting', dependency, since, error, ...(attempts !== undefined ? { attempts } : {}) };
  }

  /** The dependency answered; the rest of the start (migrations done, projections, queue) goes on. */
  starting(): void {
    if (this.phase.state !== 'starting') this.phase = { state: 'starting', since: this.now().toISOString() };
  }

  ready(): void {
    this.phase = { state: 'ready', since: this.now().toISOString() };
  }

  /** One sentence for a 503's `detail`: `waiting for postgres since <t> (connect ECONNREFUSED ...)`. */
  describe(): string {
    const phase = this.phase;
    if (phase.state === 'waiting') return `waiting for ${phase.dependency} since ${phase.since} (${phase.error})`;
    return `${phase.state} since ${phase.since}`;
  }

  /** `/readyz` while the gate holds the port: `{ status, checks: { startup } }`, `not_ready` until `ready()`. */
  report(): ReadinessReport {
    return { status: this.phase.state === 'ready' ? 'ready' : 'not_ready', checks: { startup: this.phase } };
  }
}
