import { InProcessJobQueue } from './in-process-job-queue.js';
import { TerminalError } from './job-queue.port.js';
import { describeJobQueueBehaviour } from './testing/job-queue.behaviour.js';

describeJobQueueBehaviour('in-process', async () => {
  const queue = new InProcessJobQueue();
  return { queue, secondWorker: () => queue, teardown: () => queue.close() };
});

describe('in-process dead letters are bounded (a long-running embedded engine does not grow)', () => {
  it('keeps the newest `deadLetterLimit` failed jobs, dropping the oldest', async () => {
    const queue = new InProcessJobQueue(Date.now, Math.random, () => undefined, 3);
    queue.process('q', async () => {
      throw new TerminalError('broken for good');
    });
    for (const id of ['a', 'b', 'c', 'd', 'e']) await queue.enqueue('q', id, {});
    await queue.idle();
    expect((await queue.failed('q')).map((f) => f.id)).toEqual(['c', 'd', 'e']);
    // A dropped one is simply gone (no retry), a kept one can still be retried.
    expect(await queue.retry('q', 'a')).toBe(false);
    expect(await queue.retry('q', 'e')).toBe(true);
    await queue.close();
  });
});
