import { InMemoryRetryBackoffStore, nextRetryBackoff, retryBackoffGate, retryBackoffKey } from './retry-backoff.js';

/** The pure rules. */
const options = { baseMs: 1_000, capMs: 600_000 };

describe('persistent retry backoff', () => {
  it('doubles per unfinished run, capped, with ±20% jitter', () => {
    let state = nextRetryBackoff(undefined, 3, 0, 0.5, options);
    expect(state).toEqual({ generation: 3, attempts: 1, next_at_ms: 1_000 });
    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      state = nextRetryBackoff(state, 3, 0, 0.5, options);
      delays.push(state.next_at_ms);
    }
    expect(delays.slice(0, 4)).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(delays.at(-1)).toBe(600_000);
    expect(nextRetryBackoff(state, 3, 0, 0, options).next_at_ms).toBe(480_000);
    expect(nextRetryBackoff(state, 3, 0, 0.999999, options).next_at_ms).toBe(720_000);
  });

  it('a new generation starts over at attempt 1', () => {
    const state = nextRetryBackoff({ generation: 3, attempts: 9, next_at_ms: 0 }, 4, 10, 0.5, options);
    expect(state).toEqual({ generation: 4, attempts: 1, next_at_ms: 1_010 });
  });

  it('the gate defers a trigger until next_at_ms, only for the same generation', () => {
    const state = { generation: 3, attempts: 2, next_at_ms: 5_000 };
    expect(retryBackoffGate(state, 3, 4_999)).toEqual({ kind: 'defer', untilMs: 5_000 });
    expect(retryBackoffGate(state, 3, 5_000)).toEqual({ kind: 'run' });
    expect(retryBackoffGate(state, 4, 0)).toEqual({ kind: 'run' });
    expect(retryBackoffGate(undefined, 3, 0)).toEqual({ kind: 'run' });
  });

  it('a watch trigger passes a backoff of work in progress, never a failure backoff (nor one stored without a reason)', () => {
    const waiting = nextRetryBackoff(undefined, 3, 0, 0.5, options, 'wait');
    const failed = nextRetryBackoff(waiting, 3, 0, 0.5, options, 'failure');
    expect(waiting.reason).toBe('wait');
    expect(retryBackoffGate(waiting, 3, 10, 'watch')).toEqual({ kind: 'run' });
    expect(retryBackoffGate(waiting, 3, 10)).toEqual({ kind: 'defer', untilMs: 1_000 });
    expect(retryBackoffGate(failed, 3, 10, 'watch')).toEqual({ kind: 'defer', untilMs: 2_000 });
    expect(retryBackoffGate({ generation: 3, attempts: 1, next_at_ms: 1_000 }, 3, 10, 'watch')).toEqual({ kind: 'defer', untilMs: 1_000 });
  });

  it('records the dependency a failed run could not reach, on a failure only; the next state drops it unless it failed so again', () => {
    const unreachable = nextRetryBackoff(undefined, 3, 0, 0.5, options, 'failure', 'kubernetes');
    expect(unreachable).toMatchObject({ reason: 'failure', unreachable: 'kubernetes' });
    expect(nextRetryBackoff(unreachable, 3, 0, 0.5, options, 'failure')).not.toHaveProperty('unreachable');
    expect(nextRetryBackoff(unreachable, 3, 0, 0.5, options, 'wait', 'kubernetes')).not.toHaveProperty('unreachable');
  });

  it('keys are one per resource and adapter; the in-memory store keeps and clears them', async () => {
    const store = new InMemoryRetryBackoffStore();
    const key = retryBackoffKey('validation', 'Cluster', 'c1');
    expect(key).toBe('validation.cluster-c1');
    await store.set(key, { generation: 1, attempts: 2, next_at_ms: 9 });
    expect(await store.get(key)).toEqual({ generation: 1, attempts: 2, next_at_ms: 9 });
    await store.clear(key);
    expect(await store.get(key)).toBeUndefined();
  });
});
