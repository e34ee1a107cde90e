/** Formatting for the desk: ages, durations, dates, money. Pure; `now` is passed in. */
import { formatMoney } from '../../domain/money.ts';

/** A compact age: `now`, `45s`, `12m`, `3h 05m`, `2d`. */
export function formatAge(sinceMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.floor((nowMs - sinceMs) / 1000));
  if (seconds < 5) return 'now';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d`;
}

/** A duration in minutes and seconds, e.g. `7m 30s`, or `—` for null. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * Dates follow the browser's locale (`navigator.language`; `undefined` lets Intl pick it) and
 * show the day in the locale's numeric form — the same form a date input shows in that
 * locale (`11/23/2026` in en-US, `23/11/2026` in en-GB, `23.11.2026` in de-DE) — so the table's
 * dates and the date filters read alike.
 */
const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
const formats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(
  locale: string | undefined,
  kind: 'day' | 'dateTime' | 'clock',
): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${kind}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'day'
        ? DAY
        : kind === 'dateTime'
          ? { ...DAY, hour: '2-digit', minute: '2-digit' }
          : { hour: '2-digit', minute: '2-digit', second: '2-digit' };
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** A day in the locale's numeric form, as a date input shows it: `11/23/2026` (en-US). */
export function formatDay(ms: number, locale?: string): string {
  return dateFormat(locale, 'day').format(ms);
}

/** A day and time: `11/23/2026, 07:58 PM` (en-US), `23/11/2026, 19:58` (en-GB); `—` for null. */
export function formatDateTime(ms: number | null, locale?: string): string {
  return ms === null ? '—' : dateFormat(locale, 'dateTime').format(ms);
}

/** A time of day with seconds: `19:58:09` (en-GB). */
export function formatClock(ms: number, locale?: string): string {
  return dateFormat(locale, 'clock').format(ms);
}

/** The locale Intl picks by default: the browser's (`navigator.language`). */
export const DEFAULT_LOCALE = new Intl.NumberFormat().resolvedOptions().locale;

/**
 * Money as the browser's locale writes it, like the dates: `€12.50` (en-US), `12,50 €` (de-DE).
 * (Messages written by the functions keep `formatMoney`'s en-US.)
 */
export function formatPrice(cents: number, currency: string, locale = DEFAULT_LOCALE): string {
  return formatMoney(cents, currency, locale);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, kind: 'count' | 'amount'): Intl.NumberFormat {
  const key = `${locale}|${kind}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      locale,
      kind === 'amount' ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : {},
    );
    numberFormats.set(key, format);
  }
  return format;
}

/** A count as the browser's locale writes it: `1,234` (en-US), `1.234` (de-DE). */
export function formatCount(n: number, locale = DEFAULT_LOCALE): string {
  return numberFormat(locale, 'count').format(n);
}

/** Cents as the locale writes an amount in a message: `10,000.00` (en-US), `10.000,00` (de-DE). */
export function formatAmount(cents: number, locale = DEFAULT_LOCALE): string {
  return numberFormat(locale, 'amount').format(cents / 100);
}

/** Initials for an avatar from the words that start with a letter: `Ana Silva` → `AS`, `Sim Kim (simulated)` → `SK`. */
export function initials(name: string): string {
  const parts = name
    .trim()
    .split(/\s+/)
    .filter((word) => /^\p{L}/u.test(word));
  if (parts.length === 0) return '?';
  const first = parts[0]![0] ?? '';
  const last = parts.length > 1 ? (parts.at(-1)![0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** First name only: `Ana Silva` → `Ana`. */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}

/**
 * What a card calls a person: the first name, with the next word's initial when someone else
 * in `team` has the same first name: `Sim Kim` beside `Sim Lou` → `Sim K.`.
 */
export function shortName(name: string, team: readonly { name: string }[]): string {
  const first = firstName(name);
  const shared = team.some(
    (other) => other.name.trim() !== name.trim() && firstName(other.name) === first,
  );
  const initial = name.trim().split(/\s+/)[1]?.match(/\p{L}/u)?.[0];
  return shared && initial ? `${first} ${initial.toUpperCase()}.` : first;
}
