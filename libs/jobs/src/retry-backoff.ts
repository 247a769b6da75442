/**
 * Backoff that persists: the retry delay of one resource and adapter lives with the work, not
 * with the trigger. Every sweep, fact or re-run of that resource and adapter consults the same state, so a
 * new trigger never restarts the chain from its first delay. Capped exponential with ±20% jitter; reset when
 * a run succeeds (its part is done) or the generation changes.
 */

/** The backoff of one resource and adapter. Times in ms since the epoch. */
export interface RetryBackoffState {
  /** The generation the attempts were counted at (a new generation starts over). */
  readonly generation: number;
  /** Consecutive runs that did not finish the adapter's part (failed, or still in progress). */
  readonly attempts: number;
  /** No new trigger runs before this time. */
  readonly next_at_ms: number;
  /**
   * Why the last run did not finish: `failure` holds every trigger back, `wait` (work merely in
   * progress) not one from a watch. Absent in states stored before it existed: read as `failure`.
   */
  readonly reason?: 'failure' | 'wait';
  /**
   * On a failure backoff: the dependency the last run could not reach at all (`kubernetes`: no answer from
   * the cluster's API server), so its recovery can re-run the work at once (backoff-recovery.ts). Absent
   * when the last failure had an answer (a 5xx, a conflict...) or another cause.
   */
  readonly unreachable?: string;
}

/** Where the state lives: Redis with BullMQ (survives worker restarts), memory in the embedded profile. */
export interface RetryBackoffStore {
  get(key: string): Promise<RetryBackoffState | undefined>;
  set(key: string, state: RetryBackoffState): Promise<void>;
  clear(key: string): Promise<void>;
}

export interface RetryBackoffOptions {
  /** First delay, in ms. */
  readonly baseMs: number;
  /** Cap of the delay, in ms. */
  readonly capMs: number;
}

/** Defaults: 1 s doubling to 10 min (≈ 6 calls/hour against a dead target once capped). */
export const PERSISTENT_BACKOFF: RetryBackoffOptions = { baseMs: 1_000, capMs: 10 * 60_000 };

/** The key of one resource and adapter (the adapter-run group). */
export function retryBackoffKey(adapter: string, kind: string, id: string): string {
  return `${adapter}.${kind.toLowerCase()}-${id}`;
}

/**
 * The state after one more unfinished run at `generation` (attempts restart at 1 on a new generation):
 * delay = min(cap, base · 2^(attempts−1)) · (0.8 + 0.4·random). `random` in [0,1). `unreachable` (kept on a
 * `failure` only): the dependency the failed run could not reach.
 */
export function nextRetryBackoff(
  previous: RetryBackoffState | undefined,
  generation: number,
  nowMs: number,
  random: number,
  options: RetryBackoffOptions,
  reason?: 'failure' | 'wait',
  unreachable?: string,
): RetryBackoffState {
  const attempts = previous && previous.generation === generation ? previous.attempts + 1 : 1;
  const raw = Math.min(options.capMs, options.baseMs * 2 ** Math.min(attempts - 1, 40));
  return {
    generation,
    attempts,
    next_at_ms: nowMs + Math.round(raw * (0.8 + 0.4 * random)),
    ...(reason && { reason }),
    ...(reason === 'failure' && unreachable && { unreachable }),
  };
}

/**
 * May a new trigger for `generation` run now? A state of another generation never holds work back.
 * A watch trigger is held only by a failure backoff: work in progress is what it signals.
 * @returns `run`, or `defer` until `untilMs`.
 */
export function retryBackoffGate(
  state: RetryBackoffState | undefined,
  generation: number,
  nowMs: number,
  trigger: 'fact' | 'watch' = 'fact',
): { readonly kind: 'run' } | { readonly kind: 'defer'; readonly untilMs: number } {
  if (!state || state.generation !== generation || state.next_at_ms <= nowMs) return { kind: 'run' };
  if (trigger === 'watch' && state.reason === 'wait') return { kind: 'run' };
  return { kind: 'defer', untilMs: state.next_at_ms };
}

/** In memory (embedded profile: its queue lives in memory too, so both start over after a restart). */
export class InMemoryRetryBackoffStore implements RetryBackoffStore {
  private readonly states = new Map<string, RetryBackoffState>();

  async get(key: string): Promise<RetryBackoffState | undefined> {
    return this.states.get(key);
  }

  async set(key: string, state: RetryBackoffState): Promise<void> {
    this.states.set(key, state);
  }

  async clear(key: string): Promise<void> {
    this.states.delete(key);
  }
}
