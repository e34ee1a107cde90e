import { describe, expect, it } from 'vitest';
import { ALWAYS_LOADED, HISTORY_DAYS, windowStart } from './desk-window.ts';

describe("the desk's window", () => {
  it('starts the history days back and always holds the open and unpaid orders', () => {
    expect(windowStart(Date.UTC(2026, 10, 30), HISTORY_DAYS)).toBe(Date.UTC(2026, 9, 31));
    expect(ALWAYS_LOADED).toContain('pending_payment');
    expect(ALWAYS_LOADED).toContain('paid');
    expect(ALWAYS_LOADED).not.toContain('fulfilled');
  });
});
