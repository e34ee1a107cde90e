import { describe, expect, it } from 'vitest';
import {
  firstName,
  shortName,
  formatAge,
  formatClock,
  formatAmount,
  formatCount,
  formatPrice,
  formatDateTime,
  formatDay,
  formatDuration,
  initials,
} from './format.ts';

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
    expect(initials('Sim Kim (simulated)')).toBe('SK');
    expect(initials('Émile Zola')).toBe('ÉZ');
    expect(firstName('Ana Silva')).toBe('Ana');
  });

  it('calls a person by first name, with an initial when a teammate shares it', () => {
    const team = ['Ana Silva', 'Sim Kim (simulated)', 'Sim Lou (simulated)', 'Ben Okafor'].map(
      (name) => ({ name }),
    );
    expect(shortName('Ana Silva', team)).toBe('Ana');
    expect(shortName('Sim Kim (simulated)', team)).toBe('Sim K.');
    expect(shortName('Sim Lou (simulated)', team)).toBe('Sim L.');
    expect(shortName('Ana Costa', [{ name: 'Ana Silva' }, { name: 'Ana Costa' }])).toBe('Ana C.');
    expect(shortName('Ana', [{ name: 'Ana' }, { name: 'Ana Silva' }])).toBe('Ana');
    expect(shortName('Ben Okafor', [])).toBe('Ben');
  });
});

describe('dates follow the locale, with the day as a date input shows it', () => {
  const at = new Date(2026, 10, 23, 19, 58, 9).getTime();
  it('formats the day numerically in the locale’s order', () => {
    expect(formatDay(at, 'en-US')).toBe('11/23/2026');
    expect(formatDay(at, 'en-GB')).toBe('23/11/2026');
    expect(formatDay(at, 'de-DE')).toBe('23.11.2026');
  });

  it('a date and time starts with that same day', () => {
    for (const locale of ['en-US', 'en-GB', 'de-DE', 'ja-JP'])
      expect(formatDateTime(at, locale).startsWith(formatDay(at, locale))).toBe(true);
    expect(formatDateTime(at, 'en-GB')).toBe('23/11/2026, 19:58');
    expect(formatDateTime(null)).toBe('—');
    expect(formatClock(at, 'en-GB')).toBe('19:58:09');
  });
});

describe('money and counts follow the locale too', () => {
  it('writes an amount as the locale does, in the order’s currency', () => {
    expect(formatPrice(125_050, 'eur', 'en-US')).toBe('€1,250.50');
    expect(formatPrice(125_050, 'eur', 'de-DE')).toBe('1.250,50\u00a0€');
    expect(formatPrice(380, 'usd', 'en-GB')).toBe('US$3.80');
  });

  it('writes a count with the locale’s grouping', () => {
    expect(formatCount(100_000, 'en-US')).toBe('100,000');
    expect(formatCount(100_000, 'de-DE')).toBe('100.000');
  });

  it('takes the default locale when none is given (the browser’s)', () => {
    const locale = new Intl.NumberFormat().resolvedOptions().locale;
    expect(formatPrice(1250, 'eur')).toBe(formatPrice(1250, 'eur', locale));
    expect(formatCount(1234)).toBe(formatCount(1234, locale));
  });
});

describe('formatAmount', () => {
  it('writes cents with the locale’s separators, thousands included', () => {
    expect(formatAmount(1_000_000, 'en-US')).toBe('10,000.00');
    expect(formatAmount(1_000_000, 'de-DE')).toBe('10.000,00');
    expect(formatAmount(0, 'de-DE')).toBe('0,00');
  });
});
