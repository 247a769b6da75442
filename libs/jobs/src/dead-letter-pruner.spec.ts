/**
 * Which dead letters name finished work (dead-letter-pruner.ts): the subject read from queue and job id,
 * then the decision against the read model's view of the resource, one row per rule and per kept case.
 */
import { DeadLetterPruner, deadLetterSubject, whyWorkIsDone, type DeadLetterSubject, type ResourceProgress } from './dead-letter-pruner.js';
import type { JobQueue } from './job-queue.port.js';

const present = (generation: number): ResourceProgress => ({ phase: 'Present', generation });
const hardDeleted = (cause: string): ResourceProgress => ({ phase: 'HardDeleted', cause });

describe('deadLetterSubject', () => {
  it.each([
    ['hard-delete', 'hard-delete.cluster-c1.sweep-123', { id: 'c1', kind: 'Cluster' }, { work: 'hard-delete', resourceId: 'c1' }],
    [
      'adapter-run.validation',
      'validation.cluster-c1.gen-2',
      {},
      { work: 'adapter-run', resourceId: 'c1', adapter: 'validation', generation: 2 },
    ],
    [
      'adapter-run.validation',
      'validation.nodepool-np-9.gen-12.sweep-29876',
      {},
      { work: 'adapter-run', resourceId: 'np-9', adapter: 'validation', generation: 12 },
    ],
    [
      'adapter-run.dns.v2',
      'dns.v2.cluster-c1.gen-3.w-4711',
      {},
      { work: 'adapter-run', resourceId: 'c1', adapter: 'dns.v2', generation: 3 },
    ],
  ])('%s %s → %j', (queue, id, data, subject) => {
    expect(deadLetterSubject({ queue, id, data })).toEqual(subject);
  });

  it.each([
    ['hard-delete', 'hard-delete.cluster-c1.x', {}],
    ['adapter-run.validation', 'other.cluster-c1.gen-2', {}],
    ['adapter-run.validation', 'validation.cluster-c1', {}],
    ['audit-export', 'anything', { id: 'c1' }],
  ])('%s %s → undefined (kept: not a letter it can judge)', (queue, id, data) => {
    expect(deadLetterSubject({ queue, id, data })).toBeUndefined();
  });
});

describe('whyWorkIsDone', () => {
  const hardDelete: DeadLetterSubject = { work: 'hard-delete', resourceId: 'c1' };
  const run = (generation: number): DeadLetterSubject => ({ work: 'adapter-run', resourceId: 'c1', adapter: 'validation', generation });
  it.each<[string, DeadLetterSubject, ResourceProgress | undefined, string | undefined]>([
    ['hard-delete of a resource hard-deleted through its gate', hardDelete, hardDeleted('Reconciled'), 'HardDeleted'],
    ['adapter run of a resource hard-deleted through its gate', run(2), hardDeleted('Reconciled'), 'HardDeleted'],
    ['adapter run of a force-deleted resource (the letter is evidence of what failed)', run(2), hardDeleted('ForceDeleted'), undefined],
    ['hard-delete of a force-deleted resource', hardDelete, hardDeleted('ForceDeleted'), undefined],
    ['adapter run at gen 1 of a resource at gen 2', run(1), present(2), 'Superseded'],
    ['adapter run at the current generation (reports and Reconciled prove nothing)', run(2), present(2), undefined],
    ['adapter run newer than the read model (lagging)', run(3), present(2), undefined],
    ['hard-delete of a resource still present', hardDelete, present(2), undefined],
    ['hard-delete of an id the read model does not know', hardDelete, undefined, undefined],
    ['adapter run of an id the read model does not know', run(1), undefined, undefined],
  ])('%s → %s', (_why, subject, progress, reason) => {
    expect(whyWorkIsDone(subject, progress)).toBe(reason);
  });
});

describe('DeadLetterPruner.stop', () => {
  it('returns after its grace time when a running pass never settles (a queue call waiting for Redis)', async () => {
    let calls = 0;
    // Only the one call the pass makes; it never settles, as an ioredis command queued while Redis is unreachable.
    const unreachable = { failed: () => (calls++, new Promise<never>(() => undefined)) } as unknown as JobQueue;
    const pruner = new DeadLetterPruner(unreachable, { progressOf: async () => undefined }, { intervalMs: 5 });
    pruner.start();
    while (calls === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await pruner.stop(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(calls).toBe(1);
  });
});
