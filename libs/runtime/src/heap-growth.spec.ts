import { execFileSync } from 'node:child_process';
import { applyHeapGrowth, heapGrowingPercentFor } from './heap-growth.js';

describe('applyHeapGrowth', () => {
  it('sets --heap-growing-percent unless it is 0 or node was started with the flag', () => {
    const set: string[] = [];
    const record = (flags: string) => void set.push(flags);
    expect(applyHeapGrowth(50, [], record)).toBe('--heap-growing-percent=50');
    expect(applyHeapGrowth(0, [], record)).toBeUndefined();
    expect(applyHeapGrowth(50, ['--heap-growing-percent=10'], record)).toBeUndefined();
    expect(applyHeapGrowth(50, ['--heap_growing_percent=10'], record)).toBeUndefined();
    expect(applyHeapGrowth(30, ['--max-old-space-size=512'], record)).toBe('--heap-growing-percent=30');
    expect(set).toEqual(['--heap-growing-percent=50', '--heap-growing-percent=30']);
  });

  it('names a flag this V8 knows (node refuses an unknown one with "bad option")', () => {
    expect(() => execFileSync(process.execPath, ['--heap-growing-percent=50', '-e', ''], { stdio: 'pipe' })).not.toThrow();
    expect(() => execFileSync(process.execPath, ['--heap-growing-percentage=50', '-e', ''], { stdio: 'pipe' })).toThrow(/bad option/);
  });

  it('without DECOM_HEAP_GROWING_PERCENT: 20 for decom start (one heap for everything), 50 for api and worker; a set value wins everywhere', () => {
    expect(heapGrowingPercentFor('all', undefined)).toBe(20);
    expect(heapGrowingPercentFor('api', undefined)).toBe(50);
    expect(heapGrowingPercentFor('worker', undefined)).toBe(50);
    expect(heapGrowingPercentFor('all', 50)).toBe(50);
    expect(heapGrowingPercentFor('api', 0)).toBe(0);
  });
});
