import { delayDrawer } from './controller-loop.js';

describe('controller delays', () => {
  it('a number is a fixed delay', () => {
    expect(delayDrawer(0)()).toBe(0);
    expect(delayDrawer(120)()).toBe(120);
  });

  it('a range draws each delay uniformly between min and max, both included', () => {
    expect(delayDrawer({ min: 50, max: 300 }, () => 0)()).toBe(50);
    expect(delayDrawer({ min: 50, max: 300 }, () => 0.9999)()).toBe(300);
    expect(delayDrawer({ min: 50, max: 300 }, () => 0.5)()).toBe(175);
  });

  it.each([[-1], [{ min: -1, max: 5 }], [{ min: 10, max: 5 }], [Number.NaN]])('refuses %j', (delay) => {
    expect(() => delayDrawer(delay)).toThrow(RangeError);
  });
});
