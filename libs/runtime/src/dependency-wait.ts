/**
 * Waiting at start for a dependency that is down (PostgreSQL, EventStoreDB, Redis), instead of exiting:
 * under systemd or Kubernetes an exit during an outage becomes a crash loop, while a live process that
 * answers `/healthz` and reports `/readyz` 503 recovers by itself once the dependency answers.
 * Attempts back off from 0.5 s doubling to 15 s; the log gets one line when the wait starts, one when the
 * cause changes, and one when the dependency answers, never one per attempt.
 */
import type { Logger } from 'pino';
import { describeError } from '@decom/event-store';
import type { StartupState } from '@decom/health';

/** Delay before the next attempt, in ms: `baseDelayMs` after the first failure, doubling, at most `maxDelayMs`. */
export interface StartRetryDelays {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const START_RETRY_DELAYS: StartRetryDelays = { baseDelayMs: 500, maxDelayMs: 15_000 };

/** The pause after `failures` failed attempts (1 → 500 ms, 2 → 1 s, … capped at 15 s by default). */
export function startRetryDelayMs(failures: number, delays: StartRetryDelays = START_RETRY_DELAYS): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  return Math.min(delays.maxDelayMs, delays.baseDelayMs * 2 ** exponent);
}

/** The start was stopped (SIGINT/SIGTERM) while it waited for a dependency: nothing is wrong, exit 0. */
export class StartAborted extends Error {
  override readonly name = 'StartAborted';
  constructor(readonly dependency: string) {
    super(`stopped while waiting for ${dependency}`);
  }
}

/** What a start waits with: where it logs, the state `/readyz` reports, and the signal that stops it. */
export interface StartWait {
  readonly logger: Logger;
  readonly state?: StartupState;
  /** Aborted by SIGINT/SIGTERM: the wait ends with `StartAborted`. */
  readonly signal?: AbortSignal;
  /** Called before the first pause (the engine opens its start-up gate on the API port). */
  onWaiting?(): Promise<void>;
  readonly delays?: StartRetryDelays;
}

/** A failure worth waiting out: which dependency (`postgres`), and how the log names it (`PostgreSQL at …`). */
export interface Unavailable {
  readonly dependency: string;
  readonly label: string;
}

/**
 * Calls `open` until it resolves. A failure `classify` recognises is retried after `startRetryDelayMs`;
 * any other is thrown at once (a configuration error must still exit).
 * @throws StartAborted when `wait.signal` aborts during a pause; the first unrecognised error of `open`.
 */
export async function retryUntilAvailable<T>(
  open: () => Promise<T>,
  classify: (error: unknown) => Unavailable | undefined,
  wait: StartWait,
): Promise<T> {
  let failures = 0;
  let firstFailureAt = 0;
  let lastCause: string | undefined;
  let unavailable: Unavailable | undefined;
  for (;;) {
    if (wait.signal?.aborted) throw new StartAborted(unavailable?.dependency ?? 'dependencies');
    try {
      const opened = await open();
      if (unavailable) {
        const seconds = ((Date.now() - firstFailureAt) / 1000).toFixed(1);
        wait.logger.info(`${unavailable.label} answered after ${seconds} s (${failures} failed attempt(s)): starting`);
        wait.state?.starting();
      }
      return opened;
    } catch (error) {
      const reached = classify(error);
      if (!reached) throw error;
      failures += 1;
      const cause = describeError(error);
      if (!unavailable) {
        firstFailureAt = Date.now();
        wait.logger.warn(
          `${reached.label} unavailable at start: ${cause}; waiting for it (retrying with backoff up to ${(wait.delays ?? START_RETRY_DELAYS).maxDelayMs / 1000} s; /healthz answers, /readyz is 503 meanwhile)`,
        );
      } else if (cause !== lastCause || reached.dependency !== unavailable.dependency) {
        wait.logger.warn(`${reached.label} still unavailable: ${cause}`);
      }
      unavailable = reached;
      lastCause = cause;
      wait.state?.waiting(reached.dependency, cause, failures);
      if (failures === 1) await wait.onWaiting?.();
      await pause(startRetryDelayMs(failures, wait.delays), wait.signal, reached.dependency);
    }
  }
}

/**
 * Resolves with `answered` once it settles; `StartAborted` when `signal` aborts first (the caller closes
 * what `answered` waits on). For clients that reconnect by themselves (ioredis): nothing to retry here.
 */
export async function untilAnswered<T>(answered: Promise<T>, signal: AbortSignal | undefined, dependency: string): Promise<T> {
  if (!signal) return answered;
  if (signal.aborted) throw new StartAborted(dependency);
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      answered,
      new Promise<never>((_, reject) => {
        onAbort = () => reject(new StartAborted(dependency));
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Waits `ms`; the timer keeps the process alive (nothing else may), and is cleared when `signal` aborts. */
async function pause(ms: number, signal: AbortSignal | undefined, dependency: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await untilAnswered(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), signal, dependency);
  } finally {
    clearTimeout(timer);
  }
}
