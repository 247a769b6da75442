import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { Supervisor, type LoopState, type LoopStatus } from './supervisor.js';
import { isTransientError } from './transient-error.js';

/** A loop that fails on demand, like a runner whose onError is wired to the supervisor. */
class FlakyLoop {
  starts = 0;
  stops = 0;
  failStartsWith: unknown[] = [];
  async start(): Promise<void> {
    this.starts += 1;
    const error = this.failStartsWith.shift();
    if (error) throw error;
  }
  async stop(): Promise<void> {
    this.stops += 1;
  }
}

const connectionLost = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await sleep(2);
  }
}

describe('Supervisor', () => {
  const make = (loop: FlakyLoop) => {
    const changes: [LoopState, LoopState][] = [];
    const supervisor = new Supervisor('projections', loop, {
      baseDelayMs: 1,
      maxDelayMs: 4,
      random: () => 0.5,
      onStateChange: (status: LoopStatus, previous) => changes.push([previous, status.state]),
    });
    return { supervisor, changes };
  };

  it('restarts a loop that failed on a transient error, from stop() then start(), and logs each state once', async () => {
    const loop = new FlakyLoop();
    const { supervisor, changes } = make(loop);
    await supervisor.start();
    // Three failed restarts in a row (the database is still down), then it comes back.
    loop.failStartsWith = [connectionLost, connectionLost, connectionLost];
    supervisor.fail(connectionLost);
    supervisor.fail(connectionLost);
    await until(() => supervisor.state === 'running' && loop.starts === 5);

    expect(changes).toEqual([
      ['stopped', 'starting'],
      ['starting', 'running'],
      ['running', 'recovering'],
      ['recovering', 'running'],
    ]);
    expect(loop.stops).toBe(4);
    expect(supervisor.status()).toMatchObject({ name: 'projections', state: 'running', restarts: 4 });
    expect(supervisor.status().error).toBeUndefined();
    await supervisor.stop();
    expect(supervisor.state).toBe('stopped');
  });

  it('keeps retrying a non-transient failure as `failing`, with the error in its status', async () => {
    const loop = new FlakyLoop();
    const { supervisor } = make(loop);
    await supervisor.start();
    loop.failStartsWith = [new Error('projection broke'), new Error('projection broke')];
    supervisor.fail(new Error('projection broke'));
    expect(supervisor.status()).toMatchObject({ state: 'failing', error: 'projection broke' });
    await until(() => supervisor.state === 'running');
    await supervisor.stop();
  });

  it('a start that fails on a transient error is retried, a non-transient one is thrown', async () => {
    const flaky = new FlakyLoop();
    flaky.failStartsWith = [connectionLost];
    const { supervisor } = make(flaky);
    await supervisor.start();
    expect(supervisor.state).toBe('recovering');
    await until(() => supervisor.state === 'running');
    await supervisor.stop();

    const broken = new FlakyLoop();
    broken.failStartsWith = [new TypeError('bad config')];
    await expect(make(broken).supervisor.start()).rejects.toThrow('bad config');
  });

  it('stop() cancels a pending restart', async () => {
    const loop = new FlakyLoop();
    const supervisor = new Supervisor('dispatch', loop, { baseDelayMs: 50, random: () => 0.5 });
    await supervisor.start();
    jest.useFakeTimers();
    try {
      supervisor.fail(connectionLost);
      expect(jest.getTimerCount()).toBe(1); // the restart, due in 50 ms
      await supervisor.stop();
      expect(jest.getTimerCount()).toBe(0);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(loop.starts).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('isTransientError', () => {
  it.each([
    ['57P01 admin shutdown', connectionLost],
    ['40P01 deadlock', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
    ['40001 serialization', Object.assign(new Error('could not serialize access'), { code: '40001' })],
    ['08006 connection failure', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['pg connection end', new Error('Connection terminated unexpectedly')],
    ['pg pool timeout', new Error('timeout exceeded when trying to connect')],
    ['ioredis closed', new Error('Connection is closed.')],
    ['wrapped cause', new Error('projection stopped', { cause: connectionLost })],
    ['AggregateError', new AggregateError([new Error('x'), Object.assign(new Error('y'), { code: 'ECONNRESET' })])],
    ['self-declared', Object.assign(new Error('read models behind'), { isTransient: true })],
  ])('%s is transient', (_, error) => expect(isTransientError(error)).toBe(true));

  it.each([
    ['a bug', new TypeError('cannot read properties of undefined')],
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['not an error', 'boom'],
  ])('%s is not', (_, error) => expect(isTransientError(error)).toBe(false));
});
