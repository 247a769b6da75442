import type { EventStore, RecordedEvent, SubscribeOptions, Subscription } from '@decom/event-store';
import { ReactorRunner, type CheckpointStore } from './reactor-runner.js';

/** A store whose subscription hands the test its handler: events are delivered by `deliver`. */
function fakeStore() {
  let handler: ((event: RecordedEvent) => Promise<void>) | undefined;
  let options: SubscribeOptions | undefined;
  const store = {
    subscribeToAll(h: (event: RecordedEvent) => Promise<void>, o: SubscribeOptions): Subscription {
      handler = h;
      options = o;
      return { close: async () => undefined };
    },
  } as unknown as EventStore;
  const deliver = (position: number) => handler!({ position, type: 'ResourceCreated' } as RecordedEvent);
  return { store, deliver, afterPosition: () => options?.afterPosition };
}

/** Checkpoints whose saves wait until `release` is called, recording each position asked for. */
function slowCheckpoints(stored = 0) {
  const saves: number[] = [];
  let pending: (() => void)[] = [];
  let failNext: unknown;
  const checkpoints: CheckpointStore = {
    load: async () => stored,
    save: (_name, position) => {
      saves.push(position);
      if (failNext !== undefined) {
        const error = failNext;
        failNext = undefined;
        return Promise.reject(error);
      }
      return new Promise<void>((resolve) => pending.push(() => ((stored = position), resolve())));
    },
  };
  const release = async () => {
    const now = pending;
    pending = [];
    now.forEach((r) => r());
    await new Promise((r) => setImmediate(r));
  };
  return { checkpoints, saves, release, stored: () => stored, failOnce: (error: unknown) => (failNext = error) };
}

const reactor = (handled: number[]) => ({ name: 'test', handle: async (event: RecordedEvent) => void handled.push(event.position) });

describe('ReactorRunner checkpoints', () => {
  it('resumes after the stored checkpoint', async () => {
    const { store, afterPosition } = fakeStore();
    const runner = new ReactorRunner(store, slowCheckpoints(7).checkpoints, reactor([]), () => undefined);
    await runner.start();
    expect(afterPosition()).toBe(7);
    expect(runner.checkpoint()).toBe(7);
  });

  it('writes the events handled during a save with the next save, the latest position only', async () => {
    const { store, deliver } = fakeStore();
    const slow = slowCheckpoints();
    const handled: number[] = [];
    const runner = new ReactorRunner(store, slow.checkpoints, reactor(handled), () => undefined);
    await runner.start();
    await deliver(1);
    await deliver(2);
    await deliver(3);
    expect(handled).toEqual([1, 2, 3]);
    expect(runner.checkpoint()).toBe(3);
    expect(slow.saves).toEqual([1]);
    await slow.release();
    expect(slow.saves).toEqual([1, 3]);
    await slow.release();
    expect(slow.stored()).toBe(3);
  });

  it('stop writes the last handled position', async () => {
    const { store, deliver } = fakeStore();
    const slow = slowCheckpoints();
    const runner = new ReactorRunner(store, slow.checkpoints, reactor([]), () => undefined);
    await runner.start();
    await deliver(1);
    await deliver(2);
    const stopped = runner.stop();
    await slow.release();
    await slow.release();
    await stopped;
    expect(slow.stored()).toBe(2);
  });

  it('a failed save goes to onError; the next event saves again', async () => {
    const { store, deliver } = fakeStore();
    const slow = slowCheckpoints();
    const errors: unknown[] = [];
    const runner = new ReactorRunner(store, slow.checkpoints, reactor([]), (error) => errors.push(error));
    await runner.start();
    const failure = new Error('read models unavailable');
    slow.failOnce(failure);
    await deliver(1);
    await new Promise((r) => setImmediate(r));
    expect(errors).toEqual([failure]);
    expect(slow.stored()).toBe(0);
    await deliver(2);
    await slow.release();
    expect(slow.stored()).toBe(2);
  });
});
