/**
 * Keeps one long-running loop (projection runner, dispatch reactor, ...) running: starts it, and when it
 * reports a failure (`fail`, wired to the loop's `onError`) stops it and starts it again from its stored
 * checkpoint after a capped, jittered exponential backoff. Logs once per state change, never per attempt,
 * and reports its state for `/readyz`.
 *
 * Every failure is retried: a transient one (connection loss, 40P01, 40001, timeouts: transient-error.ts)
 * moves the loop to `recovering`; any other to `failing` (a bug or a bad event: retrying shows the same
 * error and keeps readiness red, but a misclassified outage still heals). Hand-rolled: restart-from-
 * checkpoint needs the loop's own start/stop, which no retry library models.
 */
import { describeError, isTransientError } from './transient-error.js';

export type LoopState = 'starting' | 'running' | 'recovering' | 'failing' | 'stopped';

export interface LoopStatus {
  readonly name: string;
  readonly state: LoopState;
  /** RFC 3339 time of the last state change. */
  readonly since: string;
  /** One line on the last error while not running. */
  readonly error?: string;
  /** Restarts since the process started. */
  readonly restarts: number;
}

export interface SupervisedLoop {
  /** Starts the loop (resolves once it runs); throws when it cannot start. */
  start(): Promise<void>;
  /** Stops it; resolves when idle. Must work after a failure. */
  stop(): Promise<void>;
}

export interface SupervisorOptions {
  /** First restart delay, ms (default 200), doubled per failed attempt up to `maxDelayMs` (default 10 000). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** A loop that ran this long (ms, default 10 000) before failing restarts from `baseDelayMs` again. */
  readonly stableAfterMs?: number;
  /** [0,1) source for jitter (×0.5..1.5). */
  readonly random?: () => number;
  /** One call per state change. */
  readonly onStateChange?: (status: LoopStatus, previous: LoopState) => void;
}

export class Supervisor {
  private current: LoopState = 'stopped';
  private since = new Date();
  private lastError: string | undefined;
  private restarts = 0;
  private attempt = 0;
  private runningSince = 0;
  private timer: NodeJS.Timeout | undefined;
  private transition: Promise<void> = Promise.resolve();
  private isStopped = false;

  constructor(
    readonly name: string,
    private readonly loop: SupervisedLoop,
    private readonly options: SupervisorOptions = {},
  ) {}

  get state(): LoopState {
    return this.current;
  }

  status(): LoopStatus {
    return {
      name: this.name,
      state: this.current,
      since: this.since.toISOString(),
      ...(this.lastError && this.current !== 'running' ? { error: this.lastError } : {}),
      restarts: this.restarts,
    };
  }

  /**
   * Starts the loop. A transient failure to start is not thrown: the supervisor keeps retrying
   * (state `recovering`). @throws the loop's start error when it is not transient (nothing retried then).
   */
  async start(): Promise<void> {
    this.isStopped = false;
    this.setState('starting');
    try {
      await this.loop.start();
      this.running();
    } catch (error) {
      if (!isTransientError(error)) {
        this.setState('stopped', error);
        throw error;
      }
      this.scheduleRestart(error);
    }
  }

  /** The loop's `onError`: the loop stopped on `error`; restart it after the backoff. Safe to call repeatedly. */
  fail(error: unknown): void {
    if (this.isStopped || this.timer) return;
    if (this.runningSince && Date.now() - this.runningSince >= (this.options.stableAfterMs ?? 10_000)) this.attempt = 0;
    this.runningSince = 0;
    this.scheduleRestart(error);
  }

  /** Stops the loop and any pending restart. Idempotent. */
  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.transition;
    await this.loop.stop();
    this.setState('stopped');
  }

  private scheduleRestart(error: unknown): void {
    this.setState(isTransientError(error) ? 'recovering' : 'failing', error);
    const base = this.options.baseDelayMs ?? 200;
    const max = this.options.maxDelayMs ?? 10_000;
    const delay = Math.min(max, base * 2 ** this.attempt) * (0.5 + (this.options.random ?? Math.random)());
    this.attempt += 1;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.transition = this.restart();
    }, delay);
    this.timer.unref();
  }

  private async restart(): Promise<void> {
    if (this.isStopped) return;
    this.restarts += 1;
    try {
      await this.loop.stop();
      if (this.isStopped) return;
      await this.loop.start();
      if (this.isStopped) return;
      this.running();
    } catch (error) {
      if (!this.isStopped) this.scheduleRestart(error);
    }
  }

  private running(): void {
    // The loop failed again while starting: the restart already scheduled decides the state.
    if (this.timer) return;
    this.runningSince = Date.now();
    this.setState('running');
  }

  private setState(state: LoopState, error?: unknown): void {
    if (error !== undefined) this.lastError = describeError(error);
    if (state === this.current) return;
    const previous = this.current;
    this.current = state;
    this.since = new Date();
    this.options.onStateChange?.(this.status(), previous);
  }
}
