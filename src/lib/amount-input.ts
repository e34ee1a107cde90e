/** Amounts typed by a person, read and written as the browser's locale writes them. Pure. */
import { DEFAULT_LOCALE } from './format.ts';

/** The characters a locale writes between thousands and before decimals (`,` `.` in en-US). */
interface Separators {
  group: string;
  decimal: string;
}

const separatorsByLocale = new Map<string, Separators>();

function separatorsOf(locale: string): Separators {
  let separators = separatorsByLocale.get(locale);
  if (!separators) {
    const parts = new Intl.NumberFormat(locale).formatToParts(1234.5);
    separators = {
      group: parts.find((part) => part.type === 'group')?.value ?? ',',
      decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
    };
    separatorsByLocale.set(locale, separators);
  }
  return separators;
}

/** A thousands separator that is a space (fr-FR writes a narrow no-break one). */
const SPACE = /^[\s\u00a0\u202f]$/u;

/**
 * `text` (digits and separators) with its thousands separators removed, when it has them as the
 * locale writes them: a first group of 1–3 digits not starting with 0, then groups of three, and
 * another decimal separator than theirs. Null when its separators are not the locale's.
 */
function withoutGroups(text: string, group: string): string | null {
  const fraction = /[.,]\d{1,2}$/u.exec(text)?.[0] ?? '';
  const integer = text.slice(0, text.length - fraction.length);
  if (/^\d+$/u.test(integer)) return text;
  const parts = SPACE.test(group) ? integer.split(/[\s\u00a0\u202f]/u) : integer.split(group);
  const grouped =
    parts.length > 1 &&
    /^[1-9]\d{0,2}$/u.test(parts[0]!) &&
    parts.slice(1).every((part) => /^\d{3}$/u.test(part)) &&
    !fraction.startsWith(group);
  return grouped ? parts.join('') + fraction : null;
}

/**
 * Reads an amount as a person types it, to integer cents: digits with at most two decimals after a
 * point or a comma (`3.80`, `3,8`), thousands separated as `locale` writes them (`1,250.50` in
 * en-US, `1.250,50` in de-DE, `1 250,50` in fr-FR), a euro sign before or after (`€4`, `4 €`).
 * A minus sign is kept, never dropped (`-1`, `€-0.50`, `-€2` are negative), so a range check
 * refuses it. Null when it is not such an amount: letters, three decimals, two signs, a separator
 * the locale does not write between thousands — never reinterpreted.
 */
export function parseAmountInput(text: string, locale = DEFAULT_LOCALE): number | null {
  let rest = text.trim();
  let negative = false;
  if (rest.startsWith('-')) [negative, rest] = [true, rest.slice(1).trimStart()];
  if (rest.startsWith('€')) rest = rest.slice(1).trimStart();
  if (rest.startsWith('-') && !negative) [negative, rest] = [true, rest.slice(1).trimStart()];
  if (rest.endsWith('€')) rest = rest.slice(0, -1).trimEnd();
  const plain = withoutGroups(rest, separatorsOf(locale).group);
  const match = plain === null ? null : /^(\d+)(?:[.,](\d{1,2}))?$/u.exec(plain);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return negative ? -cents : cents;
}

/** Cents as an amount field shows them: `12.50` (en-US), `12,50` (de-DE); no thousands separator. */
export function amountInput(cents: number, locale = DEFAULT_LOCALE): string {
  return (cents / 100).toFixed(2).replace('.', separatorsOf(locale).decimal);
}
