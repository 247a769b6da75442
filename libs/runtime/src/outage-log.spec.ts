import pino from 'pino';
import { OutageLog } from './outage-log.js';

describe('OutageLog', () => {
  it('logs one line when a dependency is lost and one when it is back, however many calls failed', () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let now = 1_000;
    const outage = new OutageLog('Redis at redis://127.0.0.1:6379', logger, () => now);

    for (let i = 0; i < 50; i += 1) outage.lost(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }));
    expect(outage.isDown).toBe(true);
    now += 4_200;
    outage.back(', re-dispatched 3 job(s) for resources with pending work');
    outage.back();

    expect(lines.map((line) => line.msg)).toEqual([
      'Redis at redis://127.0.0.1:6379 unavailable: connect ECONNREFUSED 127.0.0.1:6379; retrying with backoff',
      'Redis at redis://127.0.0.1:6379 back after 4.2 s (50 failed call(s)), re-dispatched 3 job(s) for resources with pending work',
    ]);
    expect(outage.isDown).toBe(false);
  });
});
