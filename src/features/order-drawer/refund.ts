import type { Activity } from '../../../domain/entities.ts';
import type { Order } from '../../../domain/order.ts';
import { refundableCents } from '../../../domain/payment.ts';
import { amountInput, parseAmountInput } from '../../lib/amount-input.ts';
import { DEFAULT_LOCALE, formatPrice } from '../../lib/format.ts';

/** An amount the refund form accepts, or the message to show next to it. */
export type RefundAmount = { ok: true; cents: number } | { ok: false; message: string };

/**
 * Reads the refund form's amount as typed ({@link parseAmountInput}: `3.50`, `3,5`, `€3`, and
 * `1,250.50` in en-US or `1.250,50 €` in de-DE): above zero and at most what is left to refund of
 * `order`. Anything else is refused with a message, never reinterpreted.
 */
export function parseRefundAmount(
  text: string,
  order: Pick<Order, 'totalCents' | 'refundedCents' | 'currency'>,
  locale = DEFAULT_LOCALE,
): RefundAmount {
  if (text.trim() === '') return { ok: false, message: 'Enter an amount to refund.' };
  const cents = parseAmountInput(text, locale);
  if (cents === null)
    return { ok: false, message: `Enter an amount like ${amountInput(350, locale)}.` };
  if (cents <= 0)
    return { ok: false, message: `Refund more than ${formatPrice(0, order.currency, locale)}.` };
  const left = refundableCents(order);
  if (cents > left)
    return {
      ok: false,
      message: `You can refund at most ${formatPrice(left, order.currency, locale)}.`,
    };
  return { ok: true, cents };
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
