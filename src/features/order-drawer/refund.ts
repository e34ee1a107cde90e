import type { Activity } from '../../../domain/entities.ts';
import type { Order } from '../../../domain/order.ts';
import { refundableCents } from '../../../domain/payment.ts';
import { DEFAULT_LOCALE, formatPrice } from '../../lib/format.ts';

/** An amount the refund form accepts, or the message to show next to it. */
export type RefundAmount = { ok: true; cents: number } | { ok: false; message: string };

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

/** Whether a locale's thousands separator is a space (fr-FR writes a narrow no-break one). */
const SPACE = /^[\s\u00a0\u202f]$/u;

/**
 * `text` with its thousands separators removed, when it has them as the locale writes them:
 * groups of three digits after the first, and another decimal separator than theirs. Null when
 * its separators are not the locale's or its groups are not of three.
 */
function withoutGroups(text: string, group: string): string | null {
  const fraction = /[.,]\d{1,2}$/u.exec(text)?.[0] ?? '';
  const integer = text.slice(0, text.length - fraction.length);
  if (/^\d+$/u.test(integer)) return text;
  const parts = SPACE.test(group) ? integer.split(/[\s\u00a0\u202f]/u) : integer.split(group);
  const grouped =
    parts.length > 1 &&
    /^\d{1,3}$/u.test(parts[0]!) &&
    parts.slice(1).every((part) => /^\d{3}$/u.test(part)) &&
    !fraction.startsWith(group);
  return grouped ? parts.join('') + fraction : null;
}

/**
 * Reads the refund form's amount as typed (`3.50`, `3,5`, `€3`, and in the browser's locale
 * `1,250.50` in en-US or `1.250,50 €` in de-DE): digits with at most two decimals after a point
 * or a comma, thousands separated as the locale writes them, above zero and at most what is left
 * to refund of `order`. Anything else (a sign, letters, three decimals, a separator the locale
 * does not write between thousands) is refused with a message, never reinterpreted.
 */
export function parseRefundAmount(
  text: string,
  order: Pick<Order, 'totalCents' | 'refundedCents' | 'currency'>,
  locale = DEFAULT_LOCALE,
): RefundAmount {
  const trimmed = text.trim().replace(/^€[\s\u00a0]*|[\s\u00a0]*€$/gu, '');
  if (trimmed === '') return { ok: false, message: 'Enter an amount to refund.' };
  if (/^-\s*\d/.test(trimmed) || /^0+(?:[.,]0{0,2})?$/.test(trimmed))
    return { ok: false, message: `Refund more than ${formatPrice(0, order.currency, locale)}.` };
  const plain = withoutGroups(trimmed, separatorsOf(locale).group);
  const match = plain === null ? null : /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(plain);
  if (!match) return { ok: false, message: `Enter an amount like ${amountInput(350, locale)}.` };
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  const left = refundableCents(order);
  if (cents > left)
    return {
      ok: false,
      message: `You can refund at most ${formatPrice(left, order.currency, locale)}.`,
    };
  return { ok: true, cents };
}

/** Cents as the amount field shows them: `12.50` (en-US), `12,50` (de-DE); no thousands separator. */
function amountInput(cents: number, locale: string): string {
  return (cents / 100).toFixed(2).replace('.', separatorsOf(locale).decimal);
}

/** What is left to refund, as the amount field starts (`12.50`, `12,50` in de-DE). */
export function refundInput(
  order: Pick<Order, 'totalCents' | 'refundedCents'>,
  locale = DEFAULT_LOCALE,
): string {
  return amountInput(refundableCents(order), locale);
}

/** One refund of an order, from its timeline. */
export interface RefundEntry {
  id: string;
  amountCents: number;
  /** Who refunded it (the desk member, "Stripe"), or null when not recorded. */
  by: string | null;
  at: number;
  /** Whether it came with canceling the order. */
  cancel: boolean;
}

/**
 * The refunds of an order, oldest first, from its activity: `refund` records (`amountCents`) and
 * cancels that refunded (`refundCents`).
 */
export function refundsOf(activity: readonly Activity[]): RefundEntry[] {
  const out: RefundEntry[] = [];
  for (const entry of activity) {
    const amount =
      entry.kind === 'refund'
        ? entry.data.amountCents
        : entry.kind === 'canceled'
          ? entry.data.refundCents
          : undefined;
    if (typeof amount !== 'number' || amount <= 0) continue;
    out.push({
      id: entry.id,
      amountCents: amount,
      by: entry.actorName,
      at: entry.at,
      cancel: entry.kind === 'canceled',
    });
  }
  return out.sort((a, b) => a.at - b.at);
}
