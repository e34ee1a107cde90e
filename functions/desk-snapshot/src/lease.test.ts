import { describe, expect, it } from 'vitest';
import { isLeaseFree } from './lease.ts';

describe('isLeaseFree', () => {
  it('is free once released (0) or expired, held before', () => {
    expect(isLeaseFree(0, 1_000)).toBe(true);
    expect(isLeaseFree(1_000, 1_000)).toBe(true);
    expect(isLeaseFree(1_001, 1_000)).toBe(false);
  });
});
