import { describe, expect, it } from 'vitest';
import { sparklinePath } from './sparkline.tsx';

describe('sparklinePath', () => {
  it('scales values into the box, highest at the top', () => {
    const path = sparklinePath([0, 5, 10], 100, 20);
    expect(path).toBe('M0.0,18.5L50.0,10.0L100.0,1.5');
  });
  it('is empty without values and flat for zeros', () => {
    expect(sparklinePath([], 100, 20)).toBe('');
    expect(sparklinePath([0, 0], 100, 20)).toBe('M0.0,18.5L100.0,18.5');
  });
});
