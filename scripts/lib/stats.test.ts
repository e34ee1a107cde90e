import { describe, expect, it } from 'vitest';
import { median, percentile } from './stats.ts';

describe('median', () => {
  it('takes the middle value of an odd count, whatever the order', () => {
    expect(median([30, 10, 50, 20, 40])).toBe(30);
  });

  it('takes the upper middle value of an even count, and leaves the input as it was', () => {
    const values = [4, 1, 3, 2];
    expect(median(values)).toBe(3);
    expect(values).toEqual([4, 1, 3, 2]);
  });
});

describe('percentile', () => {
  it('takes the nearest rank, whatever the order, and leaves the input as it was', () => {
    const values = [50, 10, 40, 20, 30, 60, 90, 70, 100, 80];
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(100);
    expect(percentile(values, 90)).toBe(90);
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 100)).toBe(100);
    expect(values[0]).toBe(50);
  });

  it('is NaN for no values', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});
