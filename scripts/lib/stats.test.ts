import { describe, expect, it } from 'vitest';
import { median } from './stats.ts';

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
