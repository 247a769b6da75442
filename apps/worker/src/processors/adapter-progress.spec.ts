import { adapterProgress } from './adapter-progress.js';

const status = (generation: number, conds: Record<string, 'True' | 'False'>) => ({
  adapter: 'validation',
  observed_generation: generation,
  conditions: Object.entries(conds).map(([type, s]) => ({ type, status: s, last_transition_time: 't' })),
  created_time: 't',
  last_report_time: 't',
});
const base = { adapter: 'validation', rerun: 0, baseDelayMs: 100, maxDelayMs: 1000 };

describe('adapterProgress', () => {
  it('is done when the resource is gone (404 after hard or force delete)', () => {
    expect(adapterProgress({ ...base })).toEqual({ kind: 'done', reason: 'resource is gone' });
  });

  it('waits while deleting until Finalized=True at the current generation', () => {
    const deleting = { generation: 2, deleted_time: 't' };
    expect(adapterProgress({ ...base, resource: deleting, status: status(2, { Available: 'True', Finalized: 'False' }) }).kind).toBe(
      'wait',
    );
    expect(adapterProgress({ ...base, resource: deleting, status: status(1, { Finalized: 'True' }) }).kind).toBe('wait');
    expect(adapterProgress({ ...base, resource: deleting, status: status(2, { Available: 'False', Finalized: 'True' }) }).kind).toBe(
      'done',
    );
  });

  it('backs off exponentially up to the cap', () => {
    const resource = { generation: 1 };
    const delays = [0, 1, 2, 3, 4, 10].map((rerun) => adapterProgress({ ...base, rerun, resource }));
    expect(delays.map((d) => (d.kind === 'wait' ? d.requeueAfterMs : -1))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
});
