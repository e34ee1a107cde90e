import { describe, expect, it } from 'vitest';
import { watermarkOf } from './order-pages.ts';

describe('watermarkOf', () => {
  it('is the newest change in epoch ms, as Appwrite writes times', () => {
    expect(watermarkOf({ $updatedAt: '2026-11-30T08:33:00.123+00:00' })).toBe(
      Date.UTC(2026, 10, 30, 8, 33, 0, 123),
    );
  });

  it('is 0 without orders', () => {
    expect(watermarkOf(undefined)).toBe(0);
  });

  it('refuses what is not a time', () => {
    expect(() => watermarkOf({ $updatedAt: 'yesterday' })).toThrow(/Not a time: yesterday/);
  });
});
