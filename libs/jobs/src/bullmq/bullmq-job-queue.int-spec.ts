/**
 * BullMqJobQueue on a real Redis (`REDIS_URL`, or a throw-away `redis-server`): the shared behaviour
 * suite with a fresh key prefix per test, plus what only a shared Redis shows (FLUSHALL).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { useRedis, useThrowAwayRedis, type RedisForTests } from '../../../../test/support/redis.js';
import { describeJobQueueBehaviour } from '../testing/job-queue.behaviour.js';
import { BullMqJobQueue, type BullMqJobQueueOptions } from './bullmq-job-queue.js';

let redis: RedisForTests;
beforeAll(async () => {
  redis = await useRedis();
});
afterAll(async () => redis?.stop());

function openQueues(prefix = redis.prefix(), extra: Partial<BullMqJobQueueOptions> = {}) {
  const opened: BullMqJobQueue[] = [];
  const open = () => {
    const queue = new BullMqJobQueue({ url: redis.url, prefix, lockDurationMs: 2_000, groupRetryDelayMs: 30, ...extra });
    opened.push(queue);
    return queue;
  };
  return { open, closeAll: () => Promise.all(opened.map((q) => q.close())) };
}

describeJobQueueBehaviour('BullMQ', async () => {
  const { open, closeAll } = openQueues();
  const queue = open();
  let second: BullMqJobQueue | undefined;
  return { queue, secondWorker: () => (second ??= open()), teardown: async () => void (await closeAll()) };
});

describe('BullMqJobQueue on a shared Redis', () => {
  it('changes its epoch when Redis loses its data (FLUSHALL) and keeps working afterwards', async () => {
    // FLUSHALL wipes the whole server: a private one, never REDIS_URL.
    const own = await useThrowAwayRedis();
    const queues: BullMqJobQueue[] = [];
    const open = () => {
      const q = new BullMqJobQueue({ url: own.url, prefix: `decom-test-${randomUUID()}`, lockDurationMs: 2_000, groupRetryDelayMs: 30 });
      queues.push(q);
      return q;
    };
    const closeAll = async () => {
      await Promise.all(queues.map((q) => q.close()));
      await own.stop();
    };
    const admin = new Redis(own.url);
    try {
      const queue = open();
      const ran: string[] = [];
      queue.process('after-flush', async (job) => void ran.push(job.id));
      const before = await queue.epoch();
      await queue.enqueue('after-flush', 'one', {});
      await queue.idle();
      await admin.flushall();
      const after = await queue.epoch();
      expect(after).not.toBe(before);
      // The completed job's record is gone with the flush, so the same id is accepted again.
      expect(await queue.enqueue('after-flush', 'one', {})).toBe(true);
      await queue.idle();
      expect(ran).toEqual(['one', 'one']);
    } finally {
      await closeAll();
      await admin.quit();
    }
  });

  it('counts the worker processes of a queue, one fewer once one closed; queues of another prefix never show', async () => {
    const { open, closeAll } = openQueues();
    const other = openQueues();
    try {
      const reader = open();
      const worker = open();
      worker.process('gone-soon', async () => undefined);
      open().process('gone-soon', async () => undefined);
      other.open().process('elsewhere', async () => undefined);
      const consumedBy = async (want: number) => {
        for (let tries = 0; tries < 100; tries += 1) {
          const counts = await reader.queueConsumers();
          if ((counts.find((c) => c.queue === 'gone-soon')?.consumers ?? 0) === want) return counts;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return reader.queueConsumers();
      };
      expect(await consumedBy(2)).toEqual([{ queue: 'gone-soon', consumers: 2 }]);
      await worker.close();
      expect(await consumedBy(1)).toEqual([{ queue: 'gone-soon', consumers: 1 }]);
    } finally {
      await Promise.all([closeAll(), other.closeAll()]);
    }
  });

  it('lists dead letters of every queue under the prefix from another process', async () => {
    const prefix = redis.prefix();
    const { open, closeAll } = openQueues(prefix);
    try {
      const worker = open();
      worker.process('adapter-run.a', async () => {
        throw new Error('boom');
      });
      await worker.enqueue('adapter-run.a', 'j1', { n: 1 }, { attempts: 1 });
      await worker.idle();
      const operator = open();
      expect((await operator.failed()).map((f) => [f.queue, f.id, f.error])).toEqual([['adapter-run.a', 'j1', 'boom']]);
    } finally {
      await closeAll();
    }
  });
});
