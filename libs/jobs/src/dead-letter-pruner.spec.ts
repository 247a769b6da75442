/**
 * Which dead letters name finished work (dead-letter-pruner.ts): the subject read from queue and job id,
 * then the decision against the read model's view of the resource, one row per rule and per kept case.
 */
import { deadLetterSubject, whyWorkIsDone, type DeadLetterSubject, type ResourceProgress } from './dead-letter-pruner.js';

const present = (over: Partial<Extract<ResourceProgress, { phase: 'Present' }>> = {}): ResourceProgress => ({
  phase: 'Present',
  generation: 2,
  isDeleting: false,
  reconciled: { status: 'True', observed_generation: 2 },
  observedGenerations: { validation: 2 },
  ...over,
});

describe('deadLetterSubject', () => {
  it.each([
    ['hard-delete', 'hard-delete.cluster-c1.sweep-123', { id: 'c1', kind: 'Cluster' }, { work: 'hard-delete', resourceId: 'c1' }],
    ['adapter-run.validation', 'validation.cluster-c1.gen-2', {}, { work: 'adapter-run', resourceId: 'c1', adapter: 'validation', generation: 2 }],
    ['adapter-run.validation', 'validation.nodepool-np-9.gen-12.sweep-29876', {}, { work: 'adapter-run', resourceId: 'np-9', adapter: 'validation', generation: 12 }],
    ['adapter-run.dns.v2', 'dns.v2.cluster-c1.gen-3.w-4711', {}, { work: 'adapter-run', resourceId: 'c1', adapter: 'dns.v2', generation: 3 }],
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
    ['hard-delete of a hard-deleted resource', hardDelete, { phase: 'HardDeleted' }, 'HardDeleted'],
    ['adapter run of a hard-deleted resource', run(2), { phase: 'HardDeleted' }, 'HardDeleted'],
    ['adapter run at gen 1, the adapter reported gen 2 since', run(1), present({ isDeleting: true, reconciled: { status: 'False', observed_generation: 1 } }), 'Superseded'],
    ['adapter run of a live resource Reconciled at its generation', run(2), present({ observedGenerations: { validation: 2 } }), 'Reconciled'],
    ['adapter run at gen 1 of a live resource Reconciled at gen 2', run(1), present({ observedGenerations: {} }), 'Reconciled'],
    ['hard-delete of a resource still deleting', hardDelete, present({ isDeleting: true }), undefined],
    ['hard-delete of an id the read model does not know', hardDelete, undefined, undefined],
    ['adapter run of a deleting resource, even Reconciled', run(2), present({ isDeleting: true }), undefined],
    ['adapter run at the generation not reconciled yet', run(2), present({ reconciled: { status: 'False', observed_generation: 2 } }), undefined],
    ['adapter run newer than the Reconciled generation', run(3), present({ generation: 3 }), undefined],
    ['adapter run, another adapter reported a newer generation', run(1), present({ isDeleting: true, observedGenerations: { dns: 2, validation: 1 } }), undefined],
  ])('%s → %s', (_why, subject, progress, reason) => {
    expect(whyWorkIsDone(subject, progress)).toBe(reason);
  });
});
