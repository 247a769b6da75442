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

describe('in-process fences (nothing kept per group once its run ended)', () => {
  it('a fence is current while its run runs, not after; the next run of the group gets a larger sequence in the same millisecond', async () => {
    const queue = new InProcessJobQueue(() => 1_700_000_000_000);
    const fences: { sequence: number; isCurrent(): Promise<boolean> }[] = [];
    const currentDuringRun: boolean[] = [];
    queue.process('q', async (job) => {
      fences.push(job.fence!);
      currentDuringRun.push(await job.fence!.isCurrent());
    });
    await queue.enqueue('q', 'first', {}, { group: 'adapter.cluster-a' });
    await queue.idle();
    await queue.enqueue('q', 'second', {}, { group: 'adapter.cluster-a' });
    await queue.enqueue('q', 'other', {}, { group: 'adapter.cluster-b' });
    await queue.idle();

    expect(currentDuringRun).toEqual([true, true, true]);
    expect(await Promise.all(fences.map((f) => f.isCurrent()))).toEqual([false, false, false]);
    const [first, second, other] = fences.map((f) => f.sequence);
    expect(second).toBeGreaterThan(first!);
    expect(other).toBeGreaterThan(second!);
    // The groups' entries are gone with their runs (a private map: what used to grow per resource).
    expect((queue as unknown as { fences: Map<string, number> }).fences.size).toBe(0);
    await queue.close();
  });
});
