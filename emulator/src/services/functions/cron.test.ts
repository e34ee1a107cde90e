import { describe, expect, it } from 'vitest';
import { cronMatches, isValidCron, parseCron } from './cron.ts';

const at = (iso: string) => Date.parse(iso);

describe('cron', () => {
  it('matches every minute for * * * * *', () => {
    const schedule = parseCron('* * * * *');
    expect(cronMatches(schedule, at('2026-11-22T10:00:00Z'))).toBe(true);
    expect(cronMatches(schedule, at('2026-11-22T23:59:59Z'))).toBe(true);
  });

  it('reads lists, ranges, steps and names, in UTC', () => {
    const schedule = parseCron('*/15 9-17 * JAN,nov mon-fri');
    expect(cronMatches(schedule, at('2026-11-23T09:45:00Z'))).toBe(true); // Monday
    expect(cronMatches(schedule, at('2026-11-23T09:50:00Z'))).toBe(false);
    expect(cronMatches(schedule, at('2026-11-22T09:45:00Z'))).toBe(false); // Sunday
    expect(cronMatches(schedule, at('2026-12-01T09:45:00Z'))).toBe(false); // December
    expect(cronMatches(schedule, at('2026-11-23T18:00:00Z'))).toBe(false);
  });

  it('treats 7 as Sunday and ORs restricted day fields', () => {
    expect(cronMatches(parseCron('0 0 * * 7'), at('2026-11-22T00:00:00Z'))).toBe(true);
    const either = parseCron('0 0 1 * 1'); // the 1st, or any Monday
    expect(cronMatches(either, at('2026-11-01T00:00:00Z'))).toBe(true);
    expect(cronMatches(either, at('2026-11-23T00:00:00Z'))).toBe(true);
    expect(cronMatches(either, at('2026-11-24T00:00:00Z'))).toBe(false);
  });

  it('expands macros', () => {
    expect(cronMatches(parseCron('@hourly'), at('2026-11-22T10:00:00Z'))).toBe(true);
    expect(cronMatches(parseCron('@hourly'), at('2026-11-22T10:01:00Z'))).toBe(false);
    expect(cronMatches(parseCron('@daily'), at('2026-11-22T00:00:30Z'))).toBe(true);
  });

  it('rejects what is not a cron expression', () => {
    for (const bad of [
      '',
      'every minute',
      '* * * *',
      '60 * * * *',
      '* 24 * * *',
      '*/0 * * * *',
      '5-1 * * * *',
    ])
      expect(isValidCron(bad), bad).toBe(false);
    expect(isValidCron('0 3 * * sun')).toBe(true);
  });
});
