/**
 * The behaviour every `JobQueue` must show, run against each implementation (in-process, BullMQ on a
 * real Redis): dedupe, delay, retry with backoff, transient vs terminal failures, the dead-letter set and
 * its retry, groups (also across two workers), idle, epoch, promoting the runs backed off because Kubernetes
 * was unreachable (also from two workers at once). Timings use small real delays.
 */
import { requeueBackedOffRuns } from '../backoff-recovery.js';
import { adapterRunQueue, reconcileCloudEvent, type AdapterRunJob } from '../job-names.js';
import { RetryableError, TerminalError, type Job, type JobQueue } from '../job-queue.port.js';
import { retryBackoffKey } from '../retry-backoff.js';

export interface QueueBackend {
  /** The queue under test (enqueues and processes). */
  readonly queue: JobQueue;
  /** Another worker on the same backend (a second process); in-process: the same instance. */
  secondWorker(): JobQueue;
  /** Closes every queue opened and drops the backend's data. */
  teardown(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function describeJobQueueBehaviour(name: string, open: () => Promise<QueueBackend>): void {
  describe(`JobQueue behaviour: ${name}`, () => {
    let backend: QueueBackend;
    let queue: JobQueue;

    beforeEach(async () => {
      backend = await open();
      queue = backend.queue;
    });
    afterEach(async () => backend.teardown());

    it('runs a job once; its id is deduplicated while waiting, while running and after completion', async () => {
      const runs: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      queue.process<{ n: number }>('dedupe', async (job) => {
        runs.push(`${job.id}:${job.data.n}`);
        await gate;
      });
      expect(await queue.enqueue('dedupe', 'a.cluster-1.gen-1', { n: 1 })).toBe(true);
      expect(await queue.enqueue('dedupe', 'a.cluster-1.gen-1', { n: 2 })).toBe(false);
      await sleep(50);
      expect(await queue.enqueue('dedupe', 'a.cluster-1.gen-1', { n: 3 })).toBe(false);
      release();
      await queue.idle();
      expect(await queue.enqueue('dedupe', 'a.cluster-1.gen-1', { n: 4 })).toBe(false);
      expect(await queue.enqueue('dedupe', 'a.cluster-1.gen-2', { n: 5 })).toBe(true);
      await queue.idle();
      expect(runs).toEqual(['a.cluster-1.gen-1:1', 'a.cluster-1.gen-2:5']);
    });

    it('runs a delayed job no earlier than delayMs; idle() waits for it', async () => {
      let ranAt = 0;
      queue.process('delay', async () => {
        ranAt = Date.now();
      });
      const enqueuedAt = Date.now();
      await queue.enqueue('delay', 'late', {}, { delayMs: 300 });
      await queue.idle();
      expect(ranAt - enqueuedAt).toBeGreaterThanOrEqual(290);
      expect(ranAt - enqueuedAt).toBeLessThan(2_000);
    });

    it('retries transient failures (RetryableError or any unknown error) with exponential, jittered backoff', async () => {
      const tries: { attempt: number; at: number }[] = [];
      queue.process('retry', async (job: Job<unknown>) => {
        tries.push({ attempt: job.attempt, at: Date.now() });
        if (job.attempt === 1) throw new Error('socket hang up');
        if (job.attempt === 2) throw new RetryableError('503 Service Unavailable');
      });
      await queue.enqueue('retry', 'flaky', {}, { attempts: 4, backoffMs: 80 });
      await queue.idle();
      expect(tries.map((t) => t.attempt)).toEqual([1, 2, 3]);
      const [first, second] = [tries[1]!.at - tries[0]!.at, tries[2]!.at - tries[1]!.at];
      // base 80 ms ±20 %, then 160 ms ±20 %: each gap is at least its backoff's floor. Only floors are
      // checked: a loaded box delays a due job by hundreds of ms (a 447 ms first gap was seen), so the
      // order of the two gaps is not the queue's to guarantee.
      expect(first).toBeGreaterThanOrEqual(60);
      expect(second).toBeGreaterThanOrEqual(120);
      expect(await queue.failed('retry')).toEqual([]);
    });

    it('fails a TerminalError at once: one run, no retry, listed as a dead letter', async () => {
      let runs = 0;
      queue.process('terminal', async () => {
        runs += 1;
        throw new TerminalError('task config: unknown identifier clustr');
      });
      await queue.enqueue('terminal', 'bad-config', { x: 1 }, { attempts: 5, backoffMs: 10 });
      await queue.idle();
      expect(runs).toBe(1);
      const failed = await queue.failed();
      expect(failed).toEqual([
        expect.objectContaining({
          queue: 'terminal',
          id: 'bad-config',
          data: { x: 1 },
          attempts: 1,
          error: expect.stringContaining('unknown identifier clustr'),
        }),
      ]);
      expect(Number.isNaN(Date.parse(failed[0]!.failed_time))).toBe(false);
    });

    it('moves an exhausted job to the dead-letter set; retry() runs it again with fresh attempts', async () => {
      let broken = true;
      const attempts: number[] = [];
      queue.process('exhaust', async (job) => {
        attempts.push(job.attempt);
        if (broken) throw new RetryableError('connection refused');
      });
      await queue.enqueue('exhaust', 'doomed', { y: 2 }, { attempts: 3, backoffMs: 10, group: 'g1' });
      await queue.idle();
      expect(attempts).toEqual([1, 2, 3]);
      expect(await queue.failed('exhaust')).toEqual([expect.objectContaining({ id: 'doomed', attempts: 3, error: 'connection refused' })]);
      // A dead letter still holds its id: the same fact does not enqueue it twice.
      expect(await queue.enqueue('exhaust', 'doomed', { y: 2 })).toBe(false);

      broken = false;
      expect(await queue.retry('exhaust', 'doomed')).toBe(true);
      await queue.idle();
      expect(attempts).toEqual([1, 2, 3, 1]);
      expect(await queue.failed('exhaust')).toEqual([]);
      expect(await queue.retry('exhaust', 'doomed')).toBe(false);
      expect(await queue.retry('exhaust', 'never-enqueued')).toBe(false);
      // An unknown queue is reported by name (decom jobs retry), and asking does not create it.
      expect(await queue.queueNames()).toContain('exhaust');
      expect(await queue.retry('bogus-queue', 'nope')).toBe(false);
      expect(await queue.queueNames()).not.toContain('bogus-queue');
    });

    it('removeFailed() drops a dead letter without running it; jobs not in the dead-letter set are left alone', async () => {
      const runs: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      queue.process<{ fail: boolean }>('prune', async (job) => {
        runs.push(job.id);
        if (job.data.fail) throw new TerminalError('PostgreSQL is down');
        await gate;
      });
      await queue.enqueue('prune', 'done-elsewhere', { fail: true });
      await queue.enqueue('prune', 'still-failed', { fail: true });
      await queue.enqueue('prune', 'running', { fail: false });
      await queue.enqueue('prune', 'later', { fail: false }, { delayMs: 60_000 });
      for (let i = 0; i < 100 && ((await queue.failed('prune')).length < 2 || !runs.includes('running')); i++) await sleep(20);
      expect(await queue.removeFailed('prune', 'done-elsewhere')).toBe(true);
      expect(await queue.removeFailed('prune', 'done-elsewhere')).toBe(false);
      expect(await queue.removeFailed('prune', 'running')).toBe(false);
      expect(await queue.removeFailed('prune', 'later')).toBe(false);
      expect(await queue.removeFailed('prune', 'never-enqueued')).toBe(false);
      expect(await queue.removeFailed('bogus-queue', 'nope')).toBe(false);
      expect(await queue.queueNames()).not.toContain('bogus-queue');
      expect((await queue.failed('prune')).map((f) => f.id)).toEqual(['still-failed']);
      expect((await queue.depths?.())?.find((d) => d.queue === 'prune')).toMatchObject({ failed: 1, delayed: 1, active: 1 });
      release();
      expect(runs.sort()).toEqual(['done-elsewhere', 'running', 'still-failed']);
      expect(await queue.retry('prune', 'done-elsewhere')).toBe(false);
      expect(await queue.retry('prune', 'later')).toBe(false);
    });

    it('never runs two jobs of one group at once, also across two workers; other groups run in parallel', async () => {
      const active = new Map<string, number>();
      const maxPerGroup = new Map<string, number>();
      let running = 0;
      let maxRunning = 0;
      const ran: string[] = [];
      const handler = async (job: Job<{ group: string }>) => {
        const g = job.data.group;
        active.set(g, (active.get(g) ?? 0) + 1);
        maxPerGroup.set(g, Math.max(maxPerGroup.get(g) ?? 0, active.get(g)!));
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await sleep(40);
        running -= 1;
        active.set(g, active.get(g)! - 1);
        ran.push(job.id);
      };
      queue.process('groups', handler, { concurrency: 3 });
      const second = backend.secondWorker();
      if (second !== queue) second.process('groups', handler, { concurrency: 3 });
      for (let i = 0; i < 4; i++) {
        for (const group of ['validation.c1', 'validation.c2']) {
          await queue.enqueue('groups', `${group}.gen-${i}`, { group }, { group });
        }
      }
      await queue.idle();
      await second.idle();
      expect(ran).toHaveLength(8);
      expect(new Set(ran).size).toBe(8);
      expect(Object.fromEntries(maxPerGroup)).toEqual({ 'validation.c1': 1, 'validation.c2': 1 });
      expect(maxRunning).toBe(2);
    });

    it('promotes the delayed runs backing off because Kubernetes was unreachable, once however many workers promote; releases the backoff of such dead letters', async () => {
      const store = queue.retryBackoff!;
      const name = adapterRunQueue('validation');
      const ran: string[] = [];
      const handler = async (job: Job<AdapterRunJob>) => {
        if (job.data.event.data.id === 'c-dead-lettered') throw new TerminalError('retries exhausted while Kubernetes was down');
        ran.push(job.id);
      };
      queue.process(name, handler, { concurrency: 2 });
      const second = backend.secondWorker();
      if (second !== queue) second.process(name, handler, { concurrency: 2 });
      const farAway = Date.now() + 600_000;
      // Resource → (job generation, its backoff): only c-unreachable's run backs off because of Kubernetes.
      const cases: [string, number, Parameters<typeof store.set>[1] | undefined, number?][] = [
        ['c-dead-lettered', 2, { generation: 2, attempts: 10, next_at_ms: farAway, reason: 'failure', unreachable: 'kubernetes' }, 0],
        ['c-unreachable', 2, { generation: 2, attempts: 6, next_at_ms: farAway, reason: 'failure', unreachable: 'kubernetes' }],
        ['c-answered', 2, { generation: 2, attempts: 6, next_at_ms: farAway, reason: 'failure' }],
        ['c-in-progress', 2, { generation: 2, attempts: 3, next_at_ms: farAway, reason: 'wait' }],
        ['c-older-generation', 1, { generation: 2, attempts: 6, next_at_ms: farAway, reason: 'failure', unreachable: 'kubernetes' }],
        ['c-no-backoff', 2, undefined],
      ];
      for (const [id, generation, state, delayMs = 600_000] of cases) {
        if (state) await store.set(retryBackoffKey('validation', 'Cluster', id), state);
        const jobId = `validation.cluster-${id}.gen-${generation}.backoff-6`;
        const data = { id, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${id}`, generation };
        const job: AdapterRunJob = {
          adapter: 'validation',
          rerun: 0,
          deferred: true,
          event: reconcileCloudEvent(data, jobId, new Date().toISOString()),
        };
        expect(await queue.enqueue(name, jobId, job, { delayMs, group: `validation.${id}`, attempts: 1 })).toBe(true);
      }
      for (let waited = 0; (await queue.failed(name)).length === 0 && waited < 5_000; waited += 20) await sleep(20);
      expect((await queue.failed(name)).map((f) => f.id)).toEqual(['validation.cluster-c-dead-lettered.gen-2.backoff-6']);
      // Not an adapter run of a hosted adapter: left alone.
      await queue.enqueue(adapterRunQueue('other'), 'other.cluster-c-unreachable.gen-2', {}, { delayMs: 600_000 });

      const promoted = await Promise.all([
        requeueBackedOffRuns(queue, ['validation'], 'kubernetes'),
        requeueBackedOffRuns(second, ['validation'], 'kubernetes'),
      ]);
      expect(promoted.reduce((a, b) => a + b.requeued, 0)).toBe(1);
      // The dead letter stays; the backoff that would hold its resource's next trigger is released.
      expect(promoted.map((p) => p.released)).toContain(1);
      expect((await store.get(retryBackoffKey('validation', 'Cluster', 'c-dead-lettered')))!.next_at_ms).toBeLessThanOrEqual(Date.now());
      expect((await store.get(retryBackoffKey('validation', 'Cluster', 'c-answered')))!.next_at_ms).toBe(farAway);
      expect(await queue.failed(name)).toHaveLength(1);
      const deadline = Date.now() + 5_000;
      while (ran.length === 0 && Date.now() < deadline) await sleep(20);
      await sleep(200);
      expect(ran).toEqual(['validation.cluster-c-unreachable.gen-2.backoff-6']);
      // A later recovery finds nothing more to promote; the other runs keep their time.
      expect(await requeueBackedOffRuns(second, ['validation'], 'kubernetes')).toEqual({ requeued: 0, released: 0 });
      const counts = Object.fromEntries((await queue.depths!()).map((c) => [c.queue, c.delayed]));
      expect(counts).toMatchObject({ [name]: 4, [adapterRunQueue('other')]: 1 });
    });

    it('lists the queues a worker consumes, also one registered by another worker; a queue only enqueued to is not', async () => {
      const consumed = adapterRunQueue('consumed');
      const unconsumed = adapterRunQueue('unconsumed');
      backend.secondWorker().process(consumed, async () => undefined);
      await queue.enqueue(unconsumed, 'waits', {});
      // A BullMQ worker names its connection once it has connected: poll, bounded.
      let queues: string[] = [];
      for (let tries = 0; tries < 100 && !queues.includes(consumed); tries += 1) {
        queues = (await queue.queueConsumers!()).map((c) => c.queue);
        if (!queues.includes(consumed)) await sleep(20);
      }
      expect(queues).toContain(consumed);
      expect(queues).not.toContain(unconsumed);
    });

    it('names its data with a stable epoch', async () => {
      const epoch = await queue.epoch();
      expect(epoch).toEqual(expect.any(String));
      expect(await queue.epoch()).toBe(epoch);
      expect(await backend.secondWorker().epoch()).toBe(epoch);
    });
  });
}
