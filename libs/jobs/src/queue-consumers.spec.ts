import { QueueConsumers } from './queue-consumers.js';

describe('QueueConsumers (which queues have a live consumer, read at most once per ttl)', () => {
  it('reuses an answer within the ttl and reads again after it', async () => {
    let now = 0;
    const one = (queue: string) => ({ queue, consumers: 1 });
    const answers = [[one('adapter-run.a')], [one('adapter-run.a'), { queue: 'adapter-run.b', consumers: 2 }]];
    let reads = 0;
    const consumers = new QueueConsumers(
      async () => answers[reads++]!,
      3_000,
      () => now,
    );
    expect(await consumers.queues()).toEqual(['adapter-run.a']);
    now = 2_999;
    expect(await consumers.queues()).toEqual(['adapter-run.a']);
    now = 3_000;
    expect(await consumers.counts()).toEqual([one('adapter-run.a'), { queue: 'adapter-run.b', consumers: 2 }]);
    expect(reads).toBe(2);
  });

  it('concurrent reads share one call; a failed read is not kept', async () => {
    let reads = 0;
    let fail = true;
    const consumers = new QueueConsumers(
      async () => {
        reads += 1;
        if (fail) throw new Error('no answer');
        return [{ queue: 'hard-delete', consumers: 1 }];
      },
      3_000,
      () => 0,
    );
    await expect(Promise.all([consumers.queues(), consumers.queues()])).rejects.toThrow('no answer');
    expect(reads).toBe(1);
    fail = false;
    expect(await consumers.queues()).toEqual(['hard-delete']);
    expect(reads).toBe(2);
  });
});
