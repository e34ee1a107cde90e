import { describe, expect, it } from 'vitest';
import { withNice } from './nice.ts';

describe('withNice', () => {
  it('leaves the command as is at 0', () => {
    expect(withNice(0, ['node', 'main.ts'])).toEqual(['node', 'main.ts']);
  });

  it('runs the command through nice otherwise', () => {
    expect(withNice(15, ['node', 'main.ts'])).toEqual(['nice', '-n', '15', 'node', 'main.ts']);
  });

  it('refuses a priority nice does not take', () => {
    expect(() => withNice(20, ['node'])).toThrow(
      'nice must be a whole number from 0 to 19, not 20',
    );
    expect(() => withNice(-1, ['node'])).toThrow(RangeError);
    expect(() => withNice(1.5, ['node'])).toThrow(RangeError);
  });
});
