import type { HttpProblem } from '../problem-details/problem.js';
import { StreamSlots } from './stream-slots.js';

describe('StreamSlots', () => {
  const refusal = (take: () => unknown) => {
    try {
      take();
    } catch (error) {
      return error as HttpProblem;
    }
    throw new Error('expected a refusal');
  };

  it('caps each caller and the process; a refusal takes nothing; a release is given back once', () => {
    const slots = new StreamSlots({ max_per_caller: 2, max_total: 3 });
    const a1 = slots.take('a');
    slots.take('a');
    const perCaller = refusal(() => slots.take('a'));
    expect(perCaller).toMatchObject({ status: 429, code: 'HYPERFLEET-LMT-001', headers: { 'retry-after': '30' } });
    expect(perCaller.message).toBe('at most 2 open event streams per caller; close one or retry later');
    expect(slots.count('a')).toBe(2);

    slots.take('b');
    expect(refusal(() => slots.take('c')).message).toBe('this server holds its maximum of 3 open event streams; retry later');
    expect(slots.count()).toBe(3);

    a1();
    a1();
    expect(slots.count()).toBe(2);
    expect(slots.count('a')).toBe(1);
    slots.take('c');
    expect(slots.count('c')).toBe(1);
    expect(refusal(() => slots.take('a')).status).toBe(429);
  });
});
