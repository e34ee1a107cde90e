import { describe, expect, it } from 'vitest';
import { Clock } from './clock.ts';

describe('Clock', () => {
  it('reads the system time until moved forward, then keeps the offset', () => {
    const clock = new Clock();
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1_000);
    clock.advance(61_000);
    expect(clock.now() - Date.now()).toBeGreaterThanOrEqual(60_000);
  });

  it('never moves back', () => {
    const clock = new Clock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });
});
