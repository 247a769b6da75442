import pino from 'pino';
import { StartupState } from '@decom/health';
import { StartAborted, retryUntilAvailable, startRetryDelayMs, untilAnswered } from './dependency-wait.js';

const refused = (port: number) => Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: 'ECONNREFUSED' });
const postgres = { dependency: 'postgres', label: 'PostgreSQL postgres://127.0.0.1:5999/decom' };
const FAST = { baseDelayMs: 1, maxDelayMs: 4 };

function capture() {
  const lines: { level: number; msg: string }[] = [];
  return { lines, logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) };
}

describe('startRetryDelayMs', () => {
  it.each([
    [1, 500],
    [2, 1_000],
    [3, 2_000],
    [5, 8_000],
    [6, 15_000],
    [60, 15_000],
  ])('after %i failed attempt(s): %i ms', (failures, ms) => {
    expect(startRetryDelayMs(failures)).toBe(ms);
  });
});

describe('retryUntilAvailable', () => {
  it('retries a dependency that is down and logs once when the wait starts and once when it answers, not per attempt', async () => {
    const { lines, logger } = capture();
    const state = new StartupState();
    const seen: unknown[] = [];
    let calls = 0;
    let gateOpened = 0;
    const opened = await retryUntilAvailable(
      async () => {
        calls += 1;
        if (calls <= 6) throw refused(5999);
        return 'store';
      },
      () => postgres,
      {
        logger,
        state,
        delays: FAST,
        onWaiting: async () => {
          gateOpened += 1;
          seen.push(state.current());
        },
      },
    );
    expect(opened).toBe('store');
    expect(calls).toBe(7);
    expect(gateOpened).toBe(1);
    expect(seen[0]).toMatchObject({ state: 'waiting', dependency: 'postgres', error: 'connect ECONNREFUSED 127.0.0.1:5999', attempts: 1 });
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [
        40,
        expect.stringMatching(
          /^PostgreSQL postgres:\/\/127\.0\.0\.1:5999\/decom unavailable at start: connect ECONNREFUSED 127\.0\.0\.1:5999; waiting for it/,
        ),
      ],
      [
        30,
        expect.stringMatching(
          /^PostgreSQL postgres:\/\/127\.0\.0\.1:5999\/decom answered after \d+\.\d s \(6 failed attempt\(s\)\): starting$/,
        ),
      ],
    ]);
    expect(state.current().state).toBe('starting');
  });

  it("logs again when the cause changes, and keeps the wait's start time", async () => {
    const { lines, logger } = capture();
    let now = Date.parse('2026-12-03T06:00:00Z');
    const state = new StartupState(() => new Date(now));
    const causes = [
      refused(5999),
      refused(5999),
      Object.assign(new Error('password authentication failed for user "decom"'), { code: '28P01' }),
    ];
    let since: string | undefined;
    await retryUntilAvailable(
      async () => {
        const cause = causes.shift();
        now += 1_000;
        if (state.current().state === 'waiting') since ??= (state.current() as { since: string }).since;
        if (cause) throw cause;
      },
      () => postgres,
      { logger, state, delays: FAST },
    );
    expect(lines.map((line) => line.msg)).toEqual([
      expect.stringContaining('unavailable at start: connect ECONNREFUSED'),
      'PostgreSQL postgres://127.0.0.1:5999/decom still unavailable: password authentication failed for user "decom" (28P01)',
      expect.stringContaining('answered after'),
    ]);
    expect(since).toBe('2026-12-03T06:00:01.000Z');
  });

  it('throws an error it does not classify at once (a configuration error must still exit)', async () => {
    const { lines, logger } = capture();
    let calls = 0;
    const broken = new Error('DATABASE_URL is not a valid URL');
    await expect(
      retryUntilAvailable(
        async () => {
          calls += 1;
          throw broken;
        },
        () => undefined,
        { logger, delays: FAST },
      ),
    ).rejects.toBe(broken);
    expect(calls).toBe(1);
    expect(lines).toEqual([]);
  });

  it('ends with StartAborted when the signal aborts during a pause', async () => {
    const { logger } = capture();
    const controller = new AbortController();
    const waiting = retryUntilAvailable(
      async () => {
        throw refused(5999);
      },
      () => postgres,
      {
        logger,
        signal: controller.signal,
        delays: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
        onWaiting: async () => void setTimeout(() => controller.abort(), 5),
      },
    );
    await expect(waiting).rejects.toEqual(new StartAborted('postgres'));
  });
});

describe('untilAnswered', () => {
  it('resolves with the answer, or StartAborted when the signal aborts first', async () => {
    expect(await untilAnswered(Promise.resolve('epoch'), new AbortController().signal, 'redis')).toBe('epoch');
    const controller = new AbortController();
    const never = new Promise<string>(() => undefined);
    const waiting = untilAnswered(never, controller.signal, 'redis');
    controller.abort();
    await expect(waiting).rejects.toThrow('stopped while waiting for redis');
  });
});

describe('StartupState', () => {
  it('reports not_ready naming the dependency until ready', () => {
    const state = new StartupState(() => new Date('2026-12-03T06:00:00Z'));
    state.waiting('redis', 'connect ECONNREFUSED 127.0.0.1:6999');
    expect(state.report()).toEqual({
      status: 'not_ready',
      checks: {
        startup: { state: 'waiting', dependency: 'redis', since: '2026-12-03T06:00:00.000Z', error: 'connect ECONNREFUSED 127.0.0.1:6999' },
      },
    });
    expect(state.describe()).toBe('waiting for redis since 2026-12-03T06:00:00.000Z (connect ECONNREFUSED 127.0.0.1:6999)');
    state.starting();
    expect(state.report().status).toBe('not_ready');
    state.ready();
    expect(state.report()).toMatchObject({ status: 'ready', checks: { startup: { state: 'ready' } } });
  });
});
