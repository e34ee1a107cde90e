import type { Activity } from '../../../domain/entities.ts';
import type { Order } from '../../../domain/order.ts';
import { refundableCents } from '../../../domain/payment.ts';
import { formatPrice } from '../../lib/format.ts';

/** An amount the refund form accepts, or the message to show next to it. */
export type RefundAmount = { ok: true; cents: number } | { ok: false; message: string };

/**
 * Reads the refund form's amount as typed (`3.50`, `3,5`, `€3`): digits with at most two
 * decimals, above zero and at most what is left to refund of `order`. Anything else (a sign,
 * letters, three decimals) is refused with a message, never reinterpreted.
 */
export function parseRefundAmount(
  text: string,
  order: Pick<Order, 'totalCents' | 'refundedCents' | 'currency'>,
): RefundAmount {
  const trimmed = text.trim().replace(/^€\s*|\s*€$/gu, '');
  if (trimmed === '') return { ok: false, message: 'Enter an amount to refund.' };
  if (/^-\s*\d/.test(trimmed) || /^0+(?:[.,]0{0,2})?$/.test(trimmed))
    return { ok: false, message: `Refund more than ${formatPrice(0, order.currency)}.` };
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(trimmed);
  if (!match) return { ok: false, message: 'Enter an amount like 3.50.' };
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  const left = refundableCents(order);
  if (cents > left)
    return { ok: false, message: `You can refund at most ${formatPrice(left, order.currency)}.` };
  return { ok: true, cents };
}

/** What is left to refund, as the amount field starts (`12.50`). */
export function refundInput(order: Pick<Order, 'totalCents' | 'refundedCents'>): string {
  return (refundableCents(order) / 100).toFixed(2);
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
