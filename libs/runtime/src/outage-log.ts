/**
 * One log line when a dependency is lost and one when it is back, however many calls fail in
 * between: the first failure logs `<name> unavailable: <cause>`, the rest are counted; `back()` logs
 * `<name> back after <s> s (<n> failed calls)` plus what the caller did about it (e.g. a recovery sweep).
 */
import type { Logger } from 'pino';
import { describeError } from '@decom/event-store';

export class OutageLog {
  private lostAt: number | undefined;
  private failures = 0;

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  get isDown(): boolean {
    return this.lostAt !== undefined;
  }

  lost(error: unknown): void {
    this.failures += 1;
    if (this.lostAt !== undefined) return;
    this.lostAt = this.clock();
    this.logger.warn(`${this.name} unavailable: ${describeError(error)}; retrying with backoff`);
  }

  /** Logs the recovery once; `then` adds what was done about it (", re-dispatched 3 resources"). */
  back(then = ''): void {
    if (this.lostAt === undefined) return;
    const seconds = ((this.clock() - this.lostAt) / 1000).toFixed(1);
    this.logger.info(`${this.name} back after ${seconds} s (${this.failures} failed call(s))${then}`);
    this.lostAt = undefined;
    this.failures = 0;
  }
}
