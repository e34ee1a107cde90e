import { describe, expect, it } from 'vitest';
import { firstName, formatAge, formatDuration, initials } from './format.ts';

describe('formatAge', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  it('is compact at every scale', () => {
    expect(formatAge(now - 2_000, now)).toBe('now');
    expect(formatAge(now - 45_000, now)).toBe('45s');
    expect(formatAge(now - 12 * 60_000, now)).toBe('12m');
    expect(formatAge(now - (3 * 60 + 5) * 60_000, now)).toBe('3h 05m');
    expect(formatAge(now - 50 * 3600_000, now)).toBe('2d');
    expect(formatAge(now + 10_000, now)).toBe('now');
  });
});

describe('formatDuration', () => {
  it('formats minutes and seconds, and null as a dash', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(42_000)).toBe('42s');
    expect(formatDuration(450_000)).toBe('7m 30s');
    expect(formatDuration(2 * 3600_000 + 60_000)).toBe('2h 01m');
  });
});

describe('names', () => {
  it('derives initials and first names', () => {
    expect(initials('Ana Silva')).toBe('AS');
    expect(initials('marco')).toBe('M');
    expect(initials('  ')).toBe('?');
    expect(firstName('Ana Silva')).toBe('Ana');
  });
});
